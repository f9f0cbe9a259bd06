import Foundation
import TriageCore
import TriageMaildir
import XCTest

/// A change the server refuses (a NO to STORE; a Maildir folder out of keyword
/// letters; a server without keywords) holds up nobody: the messages it is refused
/// for stay as they were and are reported (standard error, digest `Problems`),
/// every other action happens, the state moves on, and the next run is clean.
final class RefusedStoreTests: XCTestCase {
    private var fixture: MaildirFixture!
    private var maildir: String { fixture.maildir }
    private var storePath: String { fixture.storePath }

    override func setUpWithError() throws {
        fixture = try MaildirFixture("refused")
    }

    override func tearDownWithError() throws {
        fixture?.remove()
    }

    private func deliver(_ n: Int, subject: String) throws {
        try fixture.deliver(n, headers: ["From: someone@x.test", "Subject: \(subject)"])
    }

    /// Every message is marked read; its subject's first word is also its label.
    private func classify(_ m: Message) -> [PlannedAction] {
        let label = String((m.subject ?? "").split(separator: " ").first ?? "")
        return [PlannedAction(action: .label(label), rule: "tag"), PlannedAction(action: .markRead, rule: "tag")]
    }

    private func run(on connection: MailConnection, all: Bool = true) throws -> (MailboxRunner.Outcome, [RunEvent]) {
        try fixture.run(on: connection, options: RunOptions(all: all, batchSize: 10), classify: classify)
    }

    /// File names in cur/ and new/, by message number.
    private func names() -> [Int: String] {
        var result: [Int: String] = [:]
        for sub in ["cur", "new"] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: maildir + "/" + sub)) ?? [] {
                if let n = Int(name.split(separator: "M").dropFirst().first?.split(separator: "P").first ?? "") { result[n] = name }
            }
        }
        return result
    }

    private func problems() -> [DigestEntry] {
        Store(path: storePath, timeZone: TimeZone(identifier: "UTC")!).unreportedDigestEntries().records
            .filter { $0.section == MailboxRunner.problemsSection }
    }

    private func failures(_ events: [RunEvent]) -> [[UInt32]] {
        events.compactMap { if case .actionFailed(_, _, let uids, _, _) = $0 { return uids } else { return nil } }
    }

    func testAMaildirFolderOutOfKeywordLettersRefusesOnlyTheNewLabel() throws {
        // 26 keywords already: a-z are taken; `k3` is one of them, `fresh` is not.
        let taken = (0..<26).map { "\($0) k\($0)\n" }.joined()
        try taken.write(toFile: maildir + "/dovecot-keywords", atomically: false, encoding: .utf8)
        try deliver(1, subject: "k3 known label")
        try deliver(2, subject: "fresh label")
        try deliver(3, subject: "k3 again")
        let (outcome, events) = try run(on: try MaildirConnection(root: maildir))

        XCTAssertEqual(outcome.processed, 3)
        XCTAssertEqual(failures(events), [[2]], "only the message with the 27th keyword")
        XCTAssertEqual(outcome.failedActions.count, 1)
        XCTAssertTrue(outcome.failedActions.first?.contains("26 keywords") == true, "\(outcome.failedActions)")
        let files = names()
        XCTAssertTrue(files[1]!.hasSuffix(":2,Sd"), "label k3 (letter d) and read: \(files[1]!)")
        XCTAssertTrue(files[2]!.hasSuffix(":2,S"), "read, though its label was refused: \(files[2]!)")
        XCTAssertTrue(files[3]!.hasSuffix(":2,Sd"), files[3]!)
        XCTAssertEqual(problems().map(\.message.messageID), ["m2@x.test"])
        let snippet = problems().first?.message.snippet ?? ""
        XCTAssertTrue(snippet.contains("could not label \"fresh\""), snippet)

        // The state moved on: the next run has nothing to do and fails nothing.
        let (next, nextEvents) = try run(on: try MaildirConnection(root: maildir), all: false)
        XCTAssertEqual(next.processed, 0)
        XCTAssertEqual(failures(nextEvents), [])
    }

    func testARefusalForSeveralMessagesIsRetriedOneByOneSoOnlyTheGuiltyOneIsReported() throws {
        for n in 1...4 { try deliver(n, subject: "same label") }
        let connection = RefusingConnection(try MaildirConnection(root: maildir), refuseUID: 3)
        let (outcome, events) = try run(on: connection)

        XCTAssertEqual(outcome.processed, 4)
        XCTAssertEqual(connection.labelStores, [[1, 2, 3, 4], [1], [2], [3], [4]], "the batch, then each message alone")
        XCTAssertEqual(failures(events), [[3]])
        let files = names()
        for n in [1, 2, 4] { XCTAssertTrue(files[n]!.hasSuffix(":2,Sa"), "labelled and read: \(files[n]!)") }
        XCTAssertTrue(files[3]!.hasSuffix(":2,S"), "read only: \(files[3]!)")
        XCTAssertEqual(problems().map(\.message.messageID), ["m3@x.test"])

        // --all again meets the same refusal, in other words (Dovecot adds timings): still one entry.
        let again = RefusingConnection(try MaildirConnection(root: maildir), refuseUID: 3)
        again.attempt = 2
        let (_, againEvents) = try run(on: again)
        XCTAssertEqual(failures(againEvents), [[3]])
        XCTAssertEqual(problems().count, 1)
    }

    func testALostConnectionDuringSTOREStillStopsTheMailbox() throws {
        try deliver(1, subject: "x")
        let connection = RefusingConnection(try MaildirConnection(root: maildir), refuseUID: 1, kind: .connect)
        XCTAssertThrowsError(try run(on: connection)) { error in
            XCTAssertEqual((error as? MailError)?.exitStatus, .tempFail)
        }
        // The account's folder under state/ may exist; no mailbox's state file may.
        let saved = ((try? FileManager.default.subpathsOfDirectory(atPath: storePath + "/state")) ?? []).filter { name in
            var folder: ObjCBool = false
            return FileManager.default.fileExists(atPath: storePath + "/state/" + name, isDirectory: &folder) && !folder.boolValue
        }
        XCTAssertEqual(saved, [], "nothing saved: the batch is redone next time")
    }

    func testAServerWithoutKeywordsSkipsLabelsWithOneWarningAndDoesEverythingElse() throws {
        for n in 1...3 { try deliver(n, subject: "tag\(n) label") }
        let connection = RefusingConnection(try MaildirConnection(root: maildir), refuseUID: nil, allowedKeywords: ["$Junk"])
        let (outcome, events) = try run(on: connection)

        XCTAssertEqual(outcome.processed, 3)
        XCTAssertEqual(connection.labelStores, [], "no label is even tried")
        let warnings = events.compactMap { if case .warning(_, _, let text) = $0 { return text } else { return nil } }
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        let warning = warnings.first ?? ""
        XCTAssertTrue(warning.contains("allows no new keywords") && warning.contains("3 messages"), warning)
        XCTAssertEqual(outcome.failedActions.count, 1)
        for (_, name) in names() { XCTAssertTrue(name.hasSuffix(":2,S"), "read, no keyword: \(name)") }
        XCTAssertEqual(problems().count, 1, "one Problem for the mailbox, not one per message")
        XCTAssertEqual(problems().first?.message.subject, "Labels not set in demo/INBOX")
        XCTAssertTrue(problems().first?.message.snippet.contains("PERMANENTFLAGS") == true)

        // Another run the same day: the warning again, but no second Problem.
        for n in 4...5 { try deliver(n, subject: "tag\(n) label") }
        let (again, againEvents) = try run(on: RefusingConnection(try MaildirConnection(root: maildir), refuseUID: nil, allowedKeywords: []),
                                           all: false)
        XCTAssertEqual(again.processed, 2)
        XCTAssertEqual(againEvents.filter { if case .warning = $0 { return true } else { return false } }.count, 1)
        XCTAssertEqual(problems().count, 1)
    }

    func testRemovingAKeywordIsSentWhereNoNewKeywordMayBeMade() throws {
        try deliver(1, subject: "old label")
        _ = try run(on: RefusingConnection(try MaildirConnection(root: maildir), refuseUID: nil))
        XCTAssertTrue(names()[1]?.hasSuffix(",Sa") == true, "labelled first: \(names())")

        // Removing makes no keyword: a server without new keywords still takes it.
        let connection = RefusingConnection(try MaildirConnection(root: maildir), refuseUID: nil, allowedKeywords: [])
        let (outcome, events) = try fixture.run(on: connection, options: RunOptions(all: true, batchSize: 10)) { _ in
            [PlannedAction(action: .unlabel("old"), rule: "untag")]
        }
        XCTAssertEqual(connection.labelStores, [[1]])
        XCTAssertEqual(outcome.failedActions, [])
        XCTAssertTrue(events.allSatisfy { if case .warning = $0 { return false } else { return true } }, "\(events)")
        XCTAssertTrue(names()[1]?.hasSuffix(":2,S") == true, "keyword gone: \(names())")
    }

    func testAKeywordTheServerListsIsStillSetWithoutNewKeywords() throws {
        try deliver(1, subject: "$Junk label")
        let connection = RefusingConnection(try MaildirConnection(root: maildir), refuseUID: nil, allowedKeywords: ["$junk"])
        let (outcome, events) = try run(on: connection)
        XCTAssertEqual(connection.labelStores, [[1]])
        XCTAssertEqual(outcome.failedActions, [])
        XCTAssertTrue(events.allSatisfy { if case .warning = $0 { return false } else { return true } })
    }
}

/// Passes everything to a Maildir, except that a label STORE naming `refuseUID`
/// fails with `kind` (a refusal, or a lost connection), and `open` reports the
/// keywords the "server" allows.
private final class RefusingConnection: MailConnection {
    let base: MailConnection
    let refuseUID: UInt32?
    let kind: MailError.Kind
    let allowedKeywords: Set<String>?
    var labelStores: [[UInt32]] = []
    /// Part of the refusal's text, as a server's timings would be.
    var attempt = 1

    init(_ base: MailConnection, refuseUID: UInt32?, kind: MailError.Kind = .refused, allowedKeywords: Set<String>? = nil) {
        self.base = base
        self.refuseUID = refuseUID
        self.kind = kind
        self.allowedKeywords = allowedKeywords
    }

    var serverName: String { base.serverName }
    func open(_ mailbox: String, readOnly: Bool) throws -> MailboxStatus {
        var status = try base.open(mailbox, readOnly: readOnly)
        status.allowedKeywords = allowedKeywords
        return status
    }
    func uids(above uid: UInt32) throws -> [UInt32] { try base.uids(above: uid) }
    func fetch(_ request: FetchRequest) throws -> [FetchedMessage] { try base.fetch(request) }
    func store(_ change: FlagChange, uids: [UInt32]) throws {
        if !change.labels.isEmpty {
            labelStores.append(uids)
            if let refuseUID, uids.contains(refuseUID) {
                throw MailError(kind, server: serverName, "the server refused UID STORE: Keyword length too long (attempt \(attempt))")
            }
        }
        try base.store(change, uids: uids)
    }
    func move(_ uids: [UInt32], to folder: String, recorder: MoveRecorder?, resuming attempts: [CopyAttempt]?) throws -> MoveMethod {
        try base.move(uids, to: folder, recorder: recorder, resuming: attempts)
    }
    func close() { base.close() }
}
