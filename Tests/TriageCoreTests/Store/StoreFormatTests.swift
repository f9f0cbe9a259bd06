import Foundation
import TriageCore
import XCTest

/// The store's format marker (`STORE/format`): written by the first write, added
/// to an old store without one, and a newer or unreadable one refused (exit 65)
/// before anything is read or changed.
final class StoreFormatTests: XCTestCase {
    private var folder = ""
    private var root: String { folder + "/store" }
    private var marker: String { root + "/format" }

    override func setUp() {
        folder = StoreFixtures.freshFolder()
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func testTheFirstWriteRecordsTheFormat() throws {
        XCTAssertNoThrow(try Store.open(path: root, timeZone: StoreFixtures.zone), "a store not made yet opens")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root), "opening writes nothing")
        let store = try Store.open(path: root, timeZone: StoreFixtures.zone)
        try store.put(StoreFixtures.queueEntry(1))
        XCTAssertEqual(try String(contentsOfFile: marker, encoding: .utf8), "\(Store.format)\n")
        XCTAssertEqual(StoreFixtures.mode(marker), 0o600)
    }

    func testAnOldStoreWithoutTheMarkerIsReadAndUpgradedByItsFirstWrite() throws {
        let store = Store(path: root, timeZone: StoreFixtures.zone)
        try store.put(StoreFixtures.queueEntry(1))
        try FileManager.default.removeItem(atPath: marker) // as an older triage left it
        let opened = try Store.open(path: root, timeZone: StoreFixtures.zone)
        XCTAssertEqual(opened.openQueueEntries().records, [StoreFixtures.queueEntry(1)])
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "reading changes nothing")
        try opened.put(StoreFixtures.queueEntry(2))
        XCTAssertEqual(try String(contentsOfFile: marker, encoding: .utf8), "\(Store.format)\n")
        XCTAssertEqual(opened.openQueueEntries().records.count, 2)
    }

    func testANewerFormatIsRefusedAndNothingChanges() throws {
        let store = Store(path: root, timeZone: StoreFixtures.zone)
        try store.put(StoreFixtures.queueEntry(1))
        try "\(Store.format + 1)\n".write(toFile: marker, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try Store.open(path: root, timeZone: StoreFixtures.zone)) { error in
            guard let error = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertEqual(error, .format(store: self.root, found: "\(Store.format + 1)", supported: Store.format))
            XCTAssertEqual(error.exitStatus, .dataError)
            XCTAssertTrue(error.message.contains("newer triage"), error.message)
            XCTAssertTrue(error.message.contains(self.root + "/format"), error.message)
        }
        let before = try FileManager.default.subpathsOfDirectory(atPath: root).sorted()
        XCTAssertThrowsError(try store.put(StoreFixtures.queueEntry(2))) { error in
            XCTAssertEqual((error as? StoreError)?.exitStatus, .dataError)
        }
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: root).sorted(), before)
        XCTAssertEqual(try String(contentsOfFile: marker, encoding: .utf8), "\(Store.format + 1)\n")
    }

    func testAMarkerThatIsNotANumberIsRefused() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try "triage\u{1b}[31m\n".write(toFile: marker, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try Store.open(path: root, timeZone: StoreFixtures.zone)) { error in
            guard let error = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.exitStatus, .dataError)
            XCTAssertTrue(error.message.contains("should hold the store's format number"), error.message)
            XCTAssertFalse(error.message.contains("\u{1b}"), "the file's bytes never reach a terminal raw")
        }
    }
}
