import Foundation
import TriageCore
import TriageTestSupport
import XCTest

/// Poison-message protection in `MailboxRunner`: the record of the messages in hand
/// that a dead process leaves (written here as it would have left it), the batch
/// retried one message at a time, and a message skipped after a second death alone.
final class MessagesInHandTests: XCTestCase {
    private var dir = ""
    private let utc = TimeZone(identifier: "UTC")!
    /// 2026-11-30 07:33 UTC.
    private let now = Date(timeIntervalSince1970: 1_796_000_000)
    private var store: Store { Store(path: dir, timeZone: utc) }
    private var events: [RunEvent] = []
    private var seen: [[String]] = []

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "triage-in-hand-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func parse(_ bytes: [UInt8]) -> Message {
        var message = Message()
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\r\n") {
            if line.hasPrefix("Subject: ") { message.subject = String(line.dropFirst(9)) }
            if line.hasPrefix("Message-ID: <") { message.messageID = String(line.dropFirst(13).dropLast()) }
        }
        return message
    }

    /// Every message is marked read.
    private func classify(_ message: Message) -> [PlannedAction] {
        [PlannedAction(action: .markRead, rule: "all")]
    }

    @discardableResult
    private func run(_ connection: InMemoryMailConnection, all: Bool = false, dryRun: Bool = false, batchSize: Int = 10,
                     hook: ((Message) -> Void)? = nil) throws -> MailboxRunner.Outcome {
        var collected: [RunEvent] = []
        var runner = MailboxRunner(account: "acct", mailbox: "INBOX", store: store,
                                   options: RunOptions(all: all, dryRun: dryRun, batchSize: batchSize),
                                   now: now, parse: parse, classify: classify, report: { collected.append($0) })
        runner.parts = []
        runner.messageHook = hook
        defer { events = collected }
        return try runner.run(on: connection)
    }

    private var warnings: [String] {
        events.compactMap { if case .warning(_, _, let text) = $0 { return text } else { return nil } }
    }

    private var inHand: MessagesInHand? { MessagesInHand.load(store: dir, account: "acct", mailbox: "INBOX") }
    private var inHandPath: String { MessagesInHand.path(store: dir, account: "acct", mailbox: "INBOX") }

    /// Five messages, the state at UID 1 (the first is done): UIDs 2 to 5 are new.
    private func mailbox() throws -> InMemoryMailConnection {
        let connection = InMemoryMailConnection()
        for subject in ["old", "two", "Crafted reply", "four", "five"] { connection.deliver(subject: subject) }
        try MailboxState(uidValidity: 7, lastUID: 1).save(store: dir, account: "acct", mailbox: "INBOX")
        connection.clearLog()
        return connection
    }

    private func fetches(_ connection: InMemoryMailConnection) -> [String] {
        connection.log.filter { $0.hasPrefix("fetch ") }
    }

    func testTheRecordNamesTheBatchInHandAndIsGoneWhenTheMailboxIsDone() throws {
        let connection = try mailbox()
        var during: [MessagesInHand?] = []
        try run(connection, batchSize: 2, hook: { [self] _ in during.append(inHand) })
        XCTAssertEqual(during.map { $0?.uids }, [[2, 3], [2, 3], [4, 5], [4, 5]], "written before each batch's fetch")
        XCTAssertEqual(during.map { $0?.deaths }, [0, 0, 0, 0])
        XCTAssertFalse(FileManager.default.fileExists(atPath: inHandPath))
        XCTAssertEqual(fetches(connection), ["fetch 2,3 header", "fetch 4,5 header"])
    }

    func testABatchFoundInHandIsRetriedOneMessageAtATime() throws {
        let connection = try mailbox()
        // A process died with UIDs 2 to 5 in hand.
        try MessagesInHand(uidValidity: 7, uids: [2, 3, 4, 5]).save(store: dir, account: "acct", mailbox: "INBOX")
        var during: [MessagesInHand?] = []
        let outcome = try run(connection, hook: { [self] _ in during.append(inHand) })
        XCTAssertEqual(fetches(connection), ["fetch 2 header", "fetch 3 header", "fetch 4 header", "fetch 5 header"])
        XCTAssertEqual(during.map { $0?.uids }, [[2], [3], [4], [5]])
        XCTAssertEqual(during.map { $0?.deaths }, [0, 0, 0, 0], "a batch's death counts for none of its messages")
        XCTAssertEqual(during.map { $0?.subject }, ["two", "Crafted reply", "four", "five"], "named once parsed")
        XCTAssertEqual(outcome.processed, 4)
        XCTAssertEqual(warnings, [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: inHandPath))
        XCTAssertEqual(try MailboxState.load(store: dir, account: "acct", mailbox: "INBOX")?.lastUID, 5)
    }

    func testOneDeathWithAMessageAloneInHandIsRetriedNotSkipped() throws {
        let connection = try mailbox()
        // A batch of one message, killed once (a SIGTERM, a power cut): no proof against it.
        try MessagesInHand(uidValidity: 7, uids: [3]).save(store: dir, account: "acct", mailbox: "INBOX")
        try run(connection)
        XCTAssertEqual(fetches(connection), ["fetch 2 header", "fetch 3 header", "fetch 4,5 header"])
        XCTAssertEqual(warnings, [])
        XCTAssertTrue(connection.message(3)!.flags.contains("\\Seen"))
    }

    func testASecondDeathAloneSkipsTheMessageForGoodAndSaysSo() throws {
        let connection = try mailbox()
        var record = MessagesInHand(uidValidity: 7, uids: [3], deaths: 1)
        record.subject = "Crafted reply"
        record.messageID = "m3-INBOX@memory.test"
        try record.save(store: dir, account: "acct", mailbox: "INBOX")
        let outcome = try run(connection)
        XCTAssertEqual(outcome.processed, 4)
        XCTAssertEqual(fetches(connection), ["fetch 2,4,5 header"], "never fetched again")
        XCTAssertEqual(warnings.count, 1)
        let warning = try XCTUnwrap(warnings.first)
        XCTAssertTrue(warning.hasPrefix("skipped: triage died twice while processing this message (UID 3, "), warning)
        XCTAssertTrue(warning.contains("Subject \"Crafted reply\", Message-ID <m3-INBOX@memory.test>"), warning)
        // Untouched on the server; the others done.
        XCTAssertEqual(connection.message(3)!.flags, [])
        XCTAssertEqual(connection.subjects(in: "INBOX"), ["old", "two", "Crafted reply", "four", "five"])
        for uid: UInt32 in [2, 4, 5] { XCTAssertTrue(connection.message(uid)!.flags.contains("\\Seen")) }
        XCTAssertEqual(try MailboxState.load(store: dir, account: "acct", mailbox: "INBOX")?.lastUID, 5)
        // In the digest's Problems, named by its subject.
        let problems = store.digestEntries().records.filter { $0.section == MailboxRunner.problemsSection }
        XCTAssertEqual(problems.count, 1)
        XCTAssertEqual(problems.first?.message.subject, "Crafted reply")
        XCTAssertEqual(problems.first?.message.uid, 3)
        XCTAssertTrue(problems.first?.message.snippet.contains("it stays on the server, untouched") ?? false)
        XCTAssertEqual(inHand, MessagesInHand(uidValidity: 7, skipped: [3]))

        // Later runs: nothing new, nothing said; --all walks the mailbox again without it.
        connection.clearLog()
        try run(connection)
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(fetches(connection), [])
        try run(connection, all: true)
        XCTAssertEqual(fetches(connection), ["fetch 1,2,4,5 header"])
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(connection.message(3)!.flags, [])
        XCTAssertEqual(store.digestEntries().records.filter { $0.section == MailboxRunner.problemsSection }.count, 1)
    }

    func testADryRunSkipsWhatARunWouldSkipAndWritesNothing() throws {
        let connection = try mailbox()
        let record = MessagesInHand(uidValidity: 7, uids: [3], deaths: 1)
        try record.save(store: dir, account: "acct", mailbox: "INBOX")
        try run(connection, dryRun: true)
        XCTAssertEqual(fetches(connection), ["fetch 2,4,5 header"])
        XCTAssertEqual(inHand, record, "left for the real run")
        XCTAssertEqual(store.digestEntries().records.count, 0)
    }

    func testAMessageUnparsedAtItsDeathIsNamedByItsUID() throws {
        let connection = try mailbox()
        try MessagesInHand(uidValidity: 7, uids: [3], deaths: 1).save(store: dir, account: "acct", mailbox: "INBOX")
        try run(connection)
        XCTAssertTrue(warnings.first?.contains("(UID 3, not parsed yet when it died)") ?? false, "\(warnings)")
        let problem = store.digestEntries().records.first { $0.section == MailboxRunner.problemsSection }
        XCTAssertEqual(problem?.message.subject, "UID 3 in acct/INBOX")
    }

    func testARecordOfFinishedOrRenumberedMailIsIgnored() throws {
        let connection = try mailbox()
        // Killed after the state was saved: those UIDs are done.
        try MessagesInHand(uidValidity: 7, uids: [1], deaths: 1).save(store: dir, account: "acct", mailbox: "INBOX")
        try run(connection)
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(fetches(connection), ["fetch 2,3,4,5 header"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: inHandPath))
        // Another UIDVALIDITY: its UIDs mean other messages.
        connection.deliver(subject: "six")
        connection.clearLog()
        try MessagesInHand(uidValidity: 6, uids: [6], deaths: 1).save(store: dir, account: "acct", mailbox: "INBOX")
        try run(connection)
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(fetches(connection), ["fetch 6 header"])
    }

    func testAnErrorIsNoDeathAndLeavesNothingInHand() throws {
        let connection = try mailbox()
        connection.deliver(subject: "lost")
        struct Failure: Error {}
        var runner = MailboxRunner(account: "acct", mailbox: "INBOX", store: store, options: RunOptions(batchSize: 10), now: now,
                                   parse: parse, classify: { _ in [PlannedAction(action: .archive, rule: "all")] }, report: { _ in })
        runner.parts = []
        runner.archive = { throw Failure() }
        XCTAssertThrowsError(try runner.run(on: connection))
        XCTAssertFalse(FileManager.default.fileExists(atPath: inHandPath))
    }

    func testTheVerdictCountsDeaths() {
        XCTAssertEqual(MessagesInHand(uidValidity: 1, uids: [4, 5]).verdict(done: 3).alone, [4, 5])
        XCTAssertEqual(MessagesInHand(uidValidity: 1, uids: [4, 5]).verdict(done: 3).deaths, 0)
        XCTAssertEqual(MessagesInHand(uidValidity: 1, uids: [4]).verdict(done: 3).deaths, 1)
        XCTAssertNil(MessagesInHand(uidValidity: 1, uids: [4]).verdict(done: 3).skip)
        XCTAssertEqual(MessagesInHand(uidValidity: 1, uids: [4], deaths: 1).verdict(done: 3).skip, 4)
        XCTAssertEqual(MessagesInHand(uidValidity: 1, uids: [4], deaths: Int.max).verdict(done: 3).skip, 4, "no overflow")
        XCTAssertEqual(MessagesInHand(uidValidity: 1, uids: [4], deaths: 1).verdict(done: 4).alone, [])
    }
}
