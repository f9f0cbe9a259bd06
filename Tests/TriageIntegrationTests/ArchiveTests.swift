import Foundation
import XCTest

/// The `archive` action against Dovecot: to the folder with the SPECIAL-USE `\Archive`
/// attribute (dovecot.sh declares one), to `archive = FOLDER` when the account names
/// one, and, on an account with neither, reported by `check --connect` and left in
/// place with a Problems entry by `run`. (Interrupted archives: `InterruptedMoveTests`
/// and `CrashSweepTests`, whose rules archive the newsletters.)
final class ArchiveTests: XCTestCase {
    private var dovecot: DovecotServer!
    private var folder: TestFolder!
    private let rules = """
    rule "cc is for information only"
      when cc:me -to:me
      then label "no push", archive, digest "FYI"

    """

    override func setUpWithError() throws {
        dovecot = try DovecotServer.shared()
        folder = try TestFolder("archive", rules: rules)
    }

    override func tearDownWithError() throws {
        folder.remove()
    }

    private func seedCcAndDirect(_ user: String) throws {
        try dovecot.seed(user: user, "From: Ann <ann@x.test>\nTo: team@x.test\nCc: me@example.test\nSubject: FYI only\n"
                         + "Message-ID: <cc1@x.test>\n\nFor your information.\n")
        try dovecot.seed(user: user, "From: Bob <bob@x.test>\nTo: me@example.test\nSubject: For you\n"
                         + "Message-ID: <to1@x.test>\n\nAnswer me.\n")
    }

    private func configure(_ user: String, archive: String? = nil) throws {
        try folder.writeConfig(url: "imaps://localhost:\(dovecot.imapsPort)", user: user, caFile: dovecot.caFile,
                               accountLines: archive.map { ["archive": $0] } ?? [:])
    }

    private func text(_ files: [String], user: String, mailbox: String) throws -> [String] {
        try files.map { try String(contentsOfFile: dovecot.maildir(user: user, mailbox: mailbox) + "/cur/" + $0, encoding: .utf8) }
    }

    func testArchiveMovesToTheSpecialUseArchiveFolderWithTheLabel() throws {
        let user = try dovecot.makeUser("archive-special-use")
        try dovecot.createFolders(user: user, ["Archive", "Other"])
        try seedCcAndDirect(user)
        try configure(user)
        let check = try folder.triage(["check", "--connect"])
        XCTAssertEqual(check.status, 0, check.err)
        XCTAssertTrue(check.out.contains("test: archive moves to \"Archive\" on localhost:\(dovecot.imapsPort)"), check.out)

        let run = try folder.triage(["run", "--all"])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(dovecot.files(user: user).count, 1, "the direct message stays in INBOX")
        let archived = dovecot.files(user: user, mailbox: "Archive")
        XCTAssertEqual(archived.count, 1)
        XCTAssertTrue(try text(archived, user: user, mailbox: "Archive").first?.contains("<cc1@x.test>") ?? false)
        XCTAssertTrue(dovecot.keywordFile(user: user, mailbox: "Archive").contains("no_push"),
                      "the label went along: \(dovecot.keywordFile(user: user, mailbox: "Archive"))")
        XCTAssertTrue(dovecot.files(user: user, mailbox: "Other").isEmpty)
        XCTAssertEqual(folder.storeLines().filter { $0.contains("\"FYI\"") }.count, 1, "the digest entry is written once")

        // A rerun with --all: the message is no longer in INBOX, nothing doubles.
        let again = try folder.triage(["run", "--all"])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual(dovecot.files(user: user, mailbox: "Archive").count, 1)
        XCTAssertEqual(folder.storeLines().filter { $0.contains("\"FYI\"") }.count, 1)
    }

    /// The archive folder is looked up (a LIST) only for a batch that archives: the
    /// cron run with nothing new, or nothing to archive, sends no LIST.
    func testARunWithNothingToArchiveSendsNoList() throws {
        let user = try dovecot.makeUser("archive-no-list")
        try dovecot.createFolders(user: user, ["Archive"])
        try configure(user)
        func run() throws -> (status: Int32, trace: String) {
            let r = try folder.triage(["run", "--verbose"], environment: ["TRIAGE_TRACE": "1"])
            return (r.status, r.out + r.err)
        }
        func lists(_ trace: String) -> Int {
            trace.split(separator: "\n").filter { $0.range(of: #"C: \S+ LIST "#, options: .regularExpression) != nil }.count
        }
        XCTAssertEqual(try run().status, 0)  // the first run only remembers where INBOX ends
        try dovecot.seed(user: user, "From: Bob <bob@x.test>\nTo: me@example.test\nSubject: For you\n"
                         + "Message-ID: <to2@x.test>\n\nAnswer me.\n")
        let direct = try run()
        XCTAssertEqual(direct.status, 0, direct.trace)
        XCTAssertEqual(lists(direct.trace), 0, "a new message that is not archived: \(direct.trace)")
        let idle = try run()
        XCTAssertEqual(idle.status, 0, idle.trace)
        XCTAssertEqual(lists(idle.trace), 0, "nothing new: \(idle.trace)")
        try dovecot.seed(user: user, "From: Ann <ann@x.test>\nTo: team@x.test\nCc: me@example.test\nSubject: FYI only\n"
                         + "Message-ID: <cc2@x.test>\n\nFor your information.\n")
        let archiving = try run()
        XCTAssertEqual(archiving.status, 0, archiving.trace)
        XCTAssertEqual(lists(archiving.trace), 1, "looked up once, for the batch that archives: \(archiving.trace)")
        XCTAssertEqual(dovecot.files(user: user, mailbox: "Archive").count, 1)
    }

    func testTheAccountsArchiveFolderWinsOverSpecialUse() throws {
        let user = try dovecot.makeUser("archive-configured")
        try dovecot.createFolders(user: user, ["Archive", "Done/2026"])
        try seedCcAndDirect(user)
        try configure(user, archive: "Done/2026")
        let check = try folder.triage(["check", "--connect"])
        XCTAssertEqual(check.status, 0, check.err)
        XCTAssertTrue(check.out.contains("test: archive moves to \"Done/2026\""), check.out)
        let run = try folder.triage(["run", "--all"])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(dovecot.files(user: user, mailbox: "Done/2026").count, 1)
        XCTAssertTrue(dovecot.files(user: user, mailbox: "Archive").isEmpty)
        XCTAssertEqual(dovecot.files(user: user).count, 1)

        // A configured folder that does not exist: check --connect names it.
        try configure(user, archive: "Done/2062")
        let missing = try folder.triage(["check", "--connect"])
        XCTAssertEqual(missing.status, 78, missing.err)
        XCTAssertTrue(missing.err.contains("folder \"Done/2062\" does not exist on localhost:\(dovecot.imapsPort); did you mean \"Done/2026\"?; "
                                           + "create it or fix archive = in [account test]"), missing.err)
    }

    func testAnAccountWithoutArchiveFolderIsReportedAndTheMessageStays() throws {
        let user = try dovecot.makeUser("archive-none")
        try dovecot.createFolders(user: user, ["Other"])
        try seedCcAndDirect(user)
        try configure(user)
        let check = try folder.triage(["check", "--connect"])
        XCTAssertEqual(check.status, 78, check.err)
        XCTAssertTrue(check.err.contains("triage: account test: rules archive mail, but localhost:\(dovecot.imapsPort) marks no folder "
                                         + "\\Archive (SPECIAL-USE) and [account test] sets no archive = FOLDER"), check.err)

        let dry = try folder.triage(["run", "--all", "--dry-run"])
        XCTAssertEqual(dry.status, 0, dry.err)
        XCTAssertTrue(dry.err.contains("marks no folder \\Archive (SPECIAL-USE)"), "a dry run says so too: \(dry.err)")

        let run = try folder.triage(["run", "--all"])
        XCTAssertEqual(run.status, 78, "a rule asks what the account cannot do: \(run.err)")
        XCTAssertTrue(run.err.contains("archive"), run.err)
        XCTAssertEqual(dovecot.files(user: user).count, 2, "both messages stay in INBOX")
        XCTAssertTrue(dovecot.keywordFile(user: user).contains("no_push"), "the other actions happened")
        let problems = folder.storeLines().filter { $0.contains("\"Problems\"") }
        XCTAssertEqual(problems.count, 1, "\(folder.storeLines())")
        XCTAssertTrue(problems.first?.contains("could not archive: the account has no archive folder") ?? false, "\(problems)")
        XCTAssertEqual(folder.storeLines().filter { $0.contains("\"FYI\"") }.count, 1)
    }
}
