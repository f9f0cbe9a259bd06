import Foundation
@testable import TriageApp
import TriageCore
import TriageTestSupport
import XCTest

/// One account's pass of the pipeline (`AccountSession`: prepare, account setup, a
/// mailbox) over the in-memory connection, a small IMAP server: what the app finds
/// out through `MailConnection` alone (special-use archive, Gmail, folder lists,
/// notices), which a Maildir account cannot show.
final class AccountSessionMemoryTests: XCTestCase {
    static let rules = """
        rule "bills"
          when subject:bill
          then queue bills, archive
        """

    private func pass(_ memory: InMemoryMailConnection, _ f: AppFolder, dryRun: Bool = false) throws -> (status: ExitStatus, processed: Int) {
        let setup = try f.setup()
        let account = setup.config.accounts[0]
        var options = RunOptions()
        options.all = true
        options.dryRun = dryRun
        let context = f.context()
        try AccountSession.prepare(memory, account: account, mailboxes: account.mailboxes, setup: setup, verbose: false, context: context)
        let shared = try AccountSession.accountSetup(account, on: memory, setup: setup, options: options, context: context)
        let outcome = try AccountSession.runMailbox("INBOX", account: account, on: memory, setup: setup, options: options,
                                                    shared: shared, parts: setup.rules?.neededParts ?? .all,
                                                    printer: RunPrinter(context: context, verbose: false, dryRun: dryRun),
                                                    context: context, checkpoint: { _ in })
        return (outcome.status, outcome.processed)
    }

    func testArchiveGoesToTheServersSpecialUseFolderAndTheServersNoticesAreSaid() throws {
        let f = try AppFolder("memory-archive", rules: Self.rules)
        defer { f.remove() }
        let memory = InMemoryMailConnection(folders: ["Archived"])
        memory.server.specialUse["\\Archive"] = "Archived"
        memory.deliver(subject: "the bill")
        memory.deliver(subject: "a letter")
        memory.notices = ["UID SEARCH found fewer messages than UID FETCH"]
        let outcome = try pass(memory, f)
        XCTAssertEqual(outcome.status, .ok, f.output.stderr)
        XCTAssertEqual(outcome.processed, 2)
        XCTAssertEqual(memory.subjects(in: "Archived"), ["the bill"], "the special-use folder, asked of the connection")
        XCTAssertEqual(memory.subjects(in: "INBOX"), ["a letter"])
        XCTAssertEqual(f.output.stderr, "triage: local/INBOX: UID SEARCH found fewer messages than UID FETCH\n")
        XCTAssertEqual(memory.takeNotices(), [], "taken once")
    }

    func testOnGmailArchiveTakesTheInboxLabelOff() throws {
        let f = try AppFolder("memory-gmail", rules: Self.rules)
        defer { f.remove() }
        let memory = InMemoryMailConnection()
        memory.server.traits.capabilities.insert("X-GM-EXT-1")
        memory.deliver(subject: "the bill", labels: ["\\Inbox"])
        XCTAssertEqual(try pass(memory, f).status, .ok, f.output.stderr)
        XCTAssertEqual(memory.message(1)?.labels, [], "the \\Inbox label is off; the message stays in All Mail")
        XCTAssertEqual(memory.subjects(in: "INBOX"), ["the bill"])
    }

    func testWithoutAnArchiveFolderADryRunSaysSoAndMovesNothing() throws {
        let f = try AppFolder("memory-noarchive", rules: Self.rules)
        defer { f.remove() }
        let memory = InMemoryMailConnection()
        memory.deliver(subject: "the bill")
        XCTAssertEqual(try pass(memory, f, dryRun: true).processed, 1)
        XCTAssertTrue(f.output.stderr.contains("marks no folder \\Archive (SPECIAL-USE)"), f.output.stderr)
        XCTAssertEqual(memory.subjects(in: "INBOX"), ["the bill"])
        XCTAssertFalse(memory.log.contains { $0.hasPrefix("move") || $0.hasPrefix("store") || $0.hasPrefix("create") }, "\(memory.log)")
    }

    func testMissingFoldersComeFromTheServersList() throws {
        let memory = InMemoryMailConnection(folders: ["Lists/dev"])
        let existing = try FolderNames.existing(on: memory)
        XCTAssertEqual(existing, ["INBOX", "Lists/dev"])
        let missing = try FolderNames.missing(["INBOX", "lists/dev", "Receipts"], existing: existing, on: memory)
        XCTAssertEqual(missing.map(\.name), ["lists/dev", "Receipts"])
        XCTAssertEqual(missing.map(\.closest), ["Lists/dev", nil])
        XCTAssertFalse(memory.log.contains { $0.hasPrefix("open") }, "the list, not one open per folder: \(memory.log)")
    }
}
