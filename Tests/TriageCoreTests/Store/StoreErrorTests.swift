import Foundation
import TriageCore
import XCTest

/// Which store failures are temporary (75: the environment) and which are not (73).
final class StoreErrorTests: XCTestCase {
    func testEnvironmentalFailuresExit75WithAClearMessage() {
        let full = StoreError.io(path: "/s/queue/open/x.json", operation: "create", errno: ENOSPC)
        XCTAssertEqual(full.exitStatus, .tempFail)
        XCTAssertTrue(full.message.contains("file system is full") && full.message.contains("Nothing was lost"), full.message)
        let readOnly = StoreError.io(path: "/s/lock", operation: "open the lock file", errno: EROFS)
        XCTAssertEqual(readOnly.exitStatus, .tempFail)
        XCTAssertTrue(readOnly.message.hasPrefix("/s/lock: cannot open the lock file: Read-only file system"), readOnly.message)
        for code in [EIO, EDQUOT, EMFILE, ENFILE] {
            XCTAssertEqual(StoreError.io(path: "/s", operation: "write", errno: code).exitStatus, .tempFail, "errno \(code)")
        }
    }

    func testSetupFailuresStay73() {
        for code in [EACCES, EPERM, ENOTDIR] {
            let error = StoreError.io(path: "/s", operation: "create", errno: code)
            XCTAssertEqual(error.exitStatus, .cantCreate, "errno \(code)")
            XCTAssertTrue(error.message.contains("permissions"), error.message)
        }
    }
}
