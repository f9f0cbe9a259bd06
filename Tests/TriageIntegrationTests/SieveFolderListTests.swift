import Foundation
import TriageCore
import XCTest

/// The folders a Sieve script that `triage deploy sieve` put on the server files into
/// are read by every run; once a run has read one (its state is saved) later runs take
/// it without a LIST, and one deleted since is skipped as the LIST would have skipped
/// it. Without a deployment they are not read: what triage moved there itself is
/// never fetched twice.
final class SieveFolderListTests: XCTestCase {
    private let rules = """
    rule "filed"
      when from:filer@example.test
      then move "Filed"

    rule "other"
      when subject:other
      then digest "Other"
    """

    private func listCommands(_ text: String) -> Int {
        text.split(separator: "\n").filter { $0.range(of: #"C: \S+ LIST "#, options: .regularExpression) != nil }.count
    }

    private func message(_ id: String, subject: String = "filed") -> String {
        "From: \(subject == "filed" ? "filer" : "other")@example.test\nTo: me@example.test\nSubject: \(subject) \(id)\nMessage-ID: <\(id)@example.test>\n"
            + "Date: Mon, 30 Nov 2026 08:00:00 +0000\n\nHello \(id).\n"
    }

    func testKnownSieveFoldersNeedNoListAndAGoneOneIsSkipped() throws {
        let server = try DovecotServer.shared()
        let user = try server.makeUser("sievelist")
        try server.createMailbox(user: user, "Filed")
        let folder = try TestFolder("sievelist", rules: rules)
        defer { folder.remove() }
        try folder.writeConfig(url: "imaps://localhost:\(server.imapsPort)", user: user, caFile: server.caFile,
                               accountLines: ["sieve_port": String(server.sievePort)])
        func run() throws -> TriageProcess.Result {
            try folder.triage(["run", "--verbose", "--now", "2026-11-30T09:00:00Z"], environment: ["TRIAGE_TRACE": "1"])
        }
        let deploy = try folder.triage(["deploy", "sieve"])
        XCTAssertEqual(deploy.status, 0, deploy.err)
        // deploy wrote where Filed's first run starts, so no run needs a LIST for it; as a
        // deployment by an older triage (no such start), the first run looks it up.
        let start = MailboxState.path(store: folder.store, account: "test", mailbox: "Filed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: start), start)
        try FileManager.default.removeItem(atPath: start)
        let first = try run()  // remembers where INBOX and Filed end
        XCTAssertEqual(first.status, 0, first.err)
        // Filed at delivery by the server's Sieve script: Filed is still read.
        try server.seed(user: user, mailbox: "Filed", message("s1"))
        let second = try run()
        XCTAssertEqual(second.status, 0, second.err)
        XCTAssertTrue(second.out.contains("/Filed: 1 message processed"), second.out)
        XCTAssertLessThan(listCommands(second.err + second.out), listCommands(first.err + first.out),
                          "no LIST for a folder read before:\n\(second.err)")
        XCTAssertTrue((second.err + second.out).contains("SELECT Filed"), second.err)
        // Deleted since: skipped without an error; INBOX is still done.
        try FileManager.default.removeItem(atPath: server.maildir(user: user, mailbox: "Filed"))
        try server.seed(user: user, message("i1", subject: "other"))
        let third = try run()
        XCTAssertEqual(third.status, 0, third.err)
        XCTAssertFalse(third.err.contains("does not exist"), third.err)
        XCTAssertTrue(folder.storeLines().contains { $0.contains("other i1") }, "\(folder.storeLines())")
    }

    func testWithoutADeployedScriptWhatTriageMovedIsNotReadAgain() throws {
        let server = try DovecotServer.shared()
        let user = try server.makeUser("sievelist-none")
        try server.createMailbox(user: user, "Filed")
        let folder = try TestFolder("sievelist-none", rules: rules)
        defer { folder.remove() }
        try folder.writeConfig(url: "imaps://localhost:\(server.imapsPort)", user: user, caFile: server.caFile)
        func run() throws -> TriageProcess.Result {
            try folder.triage(["run", "--verbose", "--now", "2026-11-30T09:00:00Z"], environment: ["TRIAGE_TRACE": "1"])
        }
        XCTAssertEqual(try run().status, 0)
        try server.seed(user: user, message("m1"))
        let moving = try run()
        XCTAssertEqual(moving.status, 0, moving.err)
        XCTAssertEqual(server.files(user: user, mailbox: "Filed").count, 1, "moved by the rule")
        // The next run looks at INBOX only: Filed is neither selected nor fetched again.
        let next = try run()
        XCTAssertEqual(next.status, 0, next.err)
        XCTAssertFalse((next.err + next.out).contains("SELECT Filed"), next.err)
        XCTAssertFalse(next.out.contains("/Filed:"), next.out)
    }
}
