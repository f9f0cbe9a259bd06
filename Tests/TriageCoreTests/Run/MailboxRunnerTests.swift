import Foundation
import TriageCore
import TriageTestSupport
import XCTest

/// `MailboxRunner` over an in-memory connection and a real store in a temporary
/// folder: where a run starts, what it sends, what it saves, and what it does
/// when an action fails.
final class MailboxRunnerTests: XCTestCase {
    private var dir = ""
    private let utc = TimeZone(identifier: "UTC")!
    /// 2026-11-30 07:33 UTC.
    private let now = Date(timeIntervalSince1970: 1_796_000_000)
    private var store: Store { Store(path: dir, timeZone: utc) }
    private var events: [RunEvent] = []

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "triage-runner-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Rules by subject word: `receipt` labels, queues and moves to Receipts;
    /// `news` marks read and goes to the digest; `lost` moves to a folder that
    /// does not exist; `odd` gets the label `odd`.
    private func classify(_ message: Message) -> [PlannedAction] {
        let subject = message.subject ?? ""
        var actions: [PlannedAction] = []
        if subject.contains("receipt") {
            actions += [PlannedAction(action: .label("paid"), rule: "receipts"),
                        PlannedAction(action: .queue(name: "rec", inDays: nil), rule: "receipts"),
                        PlannedAction(action: .move("Receipts"), rule: "receipts")]
        }
        if subject.contains("news") {
            actions += [PlannedAction(action: .markRead, rule: "news"),
                        PlannedAction(action: .digest(section: "News"), rule: "news")]
        }
        if subject.contains("lost") { actions.append(PlannedAction(action: .move("Nowhere"), rule: "lost")) }
        if subject.contains("odd") { actions.append(PlannedAction(action: .label("odd"), rule: "odd")) }
        if subject.contains("hook") { actions.append(PlannedAction(action: .webhook(url: "https://hooks.example.test/x"), rule: "hooks")) }
        return actions
    }

    private func parse(_ bytes: [UInt8]) -> Message {
        var message = Message()
        let text = String(decoding: bytes, as: UTF8.self)
        if let blank = text.range(of: "\r\n\r\n") {
            message.snippet = text[blank.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)
        }
        for line in text[..<(text.range(of: "\r\n\r\n")?.lowerBound ?? text.endIndex)].split(separator: "\r\n") {
            if line.hasPrefix("Subject: ") { message.subject = String(line.dropFirst(9)) }
            if line.hasPrefix("Message-ID: <") { message.messageID = String(line.dropFirst(13).dropLast()) }
        }
        return message
    }

    @discardableResult
    private func run(_ connection: InMemoryMailConnection, all: Bool = false, since: CivilDate? = nil,
                     dryRun: Bool = false, batchSize: Int = 2, at time: Date? = nil) throws -> MailboxRunner.Outcome {
        events = []
        var collected: [RunEvent] = []
        var runner = MailboxRunner(account: "acct", mailbox: "INBOX", store: store,
                                   options: RunOptions(all: all, since: since, dryRun: dryRun, batchSize: batchSize),
                                   now: time ?? now, parse: parse, classify: classify, report: { collected.append($0) })
        runner.parts = []
        defer { events = collected }
        return try runner.run(on: connection)
    }

    private func state() throws -> MailboxState? {
        try MailboxState.load(store: dir, account: "acct", mailbox: "INBOX")
    }

    private var warnings: [String] {
        events.compactMap { if case .warning(_, _, let text) = $0 { return text } else { return nil } }
    }

    private var failures: [(uids: [UInt32], action: String)] {
        events.compactMap { if case .actionFailed(_, _, let uids, let action, _) = $0 { return (uids, action) } else { return nil } }
    }

    // MARK: - Where a run starts

    /// The first run says, as a warning (shown without --verbose), how many messages it
    /// left alone, grouped by thousands; a dry run says they would be; the next run nothing.
    func testFirstRunSaysHowManyMessagesItLeftAlone() throws {
        let connection = InMemoryMailConnection(folders: [])
        for n in 1...1234 { connection.deliver(subject: "old \(n)") }
        try run(connection, dryRun: true)
        XCTAssertEqual(warnings, ["first run: 1,234 messages already there would be left alone; 'triage run --all' processes them once"])
        try run(connection)
        XCTAssertEqual(warnings, ["first run: 1,234 messages already there were left alone; 'triage run --all' processes them once"])
        connection.deliver(subject: "new")
        try run(connection)
        XCTAssertEqual(warnings, [])
    }

    func testFirstRunRemembersWhereTheMailboxIsAndTouchesNothing() throws {
        let connection = InMemoryMailConnection(folders: ["Receipts"])
        connection.deliver(subject: "old receipt")
        connection.deliver(subject: "old news")
        let outcome = try run(connection)
        XCTAssertEqual(outcome.processed, 0)
        XCTAssertEqual(try state(), MailboxState(uidValidity: 7, lastUID: 2))
        XCTAssertEqual(connection.log, ["open INBOX"], "a first run fetches nothing and changes nothing")
        XCTAssertTrue(events.contains { if case .note(_, _, let text) = $0 { return text.contains("first run") } else { return false } })

        connection.deliver(subject: "new receipt")
        connection.clearLog()
        let second = try run(connection)
        XCTAssertEqual(second.processed, 1)
        XCTAssertEqual(second.recordsCreated, 1)
        XCTAssertEqual(connection.subjects(in: "Receipts"), ["new receipt"])
        XCTAssertEqual(connection.subjects(in: "INBOX"), ["old receipt", "old news"])
        XCTAssertEqual(try state()?.lastUID, 3)
        XCTAssertNotNil(try state()?.lastRun, "a walk to the end records when it started")
        XCTAssertTrue(connection.log.contains("uids>2"))

        // Nothing new: UIDNEXT says so, and no SEARCH or FETCH is sent.
        connection.clearLog()
        XCTAssertEqual(try run(connection).processed, 0)
        XCTAssertEqual(connection.log, ["open INBOX"])
    }

    func testWithoutUIDNEXTTheRunAsksForNewUIDs() throws {
        let connection = InMemoryMailConnection(folders: ["Receipts"])
        try MailboxState(uidValidity: 7, lastUID: 0).save(store: dir, account: "acct", mailbox: "INBOX")
        connection.reportsUIDNext = false
        XCTAssertEqual(try run(connection).processed, 0)
        XCTAssertEqual(connection.log, ["open INBOX", "uids>0"], "UIDNEXT unknown: nothing says the mailbox is unchanged")
        connection.deliver(subject: "a receipt")
        XCTAssertEqual(try run(connection).processed, 1)
        XCTAssertEqual(try state()?.lastUID, 1)
    }

    func testAFirstDryRunSavesNothing() throws {
        let connection = InMemoryMailConnection()
        connection.deliver(subject: "a receipt")
        try run(connection, dryRun: true)
        XCTAssertNil(try state())
    }

    func testAllProcessesEverythingAndARepeatSendsNothing() throws {
        let connection = InMemoryMailConnection(folders: ["Receipts"])
        connection.deliver(subject: "a receipt")
        connection.deliver(subject: "weekly news")
        connection.deliver(subject: "plain")
        try run(connection)  // the first run: remembers UID 3
        let outcome = try run(connection, all: true)
        XCTAssertEqual(outcome.processed, 3)
        XCTAssertEqual(outcome.recordsCreated, 2, "a queue entry and a digest entry")
        XCTAssertEqual(connection.subjects(in: "Receipts"), ["a receipt"])
        XCTAssertEqual(connection.message(1, in: "Receipts")?.labels, ["paid"], "labelled before the move")
        XCTAssertEqual(connection.message(2)?.flags, ["\\Seen"])
        XCTAssertEqual(store.queueEntries().records.map(\.queue), ["rec"])
        XCTAssertEqual(store.digestEntries().records.map(\.section), ["News"])
        XCTAssertEqual(try state()?.lastUID, 3)

        connection.clearLog()
        let again = try run(connection, all: true)
        XCTAssertEqual(again.processed, 2, "the moved message is gone from INBOX")
        XCTAssertEqual(again.recordsCreated, 0, "record ids derive from the message: nothing doubles")
        XCTAssertFalse(connection.log.contains { $0.hasPrefix("store") || $0.hasPrefix("move") },
                       "what is already true is not sent again: \(connection.log)")
    }

    func testDryRunAllDecidesButChangesNothing() throws {
        let connection = InMemoryMailConnection(folders: ["Receipts"])
        connection.deliver(subject: "a receipt")
        let outcome = try run(connection, all: true, dryRun: true)
        XCTAssertEqual(outcome.processed, 1)
        XCTAssertEqual(outcome.recordsCreated, 0)
        XCTAssertTrue(events.contains { if case .decision(_, _, 1, _, let actions) = $0 { return actions.count == 3 } else { return false } })
        XCTAssertFalse(connection.log.contains { $0.hasPrefix("store") || $0.hasPrefix("move") })
        XCTAssertTrue(store.queueEntries().records.isEmpty)
        XCTAssertNil(try state())
    }

    func testWebhookActionWritesADeliveryRecordWithTheMessagesText() throws {
        let connection = InMemoryMailConnection()
        connection.deliver(subject: "hook me")
        try MailboxState(uidValidity: 7, lastUID: 0).save(store: dir, account: "acct", mailbox: "INBOX")
        XCTAssertEqual(try run(connection).recordsCreated, 1)
        let delivery = try XCTUnwrap(store.records(WebhookDelivery.self).records.first)
        XCTAssertEqual(delivery.url, "https://hooks.example.test/x")
        XCTAssertEqual(delivery.rule, "hooks")
        XCTAssertEqual(delivery.message.snippet, "Body of hook me", "the text was fetched for the snippet")
        XCTAssertEqual(delivery.id, RecordID.forMessage(account: "acct", messageKey: "mid:m1-INBOX@memory.test", rule: "hooks",
                                                        actionKey: RecordID.actionKey(.webhook(url: "https://hooks.example.test/x"))),
                       "the id derives from the message, the rule and the action")
        XCTAssertTrue(connection.log.contains("fetch 1 header"))
        XCTAssertTrue(connection.log.contains("fetch 1"), "then the text, for the record: \(connection.log)")
    }

    // MARK: - UIDVALIDITY

    func testRenumberedMailboxProcessesOnlyMailThatArrivedAfterTheLastRun() throws {
        let connection = InMemoryMailConnection(folders: ["Receipts"])
        let lastRun = now.addingTimeInterval(-86_400)
        let lastRunSeconds = Int64(lastRun.timeIntervalSince1970)
        connection.deliver(subject: "old receipt", arrived: lastRunSeconds - 7_200)
        // Within the hour of clock slack: taken, since the server's clock may lag.
        connection.deliver(subject: "news near the last run", arrived: lastRunSeconds - 600)
        connection.deliver(subject: "new receipt", arrived: lastRunSeconds + 3_600)
        try MailboxState(uidValidity: 7, lastUID: 40, lastRun: Timestamp(lastRun, timeZone: utc))
            .save(store: dir, account: "acct", mailbox: "INBOX")
        connection.renumber(uidValidity: 8)

        let outcome = try run(connection)
        XCTAssertEqual(outcome.processed, 2)
        XCTAssertEqual(connection.subjects(in: "Receipts"), ["new receipt"])
        XCTAssertEqual(connection.subjects(in: "INBOX"), ["old receipt", "news near the last run"])
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains("UIDVALIDITY changed (7 -> 8)"), warnings[0])
        let saved = try XCTUnwrap(try state())
        XCTAssertEqual(saved.uidValidity, 8)
        XCTAssertEqual(saved.lastUID, 3)
        XCTAssertNil(saved.arrivedAfter, "the walk finished")
        XCTAssertEqual(saved.lastRun, Timestamp(now, timeZone: utc))
    }

    func testRerunOfAnInterruptedRenumberedWalkKeepsItsCutoff() throws {
        let connection = InMemoryMailConnection(folders: ["Receipts"])
        let lastRun = Int64(now.timeIntervalSince1970) - 86_400
        connection.deliver(subject: "done receipt", arrived: lastRun + 60)
        connection.deliver(subject: "done news", arrived: lastRun + 60)
        connection.deliver(subject: "old receipt", arrived: lastRun - 7_200)
        connection.deliver(subject: "new receipt", arrived: lastRun + 60)
        // What the first batch of the walk after the renumbering saved before the crash.
        let cutoff = Timestamp(secondsSince1970: lastRun - MailboxRunner.clockSlack, utcOffsetSeconds: 0)
        try MailboxState(uidValidity: 7, lastUID: 2, lastRun: Timestamp(secondsSince1970: lastRun, utcOffsetSeconds: 0),
                         arrivedAfter: cutoff).save(store: dir, account: "acct", mailbox: "INBOX")
        let outcome = try run(connection)
        XCTAssertEqual(outcome.processed, 1, "UID 3 arrived before the cutoff and stays alone")
        XCTAssertTrue(warnings.isEmpty, "same UIDVALIDITY now: no second warning")
        XCTAssertEqual(connection.subjects(in: "Receipts"), ["new receipt"])
        XCTAssertTrue(connection.log.contains("uids>2"))
        XCTAssertEqual(try state()?.lastUID, 4)
        XCTAssertNil(try state()?.arrivedAfter, "the walk finished")
    }

    func testRenumberedMailboxWithoutALastRunIsLikeAFirstRun() throws {
        let connection = InMemoryMailConnection(folders: ["Receipts"])
        connection.deliver(subject: "a receipt")
        connection.deliver(subject: "another receipt")
        // A state from before `last_run` was recorded.
        try MailboxState(uidValidity: 7, lastUID: 1).save(store: dir, account: "acct", mailbox: "INBOX")
        connection.renumber(uidValidity: 9)
        let outcome = try run(connection)
        XCTAssertEqual(outcome.processed, 0)
        XCTAssertEqual(connection.subjects(in: "Receipts"), [])
        XCTAssertTrue(warnings.first?.contains("like a first run") ?? false, "\(warnings)")
        XCTAssertEqual(try state(), MailboxState(uidValidity: 9, lastUID: 2))
    }

    func testRenumberedMailboxWithNothingInItRecordsTheNewUIDValidity() throws {
        let connection = InMemoryMailConnection()
        try MailboxState(uidValidity: 7, lastUID: 5, lastRun: Timestamp(now.addingTimeInterval(-3_600), timeZone: utc))
            .save(store: dir, account: "acct", mailbox: "INBOX")
        connection.renumber(uidValidity: 8)
        XCTAssertEqual(try run(connection).processed, 0)
        XCTAssertEqual(try state(), MailboxState(uidValidity: 8, lastUID: 0, lastRun: Timestamp(now, timeZone: utc)),
                       "a UID of the old numbering means nothing in the new one")
    }

    // MARK: - The move journal

    func testJournaledMovesAreResumedAndTheJournalRemoved() throws {
        let connection = InMemoryMailConnection(folders: ["Receipts"])
        connection.deliver(subject: "plain")
        connection.deliver(subject: "a receipt")
        connection.deliver(subject: "another receipt")
        try MailboxState(uidValidity: 7, lastUID: 1).save(store: dir, account: "acct", mailbox: "INBOX")
        // An interrupted run had begun moving UID 2 (and journaled one COPY).
        let attempt = CopyAttempt(folder: "Receipts", uids: [2], targetUIDValidity: 107, targetUIDNext: 1)
        try MoveJournal(uidValidity: 7, moves: ["Receipts": [2]], attempts: [attempt])
            .save(store: dir, account: "acct", mailbox: "INBOX")
        let outcome = try run(connection, batchSize: 1)
        XCTAssertEqual(outcome.processed, 2)
        XCTAssertTrue(connection.log.contains("resume Receipts 2"), "\(connection.log)")
        XCTAssertTrue(connection.log.contains("move Receipts 3"), "a move the journal does not name is simply made")
        XCTAssertEqual(connection.resumedAttempts, [attempt])
        XCTAssertEqual(connection.subjects(in: "Receipts"), ["a receipt", "another receipt"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: MoveJournal.path(store: dir, account: "acct", mailbox: "INBOX")),
                       "every batch done: nothing left to resume")
    }

    func testJournalOfAnotherUIDValidityIsIgnored() throws {
        let connection = InMemoryMailConnection(folders: ["Receipts"])
        connection.deliver(subject: "a receipt")
        try MailboxState(uidValidity: 7, lastUID: 0).save(store: dir, account: "acct", mailbox: "INBOX")
        try MoveJournal(uidValidity: 6, moves: ["Receipts": [1]]).save(store: dir, account: "acct", mailbox: "INBOX")
        try run(connection)
        XCTAssertTrue(connection.log.contains("move Receipts 1"), "\(connection.log)")
        XCTAssertFalse(connection.log.contains { $0.hasPrefix("resume") })
    }

    // MARK: - Failing actions

    func testMissingFolderIsReportedInTheDigestAndTheRunGoesOn() throws {
        let connection = InMemoryMailConnection(folders: ["Receipts"])
        connection.deliver(subject: "lost news")
        connection.deliver(subject: "a receipt")
        try MailboxState(uidValidity: 7, lastUID: 0).save(store: dir, account: "acct", mailbox: "INBOX")
        let outcome = try run(connection)
        XCTAssertEqual(outcome.failedActions.count, 1)
        XCTAssertTrue(outcome.failedActions[0].contains("Nowhere"), outcome.failedActions[0])
        XCTAssertEqual(failures.map(\.uids), [[1]])
        XCTAssertEqual(connection.message(1)?.flags, ["\\Seen"], "its other actions were done")
        XCTAssertEqual(connection.subjects(in: "Receipts"), ["a receipt"], "the next message is handled")
        let problems = store.digestEntries().records.filter { $0.section == MailboxRunner.problemsSection }
        XCTAssertEqual(problems.count, 1)
        XCTAssertTrue(problems[0].message.snippet.hasPrefix("could not move to Nowhere: the folder does not exist"),
                      problems[0].message.snippet)
        XCTAssertEqual(try state()?.lastUID, 2, "a failed action does not hold the mailbox back")

        // A rerun over the same mail meets the same failure and adds no second entry.
        try run(connection, all: true)
        XCTAssertEqual(store.digestEntries().records.filter { $0.section == MailboxRunner.problemsSection }.count, 1)
    }

    func testRefusedStoreLeavesOnlyTheRefusedMessagesAsTheyWere() throws {
        let connection = InMemoryMailConnection()
        for i in 1...3 { connection.deliver(subject: "odd \(i)") }
        try MailboxState(uidValidity: 7, lastUID: 0).save(store: dir, account: "acct", mailbox: "INBOX")
        // The server refuses the label for UID 2 (and so for any command naming it).
        connection.refuses = { change, uids in !change.labels.isEmpty && uids.contains(2) }
        let outcome = try run(connection, batchSize: 3)
        XCTAssertEqual(connection.log.filter { $0.hasPrefix("store") },
                       ["store +label:odd 1,2,3", "store +label:odd 1", "store +label:odd 2", "store +label:odd 3"],
                       "refused for the group, then tried one by one")
        XCTAssertEqual(connection.message(1)?.labels, ["odd"])
        XCTAssertEqual(connection.message(2)?.labels, [])
        XCTAssertEqual(connection.message(3)?.labels, ["odd"])
        XCTAssertEqual(outcome.failedActions.count, 1)
        XCTAssertEqual(failures.map(\.uids), [[2]])
        XCTAssertEqual(failures.map(\.action), ["label \"odd\""])
        let problems = store.digestEntries().records.filter { $0.section == MailboxRunner.problemsSection }
        XCTAssertEqual(problems.map(\.message.subject), ["odd 2"])
        XCTAssertEqual(try state()?.lastUID, 3)
    }
}
