import Foundation
import TriageCore
import TriageTestSupport
import XCTest

/// The digest after `triage run`, received by the integration tests' SMTP
/// server on loopback (`SMTPTestServer`, Tests/Servers/smtpd.py, Debian's
/// python3-aiosmtpd) on its listener that requires STARTTLS with a certificate
/// from a test CA, and AUTH.
final class DigestSMTPTests: XCTestCase {
    static let zone = TimeZone(identifier: "America/Chicago")!

    var dir = ""
    var server: SMTPTestServer!
    /// This test's own envelope recipient: the server is shared, so it tells this test's mail apart.
    var recipient = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.path + "/triage-digest-smtp-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir + "/Rules", withIntermediateDirectories: true)
        server = try SMTPTestServer.shared()
        XCTAssertGreaterThan(server.starttlsPort, 0, "the SMTP server did not start (is python3-aiosmtpd installed? scripts/install-deps --test)")
        recipient = "me-\(UUID().uuidString.prefix(8).lowercased())@example.test"
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func writeConfig(password: String = SMTPTestServer.password) throws {
        try DigestTestConfig.write(in: dir, to: recipient, digest: [
            "smtp = smtp://127.0.0.1:\(server.starttlsPort)",
            "user = \(SMTPTestServer.user)",
            "password_command = printf '%s' '\(password)'",
            "ca_file = \(server.caFile)",
        ])
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

    /// The messages the server received for this test's recipient.
    private func received() -> [URL] {
        server.received(containing: recipient)
    }

    /// The envelope recipients the server recorded for a received message.
    private func envelopeRecipients(_ url: URL) throws -> String? {
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.components(separatedBy: "\r\n").first { $0.hasPrefix("X-Test-Envelope-To: ") }?
            .dropFirst("X-Test-Envelope-To: ".count).description
    }

    func testRunSendsTheDigestOnceThroughSTARTTLSAndAUTH() throws {
        try writeConfig()
        try seed()
        // At a pinned moment (a Tuesday), so the day the digest is for is known exactly.
        let now = "2030-01-15T08:00"
        XCTAssertEqual(try triage("run", "--now", now), "")
        let mails = received()
        XCTAssertEqual(mails.count, 1)
        guard let mail = mails.first else { return }
        XCTAssertEqual(try envelopeRecipients(mail), recipient)

        let message = try SMTPTestMailParser.parse(mail)
        XCTAssertEqual(message.subject, "triage · Tue 15 Jan: 1 reminder, 2 to reconcile, 1 FYI")
        XCTAssertEqual(message.headers.filter { ["bcc", "cc"].contains($0.lowercased()) }, [])
        XCTAssertEqual(message.defects, [])
        XCTAssertTrue((message.message_id ?? "").contains("digest-"), "\(message.message_id ?? "")")
        let text = message.text ?? ""
        let html = message.html ?? ""
        for heading in ["Reminders · 1", "To reconcile · 2", "FYI · 1"] { XCTAssertTrue(text.contains(heading), heading) }
        XCTAssertTrue(text.contains("<script>alert(1)</script> Bcc: evil@example.test — overdue"), text)
        XCTAssertTrue(text.contains("Müller · Grüße aus Köln"), text)
        XCTAssertTrue(text.contains("Grüße aus Köln"))
        XCTAssertFalse(html.contains("<script"))
        XCTAssertFalse(html.contains("<b>"))
        XCTAssertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; Bcc: evil@example.test"))
        XCTAssertTrue(html.contains("Shop &lt;b&gt;"))
        let store = Store(path: dir + "/store", timeZone: Self.zone)
        XCTAssertEqual(try store.digestLedger.sentDays(), [CivilDate(year: 2030, month: 1, day: 15)])
        XCTAssertTrue(store.unreportedDigestEntries().records.isEmpty)

        // A second run the same day sends nothing.
        XCTAssertEqual(try triage("run", "--now", "2030-01-15T23:59"), "")
        XCTAssertEqual(received(), mails)
    }

    func testRefusedAuthenticationExits77AndRecordsNothing() throws {
        try writeConfig(password: "wrong")
        try seed()
        // 77 like IMAP: 75 would have cron retry a wrong password forever.
        let err = try triage("run", expect: 77)
        XCTAssertTrue(err.contains("not sent (step: authentication)"), err)
        XCTAssertFalse(err.contains("wrong"), "the password must not be printed: \(err)")
        XCTAssertEqual(received(), [])
        let store = Store(path: dir + "/store", timeZone: Self.zone)
        XCTAssertEqual(try store.digestLedger.sentDays(), [])
        XCTAssertEqual(store.unreportedDigestEntries().records.count, 1)
    }
}
