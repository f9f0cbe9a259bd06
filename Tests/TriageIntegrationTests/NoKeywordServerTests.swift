import Foundation
import TriageCore
import TriageIMAP
import TriageMIME
import XCTest

/// GNU Mailutils' imap4d (Tests/Servers/mailutils.sh), a real server without custom
/// keywords, as Exchange and Office 365 are: its PERMANENTFLAGS lack `\*` and a
/// keyword STORE gets `BAD Unrecognized flag`. triage reads that at SELECT (so the
/// run skips labels there; see RefusedStoreTests for the run), and a keyword STORE
/// that is sent anyway is a refusal (exit 78, the run goes on), not a temporary
/// failure (75, which failed every run forever).
final class NoKeywordServerTests: XCTestCase {
    private var server: PackagedIMAPServer!
    private var user = ""

    override func setUpWithError() throws {
        server = try PackagedIMAPServer.mailutils()
        user = try server.makeUser("nokeyword")
        try server.append(user: user, [
            SeedMessage(text: "From: Ann <a@x.test>\nSubject: one\nMessage-ID: <mu1@x.test>\n\nHello\n"),
            SeedMessage(text: "From: Ann <a@x.test>\nSubject: two\nMessage-ID: <mu2@x.test>\n\nHello again\n"),
        ])
    }

    private func connect() throws -> IMAPConnection {
        try server.connection(user: user)
    }

    func testPermanentFlagsWithoutNewKeywordsAreRead() throws {
        let connection = try connect()
        defer { connection.close() }
        let status = try connection.open("INBOX", readOnly: false)
        XCTAssertEqual(status.exists, 2)
        XCTAssertEqual(status.allowedKeywords, [], "PERMANENTFLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft): no keyword at all")
    }

    func testAKeywordStoreIsARefusalAndFlagsStillWork() throws {
        let connection = try connect()
        defer { connection.close() }
        _ = try connection.open("INBOX", readOnly: false)
        XCTAssertThrowsError(try connection.store(FlagChange(.add, labels: ["no push"]), uids: [1, 2])) { error in
            let failure = error as? MailError
            XCTAssertEqual(failure?.kind, .refused, "\(error)")
            XCTAssertEqual(failure?.exitStatus, .config)
            XCTAssertTrue(failure?.message.contains("Unrecognized flag") == true, "\(error)")
        }
        // The session goes on: the other actions of the batch are still sent.
        try connection.store(FlagChange(.add, flags: ["\\Seen"]), uids: [1, 2])
        let fetched = try connection.fetch([1, 2])
        XCTAssertEqual(fetched.map { $0.flags.contains("\\Seen") }, [true, true])
    }

    func testARunOverImap4dMarksReadAndSkipsTheLabels() throws {
        let connection = SearchWorkaround(try connect())
        let storePath = NSTemporaryDirectory() + "triage-nokeyword-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: storePath) }
        var events: [RunEvent] = []
        let runner = MailboxRunner(
            account: "mu", mailbox: "INBOX", store: Store(path: storePath, timeZone: TimeZone(identifier: "UTC")!),
            options: RunOptions(all: true), now: Date(), parse: { MessageParser.parse($0) },
            classify: { _ in [PlannedAction(action: .label("no push"), rule: "r"), PlannedAction(action: .markRead, rule: "r")] },
            report: { events.append($0) })
        let outcome = try runner.run(on: connection)
        connection.close()

        XCTAssertEqual(outcome.processed, 2)
        XCTAssertEqual(outcome.failedActions.count, 1, "78 at the end, not 75")
        let warnings = events.compactMap { if case .warning(_, _, let text) = $0 { return text } else { return nil } }
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings.first?.contains("allows no new keywords in INBOX") == true, "\(warnings)")
        XCTAssertFalse(events.contains { if case .actionFailed = $0 { return true } else { return false } }, "no label was even sent")

        let check = try connect()
        defer { check.close() }
        _ = try check.open("INBOX", readOnly: true)
        let fetched = try check.fetch([1, 2])
        XCTAssertEqual(fetched.map { $0.flags.contains("\\Seen") }, [true, true], "marked read on the server")
        XCTAssertEqual(fetched.map(\.labels), [[], []])
        let problems = Store(path: storePath, timeZone: TimeZone(identifier: "UTC")!).unreportedDigestEntries().records
        XCTAssertEqual(problems.map(\.section), [MailboxRunner.problemsSection])
    }

    /// `triage check --connect` names a label such a server cannot take as a keyword
    /// (exit 78) before any run asks for it.
    func testCheckConnectNamesALabelTheServerCannotTake() throws {
        let dir = NSTemporaryDirectory() + "triage-nokeyword-check-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir + "/rules", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "rule \"quiet\" when from:x.test then label \"no push\", flag\n".write(toFile: dir + "/rules/a.rules", atomically: true, encoding: .utf8)
        try server.password.write(toFile: dir + "/pw", atomically: true, encoding: .utf8)
        try """
        [triage]
        rules = rules
        store = store
        [account mu]
        url = imaps://localhost:\(server.imapsPort)
        user = \(user)
        password_command = cat \(dir)/pw
        ca_file = \(server.caFile)

        """.write(toFile: dir + "/triage.conf", atomically: true, encoding: .utf8)
        let check = try TriageProcess.run(["check", "--connect", "--config", dir + "/triage.conf"])
        XCTAssertEqual(check.status, 78, check.err)
        XCTAssertTrue(check.err.contains("triage: account mu: label \"no push\" cannot be a keyword in \"INBOX\" on localhost:\(server.imapsPort)"),
                      check.err)
        XCTAssertTrue(check.out.contains("mu: folders on localhost:\(server.imapsPort): \"INBOX\""), check.out)
    }

    func testDovecotAllowsNewKeywords() throws {
        let dovecot = try DovecotServer.shared()
        let connection = try dovecot.connect(user: try dovecot.makeUser("permanentflags"))
        defer { connection.close() }
        XCTAssertNil(try connection.open("INBOX", readOnly: false).allowedKeywords, "PERMANENTFLAGS has \\*")
        XCTAssertNil(try connection.open("INBOX", readOnly: true).allowedKeywords, "EXAMINE's PERMANENTFLAGS () says nothing")
    }
}

/// imap4d answers `UID SEARCH UID 1:*` with nothing (issue 19, item 6, not handled
/// here): this passes everything to the real connection but answers "which UIDs
/// are new" from UIDNEXT, so that a whole mailbox run can be tried on imap4d.
private final class SearchWorkaround: MailConnection {
    let base: IMAPConnection
    private var uidNext: UInt32 = 0

    init(_ base: IMAPConnection) { self.base = base }
    var serverName: String { base.serverName }
    func open(_ mailbox: String, readOnly: Bool) throws -> MailboxStatus {
        let status = try base.open(mailbox, readOnly: readOnly)
        uidNext = status.uidNext
        return status
    }
    func uids(above uid: UInt32) throws -> [UInt32] { uid + 1 < uidNext ? Array((uid + 1)..<uidNext) : [] }
    func fetch(_ request: FetchRequest) throws -> [FetchedMessage] { try base.fetch(request) }
    func store(_ change: FlagChange, uids: [UInt32]) throws { try base.store(change, uids: uids) }
    func move(_ uids: [UInt32], to folder: String, recorder: MoveRecorder?, resuming attempts: [CopyAttempt]?) throws -> MoveMethod {
        try base.move(uids, to: folder, recorder: recorder, resuming: attempts)
    }
    func close() { base.close() }
}
