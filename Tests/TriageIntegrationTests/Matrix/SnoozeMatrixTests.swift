import Foundation
import TriageCore
import TriageIMAP
import XCTest

/// The snooze across the server matrix: on Cyrus (MOVE, folders beside INBOX) and
/// Courier (no MOVE: COPY, STORE \Deleted, UID EXPUNGE; folders under `INBOX.`), a
/// snoozed message leaves INBOX for `Snoozed` (made with CREATE), is back unread at its
/// time and stays. (Dovecot and Maildir: SnoozeTests; kills at every step: SnoozeCrashSweepTests.)
final class SnoozeMatrixTests: XCTestCase {
    func testCyrus() throws { try snoozeAndWake(on: try PackagedIMAPServer.cyrus()) }
    func testCourier() throws { try snoozeAndWake(on: try PackagedIMAPServer.courier()) }

    private func snoozeAndWake(on server: any IMAPTestServer) throws {
        let user = try server.makeUser("snooze")
        func message(_ subject: String, _ id: String) -> String {
            "From: Ann <ann@x.test>\r\nTo: me@example.test\r\nSubject: \(subject)\r\nMessage-ID: <\(id)@x.test>\r\n"
                + "Date: Tue, 01 Dec 2026 08:00:00 +0000\r\n\r\nHello.\r\n"
        }
        try server.append(user: user, [SeedMessage(text: message("later please", "l1"), flags: ["\\Seen"]),
                                        SeedMessage(text: message("plain news", "p1"), flags: ["\\Seen"])])
        let folder = try TestFolder("snooze-\(server.name)", rules: SnoozeTests.rules, password: server.password)
        defer { folder.remove() }
        try folder.writeConfig(url: "imaps://localhost:\(server.imapsPort)", user: user, caFile: server.caFile)

        func contents() throws -> [String] {
            let connection = try server.connection(user: user)
            defer { connection.close() }
            var lines: [String] = []
            for name in ["INBOX", "Snoozed"] {
                do { _ = try connection.open(server.serverName(name), readOnly: true) } catch let error as MailError where error.kind == .missingFolder {
                    continue
                }
                let uids = try connection.uids(above: 0)
                guard !uids.isEmpty else { continue }
                for item in try connection.fetch(uids) where !item.flags.contains("\\Deleted") {
                    let header = String(decoding: item.header, as: UTF8.self)
                    let subject = header.range(of: "Subject: ").map { String(header[$0.upperBound...].prefix { !$0.isNewline && $0 != "\r" }) } ?? "?"
                    lines.append("\(name) \(subject) flags(\(item.flags.subtracting(["\\Recent"]).sorted().joined(separator: " ")))")
                }
            }
            return lines.sorted()
        }
        func run(_ now: String, all: Bool = false) throws {
            let result = try folder.triage(["run", "--now", now] + (all ? ["--all"] : []))
            XCTAssertEqual(result.status, 0, "\(server.name) run at \(now): \(result.err)")
        }

        try run("2026-12-01T10:00", all: true)
        XCTAssertEqual(try contents(), ["INBOX plain news flags(\\Seen)", "Snoozed later please flags(\\Seen)"], server.name)
        try run("2026-12-02T08:59")
        XCTAssertEqual(try contents(), ["INBOX plain news flags(\\Seen)", "Snoozed later please flags(\\Seen)"], server.name)
        try run("2026-12-02T09:00")
        XCTAssertEqual(try contents(), ["INBOX later please flags()", "INBOX plain news flags(\\Seen)"], server.name)
        try run("2026-12-03T10:00", all: true)
        XCTAssertEqual(try contents(), ["INBOX later please flags()", "INBOX plain news flags(\\Seen)"], "\(server.name): stays")
    }
}
