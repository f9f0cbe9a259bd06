import Foundation
import TriageCore
import XCTest

/// `triage watch` keeps the run record and quiet failures as `triage run` does
/// (issue 26): a lost connection is the account's failure in `triage status`; with
/// `quiet_failures`, a temporary one is not said before it has lasted that long (the
/// reconnect lines give way), and it is in the digest's Problems.
final class WatchRunRecordTests: XCTestCase {
    /// An account on a port where nothing listens (connection refused: 75), beside a
    /// Maildir account that works.
    private func folder(_ purpose: String, quiet: Bool) throws -> TestFolder {
        let folder = try TestFolder(purpose, rules: "")
        addTeardownBlock { folder.remove() }
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: folder.dir + "/mail/" + sub, withIntermediateDirectories: true)
        }
        var triage = ConfigSection.triage()
        triage.lines.append(("poll_interval", "1"))
        if quiet { triage.lines.append(("quiet_failures", "1h")) }
        try folder.writeConfig([
            triage,
            ConfigSection("account down", ["url": "imap://127.0.0.1:1", "user": "u", "password_command": "echo x",
                                           "tls": "off", "mailboxes": "INBOX"]),
            ConfigSection("account local", ["url": "maildir:mail", "mailboxes": "INBOX"]),
        ])
        return folder
    }

    private func downFailure(_ folder: TestFolder) throws -> [String: Any]? {
        let status = try TriageProcess.run(["status", "--json", "--config", folder.config])
        let json = try JSONSerialization.jsonObject(with: Data(status.out.utf8)) as? [String: Any]
        let accounts = json?["accounts"] as? [[String: Any]]
        return accounts?.first { $0["name"] as? String == "down" }?["failure"] as? [String: Any]
    }

    func testALostConnectionIsTheAccountsFailureInStatus() throws {
        let folder = try folder("watch-record", quiet: false)
        let watch = try WatchProcess(config: folder.config, environment: WatchProcess.timeScale)
        let recorded = try WatchProcess.waitUntil(20) { try downFailure(folder) != nil }
        XCTAssertTrue(recorded, "no failure recorded for status: \(watch.out) \(watch.err)")
        XCTAssertEqual(try downFailure(folder)?["exit_status"] as? Int, 75)
        // Without quiet_failures the reconnect policy says it, once.
        XCTAssertTrue(watch.err.contains("triage: watch: down/INBOX:"), watch.err)
        XCTAssertEqual(watch.stop(), 0)
    }

    func testWithQuietFailuresATemporaryFailureIsKeptQuietAndGoesToTheDigest() throws {
        let folder = try folder("watch-quiet", quiet: true)
        let watch = try WatchProcess(config: folder.config, environment: WatchProcess.timeScale)
        let recorded = try WatchProcess.waitUntil(20) { try downFailure(folder) != nil }
        XCTAssertTrue(recorded, "no failure recorded for status: \(watch.out) \(watch.err)")
        // A few more attempts (pauses of 0.05, 0.1, 0.2 ... s under the time scale): none said.
        XCTAssertTrue(WatchProcess.waitUntil(20) { ((try? downFailure(folder))?["runs"] as? Int ?? 0) >= 3 })
        XCTAssertEqual(watch.stop(), 0)
        XCTAssertFalse(watch.err.contains("down"), "said before quiet_failures passed: \(watch.err)")
        let problems = Store(path: folder.dir + "/store", timeZone: TimeZone(identifier: "UTC")!).digestEntries().records
        XCTAssertTrue(problems.contains { $0.message.subject?.contains("account down failing since") == true },
                      "not in the digest's Problems: \(problems)")
    }
}
