import Foundation
import TriageCore
import TriageIMAP
import TriageMIME
import XCTest

/// The next chunk's FETCH runs on a second thread while the current chunk is
/// classified (`ChunkFetches`), over a real IMAP connection to Dovecot: the same
/// decisions, moves, state and checkpoints as fetching one chunk after the other.
final class ChunkPrefetchRunTests: XCTestCase {
    /// Ten messages in chunks of 3: [1, 2, 3] fetched on the run's thread, [4, 5, 6],
    /// [7, 8, 9] and [10] each prefetched on a second thread.
    func testPrefetchedChunksOverIMAPGiveTheSameRun() throws {
        let server = try DovecotServer.shared()
        func run(fetchSize: Int) throws -> (decisions: [String], steps: [String], threads: [String: Bool], done: [String]) {
            let user = try server.makeUser("prefetch\(fetchSize)")
            try server.createMailbox(user: user, "Done")
            for i in 1...10 {
                try server.seed(user: user, "From: a\(i)@example.test\r\nSubject: \(i % 3 == 0 ? "done" : "keep") \(i)\r\n"
                                + "Message-ID: <p\(i)@example.test>\r\n\r\nText \(i)\r\n")
            }
            let steps = Steps()
            var settings = server.settings(user: user)
            settings.checkpoint = { steps.add($0) }
            let connection = ThreadNotingConnection(try IMAPConnection.connect(settings))
            defer { connection.close() }
            let storePath = NSTemporaryDirectory() + "triage-prefetch-\(UUID().uuidString.prefix(8))"
            defer { try? FileManager.default.removeItem(atPath: storePath) }
            var decisions: [String] = []
            var options = RunOptions(all: true, batchSize: 10)
            options.fetchSize = fetchSize
            var runner = MailboxRunner(
                account: "a", mailbox: "INBOX", store: Store(path: storePath, timeZone: TimeZone(identifier: "UTC")!),
                options: options, now: Date(timeIntervalSince1970: 1_796_000_000), parse: { MessageParser.parse($0) },
                classify: { message in
                    (message.subject ?? "").hasPrefix("done") ? [PlannedAction(action: .move("Done"), rule: "r")] : []
                },
                report: { event in
                    if case let .decision(_, _, uid, subject, actions) = event { decisions.append("\(uid) \(subject ?? "") \(actions.count)") }
                })
            runner.parts = []
            runner.headerFields = ["FROM", "SUBJECT", "MESSAGE-ID", "DATE"]
            runner.checkpoint = { steps.add($0) }
            let outcome = try runner.run(on: connection)
            XCTAssertEqual(outcome.processed, 10)
            XCTAssertEqual(try MailboxState.load(store: storePath, account: "a", mailbox: "INBOX")?.lastUID, 10)
            _ = try connection.open("Done", readOnly: true)
            let done = try connection.fetch(try connection.uids(above: 0), parts: []).map { MessageParser.parse($0.bytes).subject ?? "" }
            return (decisions, steps.list, connection.fetchedOnMainThread, done)
        }
        let prefetched = try run(fetchSize: 3)
        XCTAssertEqual(prefetched.threads, ["1,2,3": true, "4,5,6": false, "7,8,9": false, "10": false],
                       "the first chunk on the run's thread, the others prefetched")
        XCTAssertEqual(prefetched.decisions, (1...10).map { "\($0) \($0 % 3 == 0 ? "done" : "keep") \($0) \($0 % 3 == 0 ? 1 : 0)" })
        XCTAssertEqual(prefetched.done, ["done 3", "done 6", "done 9"])
        // One FETCH answered, then the run takes its chunk, for each chunk in turn: the
        // crash hook counts the same steps in the same order as without the second thread.
        let fetchSteps = prefetched.steps.filter { $0 == "UID FETCH" || $0 == "fetch" }
        XCTAssertEqual(Array(fetchSteps.prefix(8)), Array(repeating: ["UID FETCH", "fetch"], count: 4).flatMap { $0 }, "\(prefetched.steps)")

        let whole = try run(fetchSize: 1000)
        XCTAssertEqual(whole.threads, ["1,2,3,4,5,6,7,8,9,10": true])
        XCTAssertEqual(whole.decisions, prefetched.decisions)
        XCTAssertEqual(whole.done, prefetched.done)
    }
}

/// Checkpoints in order, from any thread.
private final class Steps: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    func add(_ step: String) {
        lock.lock()
        stored.append(step)
        lock.unlock()
    }

    var list: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}

/// Passes everything to an IMAP connection and notes on which thread each fetch of
/// the run's header chunks ran.
private final class ThreadNotingConnection: MailConnection {
    private let base: IMAPConnection
    private let lock = NSLock()
    private var threads: [String: Bool] = [:]

    init(_ base: IMAPConnection) { self.base = base }

    var fetchedOnMainThread: [String: Bool] {
        lock.lock()
        defer { lock.unlock() }
        return threads
    }

    var serverName: String { base.serverName }
    func open(_ mailbox: String, readOnly: Bool) throws -> MailboxStatus { try base.open(mailbox, readOnly: readOnly) }
    func uids(above uid: UInt32) throws -> [UInt32] { try base.uids(above: uid) }
    /// A shorter text as the server fetches it; no SEARCH (the run fetches every header chunk).
    var traits: ServerTraits { ServerTraits(fetchesTextPrefix: true) }
    func fetch(_ request: FetchRequest) throws -> [FetchedMessage] {
        // The run's header chunks name their header fields.
        if request.headerFields != nil {
            lock.lock()
            threads[request.uids.map(String.init).joined(separator: ",")] = Thread.isMainThread
            lock.unlock()
        }
        return try base.fetch(request)
    }
    func store(_ change: FlagChange, uids: [UInt32]) throws { try base.store(change, uids: uids) }
    func move(_ uids: [UInt32], to folder: String, recorder: MoveRecorder?, resuming attempts: [CopyAttempt]?) throws -> MoveMethod {
        try base.move(uids, to: folder, recorder: recorder, resuming: attempts)
    }
    func close() { base.close() }
}
