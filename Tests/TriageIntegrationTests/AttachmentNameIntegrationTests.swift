import Foundation
import TriageCore
import TriageIMAP
import TriageMIME
import XCTest

/// `triage run` over IMAP reads attachment names from the server's BODYSTRUCTURE;
/// `triage test` and Maildir read them from the message itself. Both go through
/// TriageMIME's one decoder, so for every fixture (the nasty, misread and
/// ordinary ones) Dovecot's answer gives exactly the names the file gives,
/// except where Dovecot itself reads the structure differently (`serverReads`).
final class AttachmentNameIntegrationTests: XCTestCase {
    /// Fixtures whose structure Dovecot 2.3 reads otherwise, with its names and why
    /// (docs/SERVER-QUIRKS.md).
    private static let serverReads: [String: (names: [String], why: String)] = [
        "boundary-rfc2231.eml": ([], "Dovecot ignores an RFC 2231 `boundary*=` and reports one opaque part"),
    ]

    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TriageMIMETests/Fixtures")

    func testBodyStructureGivesTheNamesTheFileGives() throws {
        let server = try DovecotServer.shared()
        let user = try server.makeUser("attachment-names")
        var files: [URL] = []
        for folder in ["nasty", "misread", "messages"] {
            let directory = Self.fixtures.appendingPathComponent(folder)
            files += try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                .filter { $0.hasSuffix(".eml") }.map { directory.appendingPathComponent($0) }
        }
        XCTAssertGreaterThanOrEqual(files.count, 30)
        var expected: [[String]] = []
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: file))
            try server.seed(user: user, bytes: bytes)
            expected.append(MessageParser.parse(bytes).attachments)
        }
        let connection = try server.connect(user: user)
        defer { connection.close() }
        _ = try connection.open("INBOX", readOnly: true)
        let uids = try connection.uids(above: 0)
        XCTAssertEqual(uids.count, files.count, "Dovecot took every fixture")
        let fetched = try connection.fetch(uids, parts: .structure).sorted { $0.uid < $1.uid }
        XCTAssertEqual(fetched.count, files.count)
        var named = 0
        for (index, message) in fetched.enumerated() where index < files.count {
            let name = files[index].lastPathComponent
            let fromServer = try XCTUnwrap(message.attachments, "\(name): no BODYSTRUCTURE")
            if let known = Self.serverReads[name] {
                XCTAssertEqual(fromServer, known.names, "\(name): \(known.why)")
                continue
            }
            XCTAssertEqual(fromServer, expected[index], name)
            named += fromServer.count
        }
        XCTAssertGreaterThan(named, 15, "the fixtures have attachments to compare")
        let everyWay = try XCTUnwrap(files.firstIndex { $0.lastPathComponent == "attachment-names-every-way.eml" })
        XCTAssertEqual(fetched[everyWay].attachments?.first, "naïve.pdf", "RFC 2231 continuations over IMAP")
    }

    /// End to end: `triage test` on the saved file and `triage run` over Dovecot
    /// match the same `filename:` rules (so label the message the same way).
    func testTriageTestAndTriageRunMatchTheSameFilenameRules() throws {
        let server = try DovecotServer.shared()
        let user = try server.makeUser("filename-rules")
        let file = Self.fixtures.appendingPathComponent("misread/attachment-names-every-way.eml").path
        try server.seed(user: user, bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))))
        let dir = NSTemporaryDirectory() + "triage-filename-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/rules", withIntermediateDirectories: true)
        try """
        rule "naive" when filename:naïve.pdf then label "fn-naive"
        rule "privet" when filename:Привет.pdf then label "fn-privet"
        rule "grusse" when filename:"Grüße–Liste.txt" then label "fn-grusse"
        rule "photo" when filename:"été–photo.png" then label "fn-photo"
        rule "eml" when filename:message.eml then label "fn-eml"
        rule "nameless" when filename:attachment then label "fn-nameless"
        rule "old continuation reading" when filename:naï then label "fn-wrong"

        """.write(toFile: dir + "/rules/names.rules", atomically: true, encoding: .utf8)
        try DovecotServer.password.write(toFile: dir + "/pw", atomically: true, encoding: .utf8)
        try """
        [triage]
        rules = rules
        store = store
        timezone = UTC

        [account test]
        url = imaps://localhost:\(server.imapsPort)
        user = \(user)
        password_command = cat \(dir)/pw
        ca_file = \(server.caFile)
        mailboxes = INBOX
        """.write(toFile: dir + "/triage.conf", atomically: true, encoding: .utf8)
        let config = ["--config", dir + "/triage.conf"]

        let test = try TriageProcess.run(["test", "--json", file] + config)
        XCTAssertEqual(test.status, 0, test.err)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(test.out.utf8)) as? [String: Any])
        let predicted = Set((json["matched"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String })
        XCTAssertEqual(predicted, ["naive", "privet", "grusse", "photo", "eml", "nameless"])

        let run = try TriageProcess.run(["run", "--all"] + config)
        XCTAssertEqual(run.status, 0, run.err)
        let connection = try server.connect(user: user)
        defer { connection.close() }
        _ = try connection.open("INBOX", readOnly: true)
        let labels = try connection.fetch(try connection.uids(above: 0)).first?.labels ?? []
        XCTAssertEqual(labels, Set(predicted.map { "fn-" + $0 }),
                       "triage run over IMAP matched what triage test matched")
    }
}
