import Foundation
import TriageTestSupport
import XCTest

/// Rule folder names (`/` between levels, no prefix) resolve against the server's
/// NAMESPACE: the same rules move to `INBOX.NoPush` and `INBOX.Lists.dev` on Courier
/// and Cyrus's default namespace, to `NoPush` and `Lists/dev` on Dovecot; `check
/// --connect` and `run --verbose` show the server's name.
final class FolderNamespaceIntegrationTests: XCTestCase {
    func testCourier() throws { try resolves(on: try PackagedIMAPServer.courier(), expected: "INBOX.Lists.dev") }
    func testCyrusDefaultNamespace() throws { try resolves(on: try PackagedIMAPServer.cyrusDefaultNamespace(), expected: "INBOX.Lists.dev") }
    func testDovecot() throws { try resolves(on: try DovecotServer.shared(), expected: "Lists/dev") }

    private func resolves(on server: any IMAPTestServer, expected: String) throws {
        let user = try server.makeUser("namespace")
        try server.createFolders(user: user, ["NoPush", "Lists/dev", "Lists/other", "Lists/third"])
        let box = try TestFolder("namespace", rules: """
            rule "lists" when list:dev.lists.example then move "Lists/dev"
            rule "no push" when subject:quiet then move "NoPush"
            rule "in other" when in:Lists/other header:Message-ID:o1* then move "NoPush"
            rule "in third" when in:Lists/third then move "NoPush"
            """, password: server.password)
        defer { box.remove() }
        try box.writeConfig(url: "imaps://localhost:\(server.imapsPort)", user: user, caFile: server.caFile,
                            mailboxes: "INBOX, Lists/other, \(server.serverName("Lists/third"))")
        try server.append(user: user, [
            SeedMessage(text: RunSandbox.message("l1", kind: 3).text),
            SeedMessage(text: TestMessages.plain(id: "q1", subject: "Be quiet")),
            SeedMessage(text: TestMessages.plain(id: "p1", subject: "Plain")),
        ])
        try server.append(user: user, folder: "Lists/other", [SeedMessage(text: TestMessages.plain(id: "o1", subject: "Other"))])
        try server.append(user: user, folder: "Lists/third", [SeedMessage(text: TestMessages.plain(id: "t1", subject: "Third"))])

        let check = try box.triage(["check", "--connect"])
        XCTAssertEqual(check.status, 0, "\(server.name): \(check.err)")
        XCTAssertTrue(check.out.contains("test: folder \"Lists/dev\" is \"\(expected)\" on localhost:\(server.imapsPort)"), "\(server.name): \(check.out)")
        XCTAssertTrue(check.out.contains("test: folder \"INBOX\" is \"INBOX\""), "\(server.name): \(check.out)")

        let run = try box.triage(["run", "--all", "--verbose"])
        XCTAssertEqual(run.status, 0, "\(server.name): \(run.err)")
        XCTAssertTrue(run.out.contains("folder \"NoPush\" is \"\(server.serverName("NoPush"))\""), "\(server.name): \(run.out)")
        // `mailboxes = Lists/other` is opened by its server name too.
        XCTAssertTrue(run.out.contains("test/Lists/other: 1 message processed"), "\(server.name): \(run.out)")

        // The ground truth, by the server's own names.
        let connection = try server.connection(user: user)
        defer { connection.close() }
        func ids(_ serverFolder: String) throws -> [String] {
            _ = try connection.open(serverFolder, readOnly: true)
            return try connection.fetch(try connection.uids(above: 0)).map {
                let header = String(decoding: $0.header, as: UTF8.self)
                return header.range(of: "Message-ID: <").map { String(header[$0.upperBound...].prefix { $0 != "@" }) } ?? "?"
            }.sorted()
        }
        XCTAssertEqual(try ids(expected), ["l1"], server.name)
        // `in:` names folders the rules' way, whichever way `mailboxes =` wrote them: `in:Lists/third`
        // is the mailbox configured as INBOX.Lists.third on Courier, mapped back through the namespace.
        XCTAssertEqual(try ids(server.serverName("NoPush")), ["o1", "q1", "t1"], server.name)
        XCTAssertEqual(try ids("INBOX"), ["p1"], server.name)

        // A folder missing on the server: check --connect names the server's name, exit 78.
        try "rule \"x\" when subject:x then move \"Lists/gone\"\n".write(toFile: box.dir + "/rules/more.rules", atomically: true, encoding: .utf8)
        let missing = try box.triage(["check", "--connect"])
        XCTAssertEqual(missing.status, 78, "\(server.name): \(missing.err)")
        XCTAssertTrue(missing.err.contains("\"\(server.serverName("Lists/gone"))\" does not exist"), "\(server.name): \(missing.err)")
    }
}
