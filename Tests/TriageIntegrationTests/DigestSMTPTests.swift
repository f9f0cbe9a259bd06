import Foundation
import TriageCore
import XCTest

/// The digest after `triage run`, received by a real SMTP server on loopback
/// (Debian's python3-aiosmtpd, Tests/Servers/digest_smtpd.py) that requires
/// STARTTLS with a certificate from a test CA, and AUTH.
final class DigestSMTPTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let server = root.appendingPathComponent("Tests/Servers/digest_smtpd.py").path
    static let parseEmail = root.appendingPathComponent("Tests/Servers/parse_email.py").path
    static let zone = TimeZone(identifier: "America/Chicago")!

    var dir = ""
    var smtpd: Process!
    var smtpdInput: Pipe!
    var port = 0

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.path + "/triage-digest-smtp-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir + "/Rules", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/smtpd", withIntermediateDirectories: true)
        smtpd = Process()
        smtpd.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        smtpd.arguments = [Self.server, dir + "/smtpd"]
        let out = Pipe()
        smtpdInput = Pipe()
        smtpd.standardOutput = out
        smtpd.standardInput = smtpdInput
        try smtpd.run()
        // The first line is the port, once the server listens.
        var line = Data()
        while !line.contains(10) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        XCTAssertGreaterThan(port, 0, "the SMTP server did not start (is python3-aiosmtpd installed? scripts/install-deps --test)")
    }

    override func tearDown() {
        try? smtpdInput?.fileHandleForWriting.close()
        smtpd?.waitUntilExit()
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func writeConfig(password: String = "s3cret") throws {
        let config = """
        [triage]
        rules = Rules
        store = store
        timezone = America/Chicago

        [digest]
        to = Me <me@example.test>
        from = triage <triage@example.test>
        hour = 0
        smtp = smtp://127.0.0.1:\(port)
        user = me
        password_command = printf '%s' '\(password)'
        ca_file = smtpd/ca.pem
        send_empty = no

        """
        try Data(config.utf8).write(to: URL(fileURLWithPath: dir + "/triage.conf"))
        // `triage run` needs rules; one that matches nothing keeps the store as seeded.
        try FileManager.default.createDirectory(atPath: dir + "/Rules", withIntermediateDirectories: true)
        try Data("rule \"nothing\" when subject:\"never ever matches\" then stop\n".utf8)
            .write(to: URL(fileURLWithPath: dir + "/Rules/none.rules"))
    }

    private func seed() throws {
        let store = Store(path: dir + "/store", timeZone: Self.zone)
        store.synchronous = false
        let created = Timestamp(secondsSince1970: 1_577_858_400, utcOffsetSeconds: -21_600)  // 2020-01-01
        let hostile = MessageSummary(from: Address(name: "Shop <b>", address: "shop@example.test"),
                                     subject: "<script>alert(1)</script>\r\nBcc: evil@example.test",
                                     date: "2020-01-01T10:00:00-06:00", snippet: "Thank you for your order.")
        try store.put(QueueEntry(id: String(repeating: "3f2a", count: 8), queue: "rec", created: created,
                                 due: CivilDate(year: 2020, month: 1, day: 1), rule: "receipts", message: hostile))
        try store.put(QueueEntry(id: String(repeating: "3f2b", count: 8), queue: "rec", created: created,
                                 due: CivilDate(year: 2020, month: 1, day: 2), rule: "receipts",
                                 message: MessageSummary(from: Address(address: "billing@example.test"), subject: "Invoice", snippet: "")))
        try store.put(Reminder(id: String(repeating: "9b1c", count: 8), title: "Call the plumber",
                               due: CivilDate(year: 2020, month: 1, day: 14), created: created))
        try store.put(DigestEntry(id: String(repeating: "b6c8", count: 8), section: "FYI", created: created, rule: "news",
                                  message: MessageSummary(from: Address(name: "Müller", address: "news@example.test"),
                                                          subject: "Grüße aus Köln", snippet: "Hallo.")))
    }

    @discardableResult
    private func triage(_ args: String..., expect status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try TriageProcess.run(args + ["--config", dir + "/triage.conf"])
        XCTAssertEqual(result.status, status, "triage \(args.joined(separator: " ")): \(result.err)", file: file, line: line)
        return result.err
    }

    private func received() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir + "/smtpd/received")) ?? []).filter { $0.hasSuffix(".eml") }.sorted()
    }

    private func parse(_ path: String) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.parseEmail, path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    func testRunSendsTheDigestOnceThroughSTARTTLSAndAUTH() throws {
        try writeConfig()
        try seed()
        XCTAssertEqual(try triage("run"), "")
        XCTAssertEqual(received(), ["1.eml"])
        let rcpt = try String(contentsOfFile: dir + "/smtpd/received/1.rcpt", encoding: .utf8)
        XCTAssertEqual(rcpt, "me@example.test\n")

        let message = try parse(dir + "/smtpd/received/1.eml")
        let today = Timestamp.day(of: Date(), in: Self.zone)
        let subject = message["subject"] as? String ?? ""
        XCTAssertTrue(subject.hasPrefix("triage · "), subject)
        XCTAssertTrue(subject.hasSuffix(": 1 reminder, 2 to reconcile, 1 FYI"), subject)
        XCTAssertEqual((message["headers"] as? [String])?.filter { ["bcc", "cc"].contains($0.lowercased()) }, [])
        XCTAssertEqual((message["defects"] as? [String]) ?? ["?"], [])
        XCTAssertTrue((message["message_id"] as? String ?? "").contains("digest-"), "\(message["message_id"] ?? "")")
        let text = message["text"] as? String ?? ""
        let html = message["html"] as? String ?? ""
        for heading in ["Reminders · 1", "To reconcile · 2", "FYI · 1"] { XCTAssertTrue(text.contains(heading), heading) }
        XCTAssertTrue(text.contains("<script>alert(1)</script> Bcc: evil@example.test — overdue"), text)
        XCTAssertTrue(text.contains("Müller <news@example.test>"))
        XCTAssertTrue(text.contains("Grüße aus Köln"))
        XCTAssertFalse(html.contains("<script"))
        XCTAssertFalse(html.contains("<b>"))
        XCTAssertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; Bcc: evil@example.test"))
        XCTAssertTrue(html.contains("Shop &lt;b&gt;"))
        let store = Store(path: dir + "/store", timeZone: Self.zone)
        XCTAssertTrue(store.isDigestSent(today) || store.isDigestSent(today.adding(days: -1)))
        XCTAssertTrue(store.unreportedDigestEntries().records.isEmpty)

        // A second run the same day sends nothing.
        XCTAssertEqual(try triage("run"), "")
        XCTAssertEqual(received(), ["1.eml"])
    }

    func testRefusedAuthenticationExits75AndRecordsNothing() throws {
        try writeConfig(password: "wrong")
        try seed()
        let err = try triage("run", expect: 75)
        XCTAssertTrue(err.contains("not sent (step: authentication)"), err)
        XCTAssertFalse(err.contains("wrong"), "the password must not be printed: \(err)")
        XCTAssertEqual(received(), [])
        let store = Store(path: dir + "/store", timeZone: Self.zone)
        XCTAssertEqual(try store.digestSentDays(), [])
        XCTAssertEqual(store.unreportedDigestEntries().records.count, 1)
    }
}
