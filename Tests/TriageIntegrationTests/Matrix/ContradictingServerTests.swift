import Foundation
import XCTest

/// GNU Mailutils imap4d answers `UID SEARCH UID 1:*` with nothing while EXISTS counts
/// the mail: triage checks the answer against the mailbox, finds the UIDs by
/// `UID FETCH n:* (UID)` instead, and says so. (Mailutils has no keywords, MOVE or
/// UIDPLUS: these rules only flag and mark read.)
final class ContradictingServerTests: XCTestCase {
    private let rules = """
    rule "boss" when from:boss@example.test then flag
    rule "news" when from:news@letters.example then mark read
    """

    private func sandbox(_ server: PackagedIMAPServer, user: String) throws -> TestFolder {
        let folder = try TestFolder("mailutils", rules: rules, password: server.password)
        try folder.writeConfig(url: "imaps://localhost:\(server.imapsPort)", user: user, caFile: server.caFile)
        return folder
    }

    /// Message `i` of kind 2 (boss) or 5 (newsletter) or 6 (plain), cycling.
    private func corpus(_ prefix: String, _ count: Int) -> [SeedMessage] {
        (0..<count).map { SeedMessage(text: RunSandbox.message("\(prefix)\($0)", kind: [2, 5, 6][$0 % 3]).text) }
    }

    private func state(_ server: PackagedIMAPServer, user: String) throws -> [String: Set<String>] {
        let connection = try server.connection(user: user)
        defer { connection.close() }
        let status = try connection.open("INBOX", readOnly: true)
        // Not by SEARCH, which is the broken part: every message by sequence range.
        var flags: [String: Set<String>] = [:]
        for item in try connection.fetch(Array(1..<max(1, status.uidNext))) {
            let header = String(decoding: item.header, as: UTF8.self)
            let id = header.range(of: "Message-ID: <").map { String(header[$0.upperBound...].prefix { $0 != "@" }) } ?? "?"
            flags[id] = item.flags.subtracting(["\\Recent"])
        }
        return flags
    }

    func testAllRunFindsTheMailTheSearchMissesAndSaysSo() throws {
        let server = try PackagedIMAPServer.mailutils()
        let user = try server.makeUser("contradiction")
        try server.append(user: user, corpus("a", 6))
        let box = try sandbox(server, user: user)
        defer { box.remove() }

        let run = try box.triage(["run", "--all", "--verbose"])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.out.contains("6 messages processed"), run.out)
        XCTAssertTrue(run.err.contains("UID SEARCH found 0") && run.err.contains("UID FETCH found 6"), run.err)
        XCTAssertEqual(run.err.components(separatedBy: "UID SEARCH found").count - 1, 1, "said once: \(run.err)")
        let flags = try state(server, user: user)
        XCTAssertEqual(flags.count, 6)
        XCTAssertEqual(flags["a0"], ["\\Flagged"])
        XCTAssertEqual(flags["a3"], ["\\Flagged"])
        XCTAssertEqual(flags["a1"], ["\\Seen"])
        XCTAssertEqual(flags["a2"], [])
    }

    func testCronRunFindsTheNewMail() throws {
        let server = try PackagedIMAPServer.mailutils()
        let user = try server.makeUser("contradiction-cron")
        try server.append(user: user, corpus("old", 3))
        let box = try sandbox(server, user: user)
        defer { box.remove() }

        let first = try box.triage(["run", "--verbose"])
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertTrue(first.out.contains("remembering UID 3;"), first.out)
        try server.append(user: user, corpus("new", 2))
        let cron = try box.triage(["run"])
        XCTAssertEqual(cron.status, 0, cron.err)
        XCTAssertTrue(cron.err.contains("UID FETCH found 2"), cron.err)
        let flags = try state(server, user: user)
        XCTAssertEqual(flags["new0"], ["\\Flagged"], "new mail processed")
        XCTAssertEqual(flags["new1"], ["\\Seen"])
        XCTAssertEqual(flags["old0"], [], "old mail untouched")
    }
}
