import Foundation
import TriageCore
import XCTest

/// The whole loop of issue 26 at once: `triage watch` on four IMAP mailboxes of a Dovecot
/// that allows a user 2 connections from one address (127.0.0.45 in
/// Tests/Servers/dovecot.sh), beside a CalDAV server (Radicale, python3-caldav as the
/// phone). Mail to the fourth mailbox makes a reminder that reaches the phone; the
/// phone checks it off and it is done here, while no login was refused.
final class WatchBesideCalDAVWithinALimitTests: XCTestCase {
    static let rules = """
        rule "bills"
          when subject:remindme
          then remind "Pay the bill" on 2026-12-10, move "Done"
        """

    private let mailboxes = ["INBOX", "Lists", "Work", "Later"]

    func testAReminderFromTheFourthMailboxReachesThePhoneAndComesBackDoneUnderALimitOfTwo() throws {
        let f = try CalDAVTestFolder("watch-caldav-limit", server: try CalDAVTestServer.radicale())
        addTeardownBlock { f.remove() }
        try Self.rules.write(toFile: f.dir + "/rules/test.rules", atomically: true, encoding: .utf8)
        let dovecot = try DovecotServer.shared()
        let user = try dovecot.makeUser("watch-caldav-limit")
        for mailbox in mailboxes.dropFirst() + ["Done"] { try dovecot.createMailbox(user: user, mailbox) }
        try DovecotServer.password.write(toFile: f.dir + "/imap-pw", atomically: true, encoding: .utf8)
        try f.writeConfig(extra: """
            interval = 60

            [account mail]
            url = imaps://127.0.0.45:\(dovecot.imapsPort)
            user = \(user)
            password_command = cat \(f.dir)/imap-pw
            ca_file = \(dovecot.caFile)
            mailboxes = \(mailboxes.joined(separator: ", "))
            max_connections = 2
            """)

        let watch = try WatchProcess(config: f.config, environment: WatchProcess.timeScale)
        watch.waitUntilWatching(mailboxes: 4)
        // By IMAP APPEND through 127.0.0.1, whose limit is Dovecot's default.
        try dovecot.append(user: user, folder: "Later", [SeedMessage(text: "From: Power Co <bills@power.example.test>\nTo: me@example.test\n"
            + "Subject: remindme: the electricity bill\nMessage-ID: <\(UUID().uuidString)@example.test>\n\nDue soon.\n")])

        let onPhone = WatchProcess.waitUntil(30) {
            ((try? f.server.items(f.reminders)) ?? []).contains { $0.summary == "Pay the bill" }
        }
        XCTAssertTrue(onPhone, "the reminder did not reach the phone: \(watch.out) \(watch.err)")
        XCTAssertEqual(dovecot.files(user: user, mailbox: "Done").count, 1, "the message left Later")
        let reminder = try XCTUnwrap(f.store.reminders().records.first)
        try f.server.phone(f.reminders, ["complete", reminder.id + "@triage"])
        // Checked off on the phone: done here within the interval (60 s scaled by 0.05), no mail needed.
        let done = WatchProcess.waitUntil(30) { f.reminder(reminder.id)?.status == .done }
        XCTAssertTrue(done, "checked off on the phone, still open here: \(watch.out) \(watch.err)")
        XCTAssertEqual(watch.stop(), 0)
        XCTAssertEqual(watch.err, "")
        let refused = dovecot.log().components(separatedBy: "\n").filter { $0.contains("Maximum number") && $0.contains("<\(user)>") }
        XCTAssertEqual(refused, [], "a login was refused for the connection limit")
    }
}
