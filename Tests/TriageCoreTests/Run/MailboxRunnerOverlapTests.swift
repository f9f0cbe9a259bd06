import Foundation
import TriageCore
import TriageTestSupport
import XCTest

/// The next chunk's FETCH overlaps the classification of the current one
/// (`ChunkFetches`): proven with a connection that notes when each fetch starts, and
/// a failing prefetch that must surface as the fetch's own error with nothing of its
/// batch applied.
final class MailboxRunnerOverlapTests: XCTestCase {
    private var dir = ""
    private let now = Date(timeIntervalSince1970: 1_796_000_000)
    private var store: Store { Store(path: dir, timeZone: TimeZone(identifier: "UTC")!) }

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "triage-overlap-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Six messages; `receipt` ones are labelled, queued and moved to Receipts.
    private func mailbox() -> InMemoryMailConnection {
        let memory = InMemoryMailConnection(folders: ["Receipts"])
        for subject in ["receipt 1", "hello 2", "receipt 3", "hello 4", "receipt 5", "hello 6"] {
            memory.deliver(subject: subject)
        }
        return memory
    }

    private func runner(_ log: EventLog, classifyHook: @escaping (Message) -> Void = { _ in },
                        batchSize: Int, fetchSize: Int, all: Bool = true) -> MailboxRunner {
        var options = RunOptions(all: all, batchSize: batchSize)
        options.fetchSize = fetchSize
        var runner = MailboxRunner(
            account: "acct", mailbox: "INBOX", store: store, options: options, now: now,
            parse: { bytes in
                var message = Message()
                let text = String(decoding: bytes, as: UTF8.self)
                for line in text.split(separator: "\r\n") where line.hasPrefix("Subject: ") {
                    message.subject = String(line.dropFirst(9))
                }
                message.messageID = "id-\(message.subject ?? "")@memory.test"
                return message
            },
            classify: { message in
                let subject = message.subject ?? ""
                log.add("classify start \(subject)")
                classifyHook(message)
                log.add("classify end \(subject)")
                guard subject.hasPrefix("receipt") else { return [] }
                return [PlannedAction(action: .label("paid"), rule: "r"), PlannedAction(action: .queue(name: "rec", inDays: nil), rule: "r"),
                        PlannedAction(action: .move("Receipts"), rule: "r")]
            },
            report: { _ in })
        runner.parts = []
        runner.checkpoint = { log.add("checkpoint \($0)") }
        return runner
    }

    func testTheNextChunksFetchStartsBeforeTheCurrentChunkIsClassified() throws {
        let memory = mailbox()
        let log = EventLog()
        let connection = ScriptedConnection(memory, log: log)
        let secondFetchStarted = DispatchSemaphore(value: 0)
        connection.onFetch = { uids in if uids == [3, 4] { secondFetchStarted.signal() } }
        // The last message of chunk 1 waits (up to 10 s) for chunk 2's FETCH: with the
        // fetches one after the other it never comes, and the order below shows it.
        let runner = self.runner(log, classifyHook: { message in
            if message.subject == "hello 2" { _ = secondFetchStarted.wait(timeout: .now() + 10) }
        }, batchSize: 6, fetchSize: 2)
        let outcome = try runner.run(on: connection)

        let events = log.events
        let fetch2 = try XCTUnwrap(events.firstIndex(of: "fetch start 3,4"))
        let classified2 = try XCTUnwrap(events.firstIndex(of: "classify end hello 2"))
        XCTAssertLessThan(fetch2, classified2, "chunk 2's FETCH begins while chunk 1 is still being classified: \(events)")
        // The handover keeps the connection to one thread at a time.
        XCTAssertFalse(connection.overlapped, "two calls on the connection at once")
        // Same work, same order, same checkpoints as one fetch after the other.
        XCTAssertEqual(outcome.processed, 6)
        XCTAssertEqual(events.filter { $0.hasPrefix("classify start") },
                       ["receipt 1", "hello 2", "receipt 3", "hello 4", "receipt 5", "hello 6"].map { "classify start " + $0 })
        XCTAssertEqual(events.filter { $0.hasPrefix("checkpoint fetch") }.count, 3)
        XCTAssertEqual(memory.subjects(in: "Receipts"), ["receipt 1", "receipt 3", "receipt 5"])
        XCTAssertEqual(memory.subjects(in: "INBOX"), ["hello 2", "hello 4", "hello 6"])
        XCTAssertEqual(try MailboxState.load(store: dir, account: "acct", mailbox: "INBOX")?.lastUID, 6)
        // Every chunk was fetched before the batch changed anything on the server.
        let lastFetch = try XCTUnwrap(events.lastIndex { $0.hasPrefix("fetch start") })
        let firstChange = try XCTUnwrap(events.firstIndex { $0.hasPrefix("store") || $0.hasPrefix("move") })
        XCTAssertLessThan(lastFetch, firstChange)
    }

    func testAFailingPrefetchSurfacesItsErrorAndAppliesNothingOfItsBatch() throws {
        let memory = mailbox()
        let log = EventLog()
        let connection = ScriptedConnection(memory, log: log)
        let lost = MailError(.connect, server: "memory.test", "connection lost while reading the answer to UID FETCH")
        // Batches of 3 in chunks of 2: batch 1 is UIDs 1-3 ([1, 2], [3]) and is done;
        // batch 2 is [4, 5], [6], and the FETCH of [6], prefetched while 4 and 5 are
        // classified, fails. "receipt 5" waits for it so that it is a prefetch.
        let lastFetchStarted = DispatchSemaphore(value: 0)
        connection.onFetch = { uids in
            guard uids == [6] else { return }
            lastFetchStarted.signal()
            throw lost
        }
        let runner = self.runner(log, classifyHook: { message in
            if message.subject == "receipt 5" { _ = lastFetchStarted.wait(timeout: .now() + 10) }
        }, batchSize: 3, fetchSize: 2)
        XCTAssertThrowsError(try runner.run(on: connection)) { error in
            XCTAssertEqual(error as? MailError, lost, "the prefetch's own error, unchanged")
        }
        let events = log.events
        XCTAssertEqual(connection.fetchThreads["6"], false, "UID 6 was prefetched on a second thread: \(events)")
        XCTAssertFalse(connection.overlapped, "two calls on the connection at once")
        // The chunk before the failed one was classified, as without the prefetch...
        XCTAssertTrue(events.contains("classify end receipt 5"))
        // ...but nothing of batch 2 reached the server or the store; batch 1 is done.
        let failed = try XCTUnwrap(events.firstIndex(of: "fetch start 6"))
        XCTAssertFalse(events[failed...].contains { $0.hasPrefix("store") || $0.hasPrefix("move") || $0.hasPrefix("checkpoint") },
                       "\(events)")
        XCTAssertEqual(memory.subjects(in: "Receipts"), ["receipt 1", "receipt 3"])
        XCTAssertEqual(memory.subjects(in: "INBOX"), ["hello 2", "hello 4", "receipt 5", "hello 6"])
        XCTAssertEqual(memory.message(5)?.labels, [])
        XCTAssertEqual(store.allIDs(QueueEntry.self).count, 2, "the queue entries of receipts 1 and 3 only")
        XCTAssertEqual(try MailboxState.load(store: dir, account: "acct", mailbox: "INBOX")?.lastUID, 3)

        // The rerun picks batch 2 up again and finishes it.
        let rerun = self.runner(EventLog(), batchSize: 3, fetchSize: 2, all: false)
        connection.onFetch = { _ in }
        XCTAssertEqual(try rerun.run(on: connection).processed, 3)
        XCTAssertEqual(memory.subjects(in: "Receipts"), ["receipt 1", "receipt 3", "receipt 5"])
        XCTAssertEqual(store.allIDs(QueueEntry.self).count, 3)
    }
}

/// What happened, in order, from any thread.
private final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []

    func add(_ event: String) {
        lock.lock()
        list.append(event)
        lock.unlock()
    }

    var events: [String] {
        lock.lock()
        defer { lock.unlock() }
        return list
    }
}

/// An in-memory connection that logs when each call starts and notices two calls
/// at once; `onFetch` may hold up or fail a fetch.
private final class ScriptedConnection: MailConnection {
    private let base: InMemoryMailConnection
    private let log: EventLog
    private let lock = NSLock()
    private var active = 0
    private(set) var overlapped = false
    var onFetch: ([UInt32]) throws -> Void = { _ in }
    /// Whether each fetch (by its UIDs) ran on the main thread.
    private(set) var fetchThreads: [String: Bool] = [:]

    init(_ base: InMemoryMailConnection, log: EventLog) {
        self.base = base
        self.log = log
    }

    var serverName: String { base.serverName }

    private func call<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        lock.lock()
        active += 1
        if active > 1 { overlapped = true }
        lock.unlock()
        defer {
            lock.lock()
            active -= 1
            lock.unlock()
        }
        log.add(name)
        return try body()
    }

    private func list(_ uids: [UInt32]) -> String { uids.map(String.init).joined(separator: ",") }

    func open(_ mailbox: String, readOnly: Bool) throws -> MailboxStatus {
        try call("open") { try base.open(mailbox, readOnly: readOnly) }
    }

    func uids(above uid: UInt32) throws -> [UInt32] {
        try call("uids") { try base.uids(above: uid) }
    }

    func fetch(_ request: FetchRequest) throws -> [FetchedMessage] {
        let uids = request.uids
        return try call("fetch start \(list(uids))") {
            lock.lock()
            fetchThreads[list(uids)] = Thread.isMainThread
            lock.unlock()
            try onFetch(uids)
            return try base.fetch(request)
        }
    }

    func store(_ change: FlagChange, uids: [UInt32]) throws {
        try call("store \(list(uids))") { try base.store(change, uids: uids) }
    }

    func move(_ uids: [UInt32], to folder: String, recorder: MoveRecorder?, resuming attempts: [CopyAttempt]?) throws -> MoveMethod {
        try call("move \(list(uids))") { try base.move(uids, to: folder, recorder: recorder, resuming: attempts) }
    }

    func close() {}
}
