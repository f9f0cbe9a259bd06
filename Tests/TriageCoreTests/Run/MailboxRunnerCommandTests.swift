import Foundation
import TriageCore
import TriageTestSupport
import XCTest

/// `MailboxRunner` with the digest's command messages: obeyed before the rules
/// (store first, then marked read and moved to the trash), left alone in a dry
/// run, and a record that cannot be changed refuses only that message.
final class MailboxRunnerCommandTests: XCTestCase {
    private var dir = ""
    private let utc = TimeZone(identifier: "UTC")!
    private let now = Date(timeIntervalSince1970: 1_796_000_000)  // 2026-11-30 07:33 UTC
    private let key = DigestKey(secret: Array("runner test secret, 32 bytes ok!".utf8))
    private let reminderID = "0162" + String(repeating: "0", count: 27) + "1"
    private var store: Store { Store(path: dir, timeZone: utc) }
    private var events: [RunEvent] = []
    private var ruled: [String] = []

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "triage-runner-commands-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try store.put(Reminder(id: reminderID, title: "Call", due: CivilDate(year: 2026, month: 11, day: 30),
                               created: Timestamp(now, timeZone: utc)))
        // The digest that showed it, sent an hour before: its links count.
        try store.digestShown.record(messageID: "digest-2026-11-30.abc.def@triage.invalid", day: CivilDate(year: 2026, month: 11, day: 30),
                                     now: now.addingTimeInterval(-3600), ids: [reminderID])
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Every message is from and to the user; the subject is the header's.
    private func parse(_ bytes: [UInt8]) -> Message {
        var message = Message()
        message.from = [Address(address: "me@example.test")]
        message.to = [Address(address: "me@example.test")]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\r\n") where line.hasPrefix("Subject: ") {
            message.subject = String(line.dropFirst(9))
            // Each its own identity (a Problems entry's id derives from it).
            message.messageID = "\(UInt(bitPattern: line.hashValue))@test.example"
        }
        return message
    }

    private func run(_ connection: InMemoryMailConnection, dryRun: Bool = false) throws {
        var collected: [RunEvent] = []
        var seenByRules: [String] = []
        var runner = MailboxRunner(account: "acct", mailbox: "INBOX", store: store,
                                   options: RunOptions(dryRun: dryRun, batchSize: 10), now: now, parse: parse,
                                   classify: { seenByRules.append($0.subject ?? ""); return [PlannedAction(action: .label("ruled"), rule: "all")] },
                                   report: { collected.append($0) })
        runner.parts = []
        runner.commands = DigestCommandInbox(reader: DigestCommandReader(addresses: ["me@example.test"], key: key),
                                             trash: { "Trash" }, replyBody: { bytes, _ in ReplyBody(plain: String(decoding: bytes, as: UTF8.self)) })
        defer { events = collected; ruled = seenByRules }
        _ = try runner.run(on: connection)
    }

    private var done: String { "triage: done 0162 " + key.token(verb: "done", kind: "reminders", id: reminderID) }

    private func fresh() throws -> InMemoryMailConnection {
        let connection = InMemoryMailConnection(folders: ["Trash"])
        try run(connection)  // the first run only remembers where INBOX ends
        return connection
    }

    func testAnObeyedCommandChangesTheStoreThenIsReadAndInTrash() throws {
        let connection = try fresh()
        connection.deliver(subject: done)
        connection.deliver(subject: "Lunch?")
        try run(connection)
        XCTAssertEqual(try store.record(Reminder.self, id: reminderID)?.status, .done)
        XCTAssertEqual(connection.subjects(in: "Trash"), [done])
        XCTAssertEqual(connection.subjects(in: "INBOX"), ["Lunch?"])
        XCTAssertEqual(ruled, ["Lunch?"], "the rules never see a command message")
        XCTAssertTrue(connection.log.contains { $0.contains("\\Seen") }, "\(connection.log)")
    }

    func testADryRunChangesNothing() throws {
        let connection = try fresh()
        connection.deliver(subject: done)
        try run(connection, dryRun: true)
        XCTAssertEqual(try store.record(Reminder.self, id: reminderID)?.status, .open)
        XCTAssertEqual(connection.subjects(in: "INBOX"), [done])
    }

    func testARecordThatCannotBeReadRefusesOnlyThatMessage() throws {
        let connection = try fresh()
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: dir + "/reminders/open/\(reminderID).json"))
        connection.deliver(subject: done)
        connection.deliver(subject: "Lunch?")
        try run(connection)
        XCTAssertEqual(connection.subjects(in: "INBOX"), [done, "Lunch?"], "not obeyed; the other message goes on")
        XCTAssertEqual(connection.subjects(in: "Trash"), [])
        XCTAssertEqual(ruled, ["Lunch?", done], "a refused command is mail like any other")
        let problems = store.unreportedDigestEntries().records.filter { $0.section == MailboxRunner.problemsSection }
        XCTAssertEqual(problems.count, 1)
        XCTAssertTrue(problems.first?.message.snippet.contains("the store could not apply it") ?? false, "\(problems)")
    }

    /// Issue 25: only an obeyed command is kept from the rules. A message titled like a
    /// reply to the digest that proves nothing is sorted like any mail, and its
    /// Problems line holds neither its text nor more than 80 characters of its subject.
    func testARefusedCommandGoesThroughTheRulesAndItsProblemQuotesNoCommand() throws {
        let connection = try fresh()
        let long = "Re: triage · Mon 30 Nov: " + String(repeating: "verify your account now ", count: 8)
        connection.deliver(subject: long)
        connection.deliver(subject: "triage: done 0162 aaaaaaaa")
        try run(connection)
        XCTAssertEqual(ruled, [long, "triage: done 0162 aaaaaaaa"])
        XCTAssertEqual(try store.record(Reminder.self, id: reminderID)?.status, .open)
        XCTAssertEqual(connection.subjects(in: "Trash"), [])
        XCTAssertTrue(connection.log.contains { $0.contains("ruled") }, "the rules' actions were applied: \(connection.log)")
        let problems = store.unreportedDigestEntries().records.filter { $0.section == MailboxRunner.problemsSection }
        XCTAssertEqual(problems.count, 2)
        for problem in problems {
            let subject = problem.message.subject ?? ""
            XCTAssertTrue(subject.hasPrefix("a reply to the digest (subject") || subject.hasPrefix("a Done link's message (subject"), subject)
            XCTAssertLessThanOrEqual(subject.count, 80 + 40, subject)
            XCTAssertTrue(problem.message.snippet.hasPrefix("refused: "), problem.message.snippet)
        }
    }
}
