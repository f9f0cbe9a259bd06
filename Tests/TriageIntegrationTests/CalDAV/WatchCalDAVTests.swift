import Foundation
import TriageCore
import XCTest

/// `triage watch` beside a real CalDAV server (Radicale), with python3-caldav as the
/// phone (Tests/Servers/caldav-phone.py), and a Maildir account polled every second:
/// watch syncs as `run` does (issue 26). What is checked off on the phone comes back
/// while it runs, within `[caldav NAME] interval` (scaled by TRIAGE_TEST_TIME_SCALE);
/// a reminder a pass makes reaches the server right after that pass, long before the
/// interval; and each pass is a run `triage status` shows.
final class WatchCalDAVTests: XCTestCase {
    static let rules = """
        rule "bills"
          when subject:remindme
          then remind "Pay the bill" on 2026-12-10, move "Done"
        """

    private func folder(_ purpose: String, interval: Int) throws -> CalDAVTestFolder {
        let f = try CalDAVTestFolder(purpose, server: try CalDAVTestServer.radicale())
        addTeardownBlock { f.remove() }
        try Self.rules.write(toFile: f.dir + "/rules/test.rules", atomically: true, encoding: .utf8)
        for mailbox in ["", "/.Done"] {
            for sub in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(atPath: f.dir + "/mail" + mailbox + "/" + sub,
                                                        withIntermediateDirectories: true)
            }
        }
        try f.writeConfig(extra: "interval = \(interval)\n\n[account local]\nurl = maildir:mail\nmailboxes = INBOX\n")
        // A look at the Maildir every second ([triage] is the file's first section).
        let text = try String(contentsOfFile: f.config, encoding: .utf8)
            .replacingOccurrences(of: "timezone = Europe/Berlin\n", with: "timezone = Europe/Berlin\npoll_interval = 1\n")
        try text.write(toFile: f.config, atomically: true, encoding: .utf8)
        return f
    }

    private func deliver(_ f: CalDAVTestFolder, subject: String) throws {
        try "From: a@example.test\nSubject: \(subject)\nMessage-ID: <\(UUID().uuidString)@example.test>\n\nHello.\n"
            .write(toFile: f.dir + "/mail/new/\(UUID().uuidString).test", atomically: true, encoding: .utf8)
    }

    /// Checked off on the phone, and done here with `triage remind done`: both reach the
    /// other side while watch runs, within the interval (60 s scaled by 0.05: 3 s), with
    /// no mail arriving at all.
    func testWhatThePhoneChecksOffComesBackWithinTheInterval() throws {
        let f = try folder("watch-caldav-phone", interval: 60)
        try f.addReminder(CalDAVTestFolder.id(1), "Call Bob", due: CivilDate(year: 2026, month: 12, day: 10))
        try f.addReminder(CalDAVTestFolder.id(2), "Water plants", due: CivilDate(year: 2026, month: 12, day: 10))
        let watch = try WatchProcess(config: f.config, environment: WatchProcess.timeScale)
        watch.waitUntilWatching()
        // The sync on starting puts both on the phone.
        XCTAssertTrue(WatchProcess.waitUntil(20) { ((try? f.server.items(f.reminders)) ?? []).count == 2 },
                      "not on the phone: \(watch.out) \(watch.err)")

        try f.server.phone(f.reminders, ["complete", CalDAVTestFolder.id(1) + "@triage"])
        let done = WatchProcess.waitUntil(20) { f.reminder(CalDAVTestFolder.id(1))?.status == .done }
        XCTAssertTrue(done, "checked off on the phone, still open here: \(watch.out) \(watch.err)")

        let closed = try f.triage(["remind", "done", CalDAVTestFolder.id(2)])
        XCTAssertEqual(closed.status, 0, closed.err)
        let completed = WatchProcess.waitUntil(20) {
            ((try? f.server.items(f.reminders)) ?? []).first { $0.uid == CalDAVTestFolder.id(2) + "@triage" }?.completed == true
        }
        XCTAssertTrue(completed, "done here, still open on the phone: \(watch.out) \(watch.err)")
        XCTAssertEqual(watch.stop(), 0)
        XCTAssertFalse(watch.err.contains("caldav phone:"), watch.err)
    }

    /// A reminder made by a watch pass is on the phone within seconds though the
    /// interval is an hour: watch syncs after every pass that took mail. The pass is
    /// a run for `triage status`.
    func testAReminderMadeByAPassReachesThePhoneAndStatusShowsThePass() throws {
        let f = try folder("watch-caldav-pass", interval: 3600)
        let watch = try WatchProcess(config: f.config)
        watch.waitUntilWatching()
        // The sync on starting has run (an empty list made on the server).
        XCTAssertTrue(WatchProcess.waitUntil(20) { (try? f.server.items(f.reminders)) != nil }, watch.out + watch.err)
        try deliver(f, subject: "remindme: the electricity bill")
        let onPhone = WatchProcess.waitUntil(20) {
            ((try? f.server.items(f.reminders)) ?? []).contains { $0.summary == "Pay the bill" }
        }
        XCTAssertTrue(onPhone, "the pass's reminder did not reach the phone: \(watch.out) \(watch.err)")
        XCTAssertEqual(f.store.reminders().records.map(\.title), ["Pay the bill"])

        // Each pass (one a second here, the Maildir's poll) is a run of the account for status.
        func inboxRun() throws -> (account: [String: Any]?, inbox: [String: Any]?, text: String) {
            let status = try f.triage(["status", "--json"])
            XCTAssertEqual(status.status, 0, status.err)
            let json = try JSONSerialization.jsonObject(with: Data(status.out.utf8)) as? [String: Any]
            let account = (json?["accounts"] as? [[String: Any]])?.first
            return (account, (account?["mailboxes"] as? [[String: Any]])?.first, status.out)
        }
        let first = try inboxRun()
        XCTAssertEqual(first.account?["name"] as? String, "local", first.text)
        XCTAssertTrue(first.account?["last_success"] is String, "a watch pass is a run for status: \(first.text)")
        let firstPass = first.inbox?["last_run"] as? String
        XCTAssertNotNil(firstPass, first.text)
        let later = try WatchProcess.waitUntil(10) { try inboxRun().inbox?["last_run"] as? String != firstPass }
        XCTAssertTrue(later, "the next pass is not in the record: \((try? inboxRun().text) ?? "")")
        XCTAssertEqual(watch.stop(), 0)
    }
}
