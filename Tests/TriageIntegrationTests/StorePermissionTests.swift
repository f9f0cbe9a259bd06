import Foundation
import XCTest

/// The built binary refuses a store others can write, or that belongs to another
/// user, as it refuses such a configuration (issue 24, fault 5): the store holds the
/// digest's command secret (`digest/`) and where each run stopped (`state/`). Every
/// command that opens the store stops with 78 and the chmod or chown to run, before
/// any password command; a store triage makes is private, and 0700 or 0755 is used.
final class StorePermissionTests: XCTestCase {
    private var folder = ""
    private var config: String { folder + "/triage.conf" }
    private var store: String { folder + "/store" }
    private var marker: String { folder + "/password-command-ran" }
    private static let fixedNow = "2027-01-10T09:00:00+01:00"

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.path + "/triage-store-mode-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/rules", withIntermediateDirectories: true)
        try "rule r when from:x then flag\n".write(toFile: folder + "/rules/r.rules", atomically: false, encoding: .utf8)
        try """
        [triage]
        me = me@example.test
        rules = rules
        store = store
        timezone = Europe/Berlin

        [account a]
        url = imaps://127.0.0.1:1
        user = me
        password_command = touch \(marker)
        timeout = 2

        """.write(toFile: config, atomically: false, encoding: .utf8)
        chmod(config, 0o600)
        // The store as triage makes it: a reminder, and the digest and state folders.
        let add = try triage(["remind", "add", "Renew", "passport", "on", "2027-01-15", "--now", Self.fixedNow])
        XCTAssertEqual(add.status, 0, add.err)
    }

    override func tearDown() {
        chown(store, 0, 0)
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func triage(_ args: [String]) throws -> TriageProcess.Result {
        try TriageProcess.run(args + ["--config", config], directory: folder)
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0, path)
        return info.st_mode & 0o7777
    }

    /// Every command that opens the store stops with 78, saying `expected`, and runs no password command.
    private func assertRefused(_ expected: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        for command in [["check"], ["run"], ["digest", "--preview"], ["queue"], ["remind"], ["status"], ["sync"], ["export", "ics"]] {
            let result = try triage(command)
            XCTAssertEqual(result.status, 78, "\(command): \(result.err)", file: file, line: line)
            for text in expected {
                XCTAssertTrue(result.err.contains(text), "\(command): \(result.err) lacks \(text)", file: file, line: line)
            }
        }
        // `watch` would run on: it must stop at once instead.
        let watch = try WatchProcess(config: config)
        let ended = WatchProcess.waitUntil(15) { !watch.isRunning }
        XCTAssertTrue(ended, "watch used the store: \(watch.out) \(watch.err)", file: file, line: line)
        if ended {
            for text in expected { XCTAssertTrue(watch.err.contains(text), "watch: \(watch.err) lacks \(text)", file: file, line: line) }
        } else {
            _ = watch.stop(SIGKILL)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "a password command ran with the store refused", file: file, line: line)
    }

    func testAStoreTriageMakesIsPrivateAnd0700Or0755IsUsed() throws {
        XCTAssertEqual(mode(store), 0o700)
        XCTAssertEqual(mode(store + "/reminders"), 0o700)
        XCTAssertEqual(mode(store + "/reminders/open"), 0o700)
        XCTAssertEqual(mode(store + "/format"), 0o600)
        for folderMode: mode_t in [0o700, 0o755] {
            chmod(store, folderMode)
            let list = try triage(["remind"])
            XCTAssertEqual(list.status, 0, "mode \(String(folderMode, radix: 8)): \(list.err)")
            XCTAssertTrue(list.out.contains("Renew passport"), list.out)
        }
    }

    func testAWorldWritableStoreIsRefusedByEveryCommand() throws {
        chmod(store, 0o777)
        try assertRefused(["the store folder \(store) is writable by group and others (mode 0777)", "run: chmod go-w \(store)"])
    }

    func testAGroupWritableStoreIsRefused() throws {
        chmod(store, 0o775)
        let result = try triage(["remind"])
        XCTAssertEqual(result.status, 78, result.err)
        XCTAssertTrue(result.err.contains("is writable by its group (mode 0775)"), result.err)
        XCTAssertTrue(result.err.contains("run: chmod go-w \(store)"), result.err)
    }

    func testAWritableDigestOrStateFolderIsRefused() throws {
        for sub in ["digest", "state"] {
            let path = store + "/" + sub
            XCTAssertEqual(mkdir(path, 0o700), 0, path)
            for folderMode: mode_t in [0o777, 0o775] {
                chmod(path, folderMode)
                let who = folderMode == 0o777 ? "group and others" : "its group"
                try assertRefused(["the store's folder \(path) is writable by \(who) (mode 0\(String(folderMode, radix: 8)))",
                                   "run: chmod go-w \(path)"])
            }
            chmod(path, 0o755)
            XCTAssertEqual(try triage(["remind"]).status, 0, "\(sub) 0755 is fine")
        }
    }

    func testAStoreOfAnotherUserIsRefused() throws {
        // The suite runs as root, which may give the folder away.
        XCTAssertEqual(chown(store, 65534, 65534), 0)
        try assertRefused(["the store folder \(store) belongs to uid 65534", "have root run: chown -R \(getuid()) \(store)"])
        XCTAssertEqual(chown(store, getuid(), getgid()), 0)
        XCTAssertEqual(mkdir(store + "/digest", 0o700), 0)
        XCTAssertEqual(chown(store + "/digest", 65534, 65534), 0)
        let result = try triage(["digest", "--preview"])
        XCTAssertEqual(result.status, 78, result.err)
        XCTAssertTrue(result.err.contains("have root run: chown -R \(getuid()) \(store)/digest"), result.err)
    }
}
