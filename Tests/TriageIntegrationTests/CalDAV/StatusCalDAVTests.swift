import Foundation
import TriageCore
import XCTest

/// `triage status` on `[caldav NAME]` targets against Radicale: the last sync, then a failure.
final class StatusCalDAVTests: XCTestCase {
    func testEachTargetsLastSyncAndFailureAreShown() throws {
        // An empty Maildir account, for `run` (which syncs at its end) to have one.
        let account = "\n[account local]\nurl = maildir:mail\nmailboxes = INBOX\n"
        let f = try CalDAVTestFolder("status-caldav", server: try CalDAVTestServer.radicale(), extra: account)
        defer { f.remove() }
        for leaf in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: "\(f.dir)/mail/\(leaf)", withIntermediateDirectories: true)
        }
        _ = try f.addReminder(CalDAVTestFolder.id(1), "Call Bob", due: CivilDate(year: 2030, month: 1, day: 20))
        func status(_ now: String) throws -> String {
            let result = try f.triage(["status", "--now", now])
            XCTAssertEqual(result.status, 0, result.err)
            return result.out
        }
        XCTAssertTrue(try status("2030-01-15T10:00:00+01:00").contains("CalDAV\n  phone  never synced\n"))

        let synced = try f.triage(["run", "--now", "2030-01-15T10:00:00+01:00"])
        XCTAssertEqual(synced.status, 0, synced.err)
        XCTAssertEqual(try f.server.items(f.reminders).count, 1, "the sync happened")
        let ok = try status("2030-01-15T10:05:00+01:00")
        XCTAssertTrue(ok.contains("CalDAV\n  phone  last sync 2030-01-15 10:00 (5m ago); ok\n"), ok)

        try f.writeConfig(password: "wrong", extra: account)
        let refused = try f.triage(["run", "--now", "2030-01-15T11:00:00+01:00"])
        XCTAssertEqual(refused.status, 77, refused.err)
        let failing = try status("2030-01-15T11:05:00+01:00")
        XCTAssertTrue(failing.contains("  phone  last sync 2030-01-15 11:00 (5m ago); FAILING since 2030-01-15 11:00 (5m ago), 1 run, exit 77: "),
                      failing)
        XCTAssertTrue(failing.contains("; last good sync 2030-01-15 10:00 (1h 5m ago)\n"), failing)
        XCTAssertFalse(failing.contains("wrong"), "the password is never shown")

        let json = try f.triage(["status", "--json", "--now", "2030-01-15T11:05:00+01:00"])
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let targets = try XCTUnwrap(object["caldav"] as? [[String: Any]])
        XCTAssertEqual(targets.count, 1)
        XCTAssertEqual(targets.first?["name"] as? String, "phone")
        XCTAssertEqual(targets.first?["last_sync"] as? String, "2030-01-15T11:00:00+01:00")
        XCTAssertEqual(targets.first?["last_success"] as? String, "2030-01-15T10:00:00+01:00")
        let failure = try XCTUnwrap(targets.first?["failure"] as? [String: Any])
        XCTAssertEqual(failure["exit_status"] as? Int, 77)
    }
}
