import Foundation
import TriageCore
import XCTest

/// Narrowing by `UID SEARCH` on Cyrus and Courier: the traps of `ServerNarrowingRunTests`,
/// a narrowed run (probed, `server_search = auto`) and a `server_search = off` run end
/// with the same messages, flags and keywords in the same folders, and the same store.
final class ServerNarrowingMatrixTests: XCTestCase {
    private struct Outcome {
        var snapshot: [String]
        var output: String
        var decisions: Int
    }

    private func run(_ server: IMAPTestServer, mode: String?) throws -> Outcome {
        let user = try server.makeUser("narrow")
        try server.createFolders(user: user, ["FYI"])
        try server.append(user: user, ServerNarrowingRunTests.messages.map { SeedMessage(text: $0) })
        let folder = try TestFolder("narrow-matrix", rules: ServerNarrowingRunTests.rules, password: server.password)
        defer { folder.remove() }
        var lines: KeyValuePairs<String, String> = [:]
        if let mode { lines = ["server_search": mode] }
        try folder.writeConfig(url: "imaps://localhost:\(server.imapsPort)", user: user, caFile: server.caFile, accountLines: lines)
        let run = try folder.triage(["run", "--all", "--verbose", "--now", "2026-11-30T09:00:00Z"])
        XCTAssertEqual(run.status, 0, run.out + run.err)
        var snapshot: [String] = []
        let connection = try server.connection(user: user)
        defer { connection.close() }
        for name in ["INBOX", "FYI"] {
            _ = try connection.open(server.serverName(name), readOnly: true)
            for item in try connection.fetch(try connection.uids(above: 0)) {
                let header = String(decoding: item.header, as: UTF8.self)
                let id = header.range(of: "Message-ID: <").map { String(header[$0.upperBound...].prefix { $0 != "@" }) } ?? "?"
                let flags = item.flags.subtracting(["\\Recent"]).sorted().joined(separator: " ")
                snapshot.append("\(name) \(id) flags(\(flags)) labels(\(item.labels.sorted().joined(separator: ",")))")
            }
        }
        snapshot += folder.storeLines(maskUIDs: true)
        let decisions = run.out.split(separator: "\n").filter { $0.firstMatch(of: /^test\/INBOX [0-9]+ "/) != nil }.count
        return Outcome(snapshot: snapshot.sorted(), output: run.out + run.err, decisions: decisions)
    }

    private func check(_ server: IMAPTestServer) throws {
        let narrowed = try run(server, mode: nil)
        let full = try run(server, mode: "off")
        XCTAssertEqual(narrowed.snapshot, full.snapshot, server.name)
        let total = ServerNarrowingRunTests.traps.count + ServerNarrowingRunTests.fillers
        XCTAssertEqual(full.decisions, total, full.output)
        XCTAssertTrue(full.snapshot.contains { $0.hasPrefix("FYI cc-me ") }, "\(full.snapshot)")
        // The probe trusts the server's SEARCH: only candidates were fetched.
        XCTAssertTrue(narrowed.output.contains("narrowing by UID SEARCH"), narrowed.output)
        XCTAssertLessThan(narrowed.decisions, ServerNarrowingRunTests.traps.count, narrowed.output)
    }

    func testCyrus() throws { try check(try PackagedIMAPServer.cyrus()) }

    func testCourier() throws { try check(try PackagedIMAPServer.courier()) }
}
