import Foundation
import TriageCore
import TriageMaildir
import XCTest

/// `MailboxRunner` over a real Maildir and a real store: the run's ordering and
/// idempotence, without a server.
final class MaildirRunTests: XCTestCase {
    private var fixture: MaildirFixture!
    private var maildir: String { fixture.maildir }
    private var storePath: String { fixture.storePath }
    private var now: Date { fixture.now }

    override func setUpWithError() throws {
        fixture = try MaildirFixture("maildir", folders: [".Lists.dev", ".Receipts"])
    }

    override func tearDownWithError() throws {
        fixture?.remove()
    }

    private func deliver(_ n: Int, from: String = "someone@x.test", subject: String, list: String? = nil, seen: Bool = false) throws {
        var headers = ["From: \(from)", "To: me@example.test", "Subject: \(subject)"]
        if let list { headers.append("List-Id: <\(list)>") }
        try fixture.deliver(n, headers: headers, seen: seen)
    }

    /// A tiny stand-in for the compiled rules: decides by subject.
    private func classify(_ m: Message) -> [PlannedAction] {
        var actions: [PlannedAction] = []
        let subject = m.subject ?? ""
        if subject.contains("receipt") {
            actions += [PlannedAction(action: .label("no push"), rule: "receipts"),
                        PlannedAction(action: .queue(name: "rec", inDays: nil), rule: "receipts"),
                        PlannedAction(action: .move("Receipts"), rule: "receipts")]
        }
        if subject.contains("list") {
            actions += [PlannedAction(action: .markRead, rule: "lists"),
                        PlannedAction(action: .digest(section: "Lists"), rule: "lists"),
                        PlannedAction(action: .move("Lists/dev"), rule: "lists")]
        }
        if subject.contains("nowhere") {
            actions += [PlannedAction(action: .move("Missing"), rule: "bad")]
        }
        return actions
    }

    private func run(all: Bool = false, dryRun: Bool = false) throws -> (MailboxRunner.Outcome, [RunEvent]) {
        try fixture.run(on: try MaildirConnection(root: maildir), options: RunOptions(all: all, dryRun: dryRun, batchSize: 2),
                        classify: classify)
    }

    private func files(_ sub: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: maildir + "/" + sub)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    private func records(_ kind: String) -> Int {
        ["open", "done", "pending", "reported"].reduce(0) {
            $0 + (((try? FileManager.default.contentsOfDirectory(atPath: storePath + "/" + kind + "/" + $1)) ?? []).filter { $0.hasSuffix(".json") }.count)
        }
    }

    func testFirstRunOnlyRemembersThenNewMailIsProcessedOnce() throws {
        try deliver(1, subject: "old receipt")
        let (first, events) = try run()
        XCTAssertEqual(first.processed, 0)
        XCTAssertTrue(events.contains { if case .note = $0 { return true } else { return false } })
        XCTAssertEqual(files("new").count, 1, "the first run touches no mail")

        try deliver(2, subject: "new receipt")
        let (second, _) = try run()
        XCTAssertEqual(second.processed, 1)
        XCTAssertEqual(files(".Receipts/cur").count, 1)
        XCTAssertEqual(records("queue"), 1)

        let (third, _) = try run()
        XCTAssertEqual(third.processed, 0, "a rerun with nothing new processes nothing")
    }

    func testFirstMessageIntoAnEmptyFolderIsProcessed() throws {
        // An empty INBOX on the first run: its UID list must be kept, else the next
        // open makes up another UIDVALIDITY and the first message looks like a renumbering.
        let (first, _) = try run()
        XCTAssertEqual(first.processed, 0)
        try deliver(1, subject: "first receipt")
        let (second, events) = try run()
        XCTAssertEqual(second.processed, 1, "\(events)")
        XCTAssertFalse(events.contains { if case .warning = $0 { return true } else { return false } }, "\(events)")
        XCTAssertEqual(files(".Receipts/cur").count, 1)
    }

    func testAllAppliesEveryActionAndARepeatChangesNothing() throws {
        try deliver(1, subject: "a receipt")
        try deliver(2, subject: "dev list post", list: "dev.lists.example")
        try deliver(3, subject: "plain", seen: true)
        try deliver(4, subject: "goes nowhere")
        let (outcome, events) = try run(all: true)
        XCTAssertEqual(outcome.processed, 4)
        XCTAssertEqual(outcome.failedActions.count, 1, "the move to a missing folder fails alone")
        XCTAssertTrue(events.contains { if case .actionFailed = $0 { return true } else { return false } })

        let receipt = try XCTUnwrap(files(".Receipts/cur").first)
        XCTAssertTrue(receipt.hasSuffix(":2,a"), "label as keyword letter a: \(receipt)")
        let keywords = try String(contentsOfFile: maildir + "/.Receipts/dovecot-keywords", encoding: .utf8)
        XCTAssertEqual(keywords, "0 \(LabelCodec.keyword(for: "no push")!)\n")
        let list = try XCTUnwrap(files(".Lists.dev/cur").first)
        XCTAssertTrue(list.hasSuffix(":2,S"), "marked read: \(list)")
        XCTAssertEqual(files("cur").count + files("new").count, 2, "the plain message and the failed move stay")
        XCTAssertEqual(records("queue"), 1)
        XCTAssertEqual(records("digest"), 2, "the Lists entry and the failed move, reported in the digest")
        let pending = Store(path: storePath, timeZone: TimeZone(identifier: "UTC")!).unreportedDigestEntries().records
        XCTAssertEqual(Set(pending.map(\.section)), ["Lists", MailboxRunner.problemsSection])

        let before = try snapshot()
        let (again, _) = try run(all: true)
        XCTAssertEqual(again.recordsCreated, 0)
        XCTAssertEqual(try snapshot(), before, "a repeated --all changes nothing")
    }

    func testDryRunChangesNothing() throws {
        try deliver(1, subject: "a receipt")
        let before = try snapshot()
        let (outcome, events) = try run(all: true, dryRun: true)
        XCTAssertEqual(outcome.processed, 1)
        XCTAssertTrue(events.contains { if case .decision(_, _, _, _, let a) = $0 { return a.count == 3 } else { return false } })
        XCTAssertEqual(try snapshot(), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: storePath + "/queue"))
    }

    func testLostUIDListRenumbersWithoutDuplicates() throws {
        try deliver(1, subject: "a receipt")
        try deliver(2, subject: "plain")
        _ = try run(all: true)
        XCTAssertEqual(records("queue"), 1)
        // A new UIDVALIDITY: every UID is void; the store's identity keeps records single.
        try FileManager.default.removeItem(atPath: maildir + "/triage-uidlist")
        try FileManager.default.moveItem(atPath: maildir + "/.Receipts/cur/" + files(".Receipts/cur")[0],
                                         toPath: maildir + "/cur/back:2,a")
        try "0 \(LabelCodec.keyword(for: "no push")!)\n".write(toFile: maildir + "/dovecot-keywords", atomically: false, encoding: .utf8)
        let (outcome, events) = try run()
        XCTAssertTrue(events.contains { if case .warning(_, _, let t) = $0 { return t.contains("UIDVALIDITY") } else { return false } })
        XCTAssertEqual(outcome.processed, 2)
        XCTAssertEqual(outcome.recordsCreated, 0)
        XCTAssertEqual(records("queue"), 1)
    }

    /// A uidlist whose next UID (or a message's) is the last there is, as another
    /// program or damage may leave it: started over (a new UIDVALIDITY), not a trap
    /// on the next UID (`next += 1` overflowed and killed every run).
    func testAUIDListAtTheLastUIDStartsOverInsteadOfTrapping() throws {
        try deliver(1, subject: "a receipt")
        _ = try run(all: true)
        for header in ["V7 N4294967295\n", "V7 N2\n4294967295 1700000009.M1P1.host\n"] {
            try header.write(toFile: maildir + "/triage-uidlist", atomically: false, encoding: .utf8)
            try deliver(2 + header.count, subject: "plain")
            let (_, events) = try run()
            XCTAssertTrue(warnings(events).contains { $0.contains("UIDVALIDITY") }, "\(warnings(events))")
            let list = try String(contentsOfFile: maildir + "/triage-uidlist", encoding: .utf8)
            XCTAssertFalse(list.contains("4294967295"), list)
        }
        XCTAssertEqual(records("queue"), 1)
    }

    /// Sets a delivered message's arrival time (INTERNALDATE: the file's mtime).
    private func arrived(_ n: Int, _ date: Date) throws {
        for sub in ["new", "cur"] {
            for name in files(sub) where name.hasPrefix("\(1_700_000_000 + n).") {
                try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: maildir + "/" + sub + "/" + name)
            }
        }
    }

    private func warnings(_ events: [RunEvent]) -> [String] {
        events.compactMap { if case .warning(_, _, let text) = $0 { return text } else { return nil } }
    }

    /// Renumbered (a lost uidlist): not a walk over all the mail again. Only mail that
    /// arrived after the last complete run (less an hour of clock slack) is new.
    func testRenumberedMailboxProcessesOnlyMailThatArrivedAfterTheLastRun() throws {
        try deliver(1, subject: "old receipt")
        try deliver(2, subject: "old dev list post", list: "dev.lists.example")
        try arrived(1, now.addingTimeInterval(-3 * 86_400))
        try arrived(2, now.addingTimeInterval(-2 * 3_600))
        _ = try run(all: false)  // first run: remembers the end
        _ = try run(all: false)  // nothing new: records when the mailbox was last seen whole
        let state = try XCTUnwrap(MailboxState.load(store: storePath, account: "demo", mailbox: "INBOX"))
        XCTAssertEqual(state.lastRun?.secondsSince1970, Int64(now.timeIntervalSince1970))

        try FileManager.default.removeItem(atPath: maildir + "/triage-uidlist")
        try deliver(3, subject: "new receipt")
        try arrived(3, now.addingTimeInterval(600))
        try deliver(4, subject: "a receipt from just before the run, by a clock 30 minutes slow")
        try arrived(4, now.addingTimeInterval(-1_800))
        let (outcome, events) = try run()
        XCTAssertEqual(warnings(events).count, 1)
        XCTAssertTrue(warnings(events)[0].contains("only mail that arrived after the last complete run"), "\(warnings(events))")
        XCTAssertEqual(outcome.processed, 2, "3 and 4, not the old 1 and 2")
        XCTAssertEqual(files(".Receipts/cur").count, 2)
        XCTAssertEqual(files(".Lists.dev/cur").count, 0, "old mail is not moved")
        XCTAssertEqual(records("queue"), 2)
        let after = try XCTUnwrap(MailboxState.load(store: storePath, account: "demo", mailbox: "INBOX"))
        XCTAssertNil(after.arrivedAfter, "the walk finished")
        XCTAssertEqual(try run().0.processed, 0, "then incremental as ever")

        let (all, _) = try run(all: true)
        XCTAssertEqual(all.processed, 2, "--all walks everything (what is left here)")
        XCTAssertEqual(files(".Lists.dev/cur").count, 1)
    }

    /// A walk after a renumbering cut short (a crash after its first batch) goes on
    /// with the same cutoff: the rerun does not take the old mail for new.
    func testAnInterruptedRenumberedWalkKeepsItsCutoff() throws {
        for n in 1...4 { try deliver(n, subject: "old receipt \(n)") }
        for n in 1...4 { try arrived(n, now.addingTimeInterval(-3 * 86_400)) }
        _ = try run(all: false)
        _ = try run(all: false)
        try FileManager.default.removeItem(atPath: maildir + "/triage-uidlist")
        try deliver(5, subject: "new receipt")
        try arrived(5, now.addingTimeInterval(600))
        // The walk's first batch (UIDs 1 and 2, batch size 2) ends with this state:
        let status = try MaildirConnection(root: maildir).open("INBOX", readOnly: false)
        let saved = try XCTUnwrap(MailboxState.load(store: storePath, account: "demo", mailbox: "INBOX"))
        let cutoff = Timestamp(secondsSince1970: Int64(now.timeIntervalSince1970) - MailboxRunner.clockSlack, utcOffsetSeconds: 0)
        try MailboxState(uidValidity: status.uidValidity, lastUID: 2, lastRun: saved.lastRun, arrivedAfter: cutoff)
            .save(store: storePath, account: "demo", mailbox: "INBOX")
        let (outcome, events) = try run()
        XCTAssertEqual(warnings(events), [], "the same UIDVALIDITY now")
        XCTAssertEqual(outcome.processed, 1, "only the new receipt")
        XCTAssertEqual(records("queue"), 1)
        XCTAssertNil(try MailboxState.load(store: storePath, account: "demo", mailbox: "INBOX")?.arrivedAfter)
    }

    /// A state from before `last_run` was recorded: like a first run, remember the end.
    func testRenumberedMailboxWithAnOldStateIsLikeAFirstRun() throws {
        try deliver(1, subject: "old receipt")
        _ = try run(all: false)
        let file = MailboxState.path(store: storePath, account: "demo", mailbox: "INBOX")
        let before = try XCTUnwrap(MailboxState.load(store: storePath, account: "demo", mailbox: "INBOX"))
        try #"{"last_uid":\#(before.lastUID),"uidvalidity":\#(before.uidValidity)}"#.write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: maildir + "/triage-uidlist")
        try deliver(2, subject: "receipt between the runs")
        let (outcome, events) = try run()
        XCTAssertEqual(outcome.processed, 0)
        XCTAssertTrue(warnings(events).first?.contains("like a first run only mail that arrives from now on") == true, "\(warnings(events))")
        XCTAssertEqual(records("queue"), 0)
        try deliver(3, subject: "new receipt")
        XCTAssertEqual(try run().0.processed, 1, "mail after the renumbering is processed")
    }

    /// A batch larger than the fetch chunk: the messages are fetched a few at a
    /// time (texts for records in smaller chunks still), but each batch sends one
    /// STORE per change and one MOVE per folder, and ends in the same state as
    /// small batches do.
    func testLargeBatchFetchesInChunksAndActsOncePerBatch() throws {
        for n in 1...9 { try deliver(n, subject: n % 3 == 0 ? "plain" : (n % 3 == 1 ? "a receipt" : "dev list post")) }
        let store = Store(path: storePath, timeZone: TimeZone(identifier: "UTC")!)
        var options = RunOptions(all: true, batchSize: 6)
        options.fetchSize = 4
        var runner = MailboxRunner(account: "demo", mailbox: "INBOX", store: store, options: options, now: now,
                                   parse: MaildirFixture.parse, classify: classify, report: { _ in })
        runner.parts = []
        let connection = RecordingConnection(try MaildirConnection(root: maildir))
        defer { connection.close() }
        let outcome = try runner.run(on: connection)

        XCTAssertEqual(outcome.processed, 9)
        XCTAssertEqual(connection.headerFetches, [4, 2, 3], "batch 1 (6 UIDs) in chunks of 4, batch 2 (3 UIDs) in one")
        XCTAssertEqual(connection.textFetches.count, 6, "receipts and list posts keep a snippet: fetched 1 at a time (4 / 4)")
        XCTAssertTrue(connection.textFetches.allSatisfy { $0 == 1 })
        XCTAssertEqual(connection.moves, ["Receipts": [2, 1], "Lists/dev": [2, 1]], "one MOVE per folder per batch, naming the whole batch's UIDs")
        XCTAssertEqual(connection.stores, 4, "label and mark read, once per batch each")
        XCTAssertEqual(files(".Receipts/cur").count, 3)
        XCTAssertEqual(files(".Lists.dev/cur").count, 3)
        XCTAssertEqual(files("cur").count + files("new").count, 3)
        XCTAssertEqual(records("queue"), 3)
        XCTAssertEqual(records("digest"), 3)
        let (again, _) = try run(all: true)
        XCTAssertEqual(again.recordsCreated, 0, "a repeat adds nothing")
    }

    private func snapshot() throws -> [String] {
        let e = FileManager.default.enumerator(atPath: fixture.dir)!
        return (e.allObjects as! [String]).filter { !$0.hasSuffix("lock") }.sorted()
    }
}

/// Counts what the run sends, then passes it to the real connection.
private final class RecordingConnection: MailConnection {
    let base: MailConnection
    var headerFetches: [Int] = []
    var textFetches: [Int] = []
    var moves: [String: [Int]] = [:]
    var stores = 0

    init(_ base: MailConnection) { self.base = base }
    var serverName: String { base.serverName }
    func open(_ mailbox: String, readOnly: Bool) throws -> MailboxStatus { try base.open(mailbox, readOnly: readOnly) }
    func uids(above uid: UInt32) throws -> [UInt32] { try base.uids(above: uid) }
    func fetch(_ request: FetchRequest) throws -> [FetchedMessage] {
        if request.parts.contains(.text) { textFetches.append(request.uids.count) } else { headerFetches.append(request.uids.count) }
        return try base.fetch(request)
    }
    func store(_ change: FlagChange, uids: [UInt32]) throws {
        stores += 1
        try base.store(change, uids: uids)
    }
    func move(_ uids: [UInt32], to folder: String, recorder: MoveRecorder?, resuming attempts: [CopyAttempt]?) throws -> MoveMethod {
        moves[folder, default: []].append(uids.count)
        return try base.move(uids, to: folder, recorder: recorder, resuming: attempts)
    }
    func close() { base.close() }
}
