import Foundation
import TriageCore
import TriageIMAP
import XCTest

/// `triage watch` within a connection budget (issue 26), against a Dovecot that allows
/// a user 2 connections from one address (127.0.0.45 and .46 in Tests/Servers/dovecot.sh)
/// or 1 (127.0.0.47): four mailboxes are watched and their mail processed without one
/// refused login, with NOTIFY (one connection) and without it (IDLE on INBOX, a STATUS
/// poll of the rest); and a login refused for too many connections says so.
final class WatchBudgetTests: XCTestCase {
    static let rules = """
        rule "watched mail leaves its mailbox"
          when subject:watch
          then queue w, move "Done"
        """

    private let mailboxes = ["INBOX", "Lists", "Work", "Later"]

    private struct Box {
        let server: DovecotServer
        let user: String
        let folder: TestFolder

        func count(_ mailbox: String) -> Int { server.files(user: user, mailbox: mailbox).count }

        /// One message with `subject` by IMAP APPEND into each of `mailboxes` (at 127.0.0.1, whose limit is Dovecot's default).
        func append(_ subject: String, to mailboxes: [String]) throws {
            for mailbox in mailboxes {
                try server.append(user: user, folder: mailbox, [SeedMessage(text:
                    "From: Sender <sender@example.test>\nTo: me@example.test\nSubject: \(subject) in \(mailbox)\nMessage-ID: <\(UUID().uuidString)@example.test>\n\nHello.\n")])
            }
        }

        /// Dovecot's log lines about this user's logins refused for too many connections.
        var refusals: [String] {
            server.log().components(separatedBy: "\n").filter { $0.contains("Maximum number") && $0.contains("<\(user)>") }
        }
    }

    /// A user with `mailboxes` and Done, watched through `address` (one of dovecot.sh's).
    private func box(_ purpose: String, address: String, accountLines: [(String, String)] = []) throws -> Box {
        let server = try DovecotServer.shared()
        let user = try server.makeUser(purpose)
        for mailbox in mailboxes.dropFirst() + ["Done"] { try server.createMailbox(user: user, mailbox) }
        let folder = try TestFolder(purpose, rules: Self.rules)
        var account = ConfigSection("account test", [
            "url": "imaps://\(address):\(server.imapsPort)", "user": user,
            "password_command": "cat \(folder.dir)/pw", "ca_file": server.caFile,
        ])
        account.lines.append(("mailboxes", mailboxes.joined(separator: ", ")))
        account.lines += accountLines
        var triage = ConfigSection.triage()
        triage.lines.append(("poll_interval", "1"))
        try folder.writeConfig([triage, account])
        return Box(server: server, user: user, folder: folder)
    }

    /// Mail delivered to each of the four mailboxes leaves it (into Done) with one queue
    /// record each; no login was refused, and nothing was said on standard error.
    private func assertFourProcessed(_ box: Box, _ watch: WatchProcess, file: StaticString = #filePath, line: UInt = #line) throws {
        try box.append("watch one", to: mailboxes)
        let done = WatchProcess.waitUntil(60) { box.count("Done") == 4 && mailboxes.allSatisfy { box.count($0) == 0 } }
        XCTAssertTrue(done, "Done \(box.count("Done")); \(mailboxes.map { "\($0) \(box.count($0))" }); \(watch.out) \(watch.err)",
                      file: file, line: line)
        // Again, now that every connection is idling or polling.
        try box.append("watch two", to: mailboxes.reversed())
        let again = WatchProcess.waitUntil(60) { box.count("Done") == 8 && mailboxes.allSatisfy { box.count($0) == 0 } }
        XCTAssertTrue(again, "Done \(box.count("Done")); \(mailboxes.map { "\($0) \(box.count($0))" }); \(watch.out) \(watch.err)",
                      file: file, line: line)
        XCTAssertEqual(watch.stop(), 0, file: file, line: line)
        let queued = box.folder.storeLines().filter { $0.hasPrefix("store queue/") }
        XCTAssertEqual(queued.count, 8, queued.joined(separator: "\n"), file: file, line: line)
        XCTAssertEqual(box.refusals, [], file: file, line: line)
        XCTAssertEqual(watch.err, "", file: file, line: line)
        XCTAssertFalse(watch.err.contains("too many connections"), file: file, line: line)
    }

    /// Dovecot offers NOTIFY: one connection watches all four mailboxes (the default
    /// max_connections, 5, is not even needed).
    func testWithNotifyOneConnectionWatchesFourMailboxesUnderALimitOfTwo() throws {
        let box = try box("budget-notify", address: "127.0.0.45")
        defer { box.folder.remove() }
        let watch = try WatchProcess(config: box.folder.config)
        watch.waitUntilWatching(mailboxes: 4)
        for mailbox in mailboxes {
            XCTAssertTrue(watch.out.contains("test/\(mailbox): watching with NOTIFY (one connection for the account's 4 mailboxes)"),
                          watch.out)
        }
        try assertFourProcessed(box, watch)
    }

    /// Without NOTIFY (127.0.0.46 leaves it out of CAPABILITY) and max_connections = 2:
    /// IDLE on INBOX, and one connection that looks at the other three with STATUS
    /// every poll_interval and runs their passes.
    func testWithoutNotifyIdleOnInboxAndAStatusPollOfTheRestWithinTwo() throws {
        let box = try box("budget-idle", address: "127.0.0.46", accountLines: [("max_connections", "2")])
        defer { box.folder.remove() }
        let watch = try WatchProcess(config: box.folder.config)
        watch.waitUntilWatching(mailboxes: 4)
        XCTAssertTrue(watch.out.contains("test/INBOX: watching with IDLE"), watch.out)
        for mailbox in mailboxes.dropFirst() {
            XCTAssertTrue(watch.out.contains("test/\(mailbox): watching with a STATUS look every 1 s (max_connections = 2 "
                                             + "leaves no connection for its IDLE)"), watch.out)
        }
        XCTAssertFalse(watch.out.contains("NOTIFY"), watch.out)
        try assertFourProcessed(box, watch)
    }

    /// The same server with a max_connections beyond its limit: the logins past it are
    /// refused, `watch` says why and what to do (not "check the password"), and looks at
    /// the mailboxes whose connection was refused with STATUS on one it has: all four
    /// are still watched, within the 2 connections the server allows.
    func testAMaxConnectionsBeyondTheServersLimitIsSaidAndEveryMailboxStillWatched() throws {
        let box = try box("budget-over", address: "127.0.0.46", accountLines: [("max_connections", "5")])
        defer { box.folder.remove() }
        let watch = try WatchProcess(config: box.folder.config)
        watch.waitUntilWatching(mailboxes: 4)
        XCTAssertTrue(WatchProcess.waitUntil(30) { watch.err.contains("too many connections") }, watch.out + watch.err)
        try box.append("watch beyond", to: mailboxes)
        let done = WatchProcess.waitUntil(60) { box.count("Done") == 4 && mailboxes.allSatisfy { box.count($0) == 0 } }
        XCTAssertTrue(done, "Done \(box.count("Done")); \(mailboxes.map { "\($0) \(box.count($0))" }); \(watch.out) \(watch.err)")
        XCTAssertEqual(watch.stop(), 0)
        XCTAssertEqual(box.folder.storeLines().filter { $0.hasPrefix("store queue/") }.count, 4)
        XCTAssertTrue(watch.err.contains("lower max_connections"), watch.err)
        // Usually Lists (the connection it makes second) takes Work and Later: 2 connections.
        // (Dovecot counts a connection a moment after its login: a third may get in.)
        XCTAssertTrue(watch.err.contains("the server allows 2 connections now: watching Lists, Work with a STATUS look every 1 s")
                      || watch.err.contains("the server allows 3 connections now: watching Work, Later with a STATUS look every 1 s"),
                      watch.err)
        XCTAssertTrue(watch.err.contains("to start that way)"), watch.err)
        XCTAssertEqual(watch.err.components(separatedBy: "too many connections").count - 1, 1, "said once: \(watch.err)")
        XCTAssertFalse(watch.err.contains("password"), watch.err)
        // Refused once per connection beyond the limit, not again and again.
        XCTAssertTrue((1...2).contains(box.refusals.count), box.refusals.joined(separator: "\n"))
    }

    /// A limit of 1 and a connection held open: the next login is refused for too many
    /// connections, which `triage run` says as such with exit 75, never as a bad password.
    func testALoginRefusedForTooManyConnectionsSaysSo() throws {
        let box = try box("budget-refused", address: "127.0.0.47")
        defer { box.folder.remove() }
        let credential = MailCredential.password(user: box.user, DovecotServer.password)
        let url = try MailServerURL.parse("imaps://127.0.0.47:\(box.server.imapsPort)")
        let held = try IMAPConnection.connect(IMAPSettings(url: url, credential: credential, caFile: box.server.caFile))
        defer { held.close() }

        let run = try box.folder.triage(["run"])
        XCTAssertEqual(run.status, 75, run.err)
        XCTAssertTrue(run.err.contains("too many connections are open already"), run.err)
        XCTAssertTrue(run.err.contains("Maximum number of connections from user+IP exceeded"), run.err)
        XCTAssertTrue(run.err.contains("lower max_connections"), run.err)
        XCTAssertFalse(run.err.contains("check the user and the password"), run.err)
        XCTAssertEqual(box.refusals.count, 1, box.server.log())
    }
}
