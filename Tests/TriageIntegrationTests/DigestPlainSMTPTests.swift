import Foundation
import TriageCore
import XCTest

/// `[digest] tls = off` (plain SMTP to a local MTA, loopback only) and the
/// `ca_file` fallback to an account on the same host, through the built binary
/// and the integration tests' aiosmtpd server (`SMTPTestServer`).
final class DigestPlainSMTPTests: XCTestCase {
    var dir = ""
    var server: SMTPTestServer!
    var recipient = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.path + "/triage-digest-plain-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        server = try SMTPTestServer.shared()
        XCTAssertGreaterThan(server.plainPort, 0, "the SMTP server did not start (is python3-aiosmtpd installed?)")
        recipient = "me-\(UUID().uuidString.prefix(8).lowercased())@example.test"
        let store = Store(path: dir + "/store", timeZone: TimeZone(identifier: "America/Chicago")!)
        store.synchronous = false
        try store.put(Reminder(id: String(repeating: "9b1c", count: 8), title: "Call the plumber",
                               due: CivilDate(year: 2020, month: 1, day: 14),
                               created: Timestamp(secondsSince1970: 1_577_858_400, utcOffsetSeconds: -21_600)))
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func send(_ digest: [String], account: String = "", date: String = "2030-01-15") throws -> TriageProcess.Result {
        try DigestTestConfig.write(in: dir, to: recipient, digest: digest)
        if !account.isEmpty {
            let path = dir + "/triage.conf"
            try Data(((try String(contentsOfFile: path, encoding: .utf8)) + account).utf8).write(to: URL(fileURLWithPath: path))
        }
        return try TriageProcess.run(["digest", "--send", "--date", date, "--config", dir + "/triage.conf"])
    }

    func testTLSOffSendsInPlainTextToLoopback() throws {
        let result = try send(["smtp = smtp://127.0.0.1:\(server.plainPort)", "tls = off"])
        XCTAssertEqual(result.status, 0, result.err)
        let mails = server.received(containing: recipient)
        XCTAssertEqual(mails.count, 1)
        let text = try String(contentsOf: mails[0], encoding: .utf8)
        XCTAssertTrue(text.contains("X-Test-Listener: plain"), text)
        XCTAssertTrue(text.contains("X-Test-TLS: no"), text)
    }

    func testWithoutTLSOffAServerWithoutSTARTTLSIsStillRefused() throws {
        let result = try send(["smtp = smtp://127.0.0.1:\(server.plainPort)"])
        XCTAssertEqual(result.status, 75, result.err)
        XCTAssertTrue(result.err.contains("does not offer STARTTLS"), result.err)
        XCTAssertEqual(server.received(containing: recipient), [])
    }

    func testTLSOffIsRefusedForAHostNotOnLoopback() throws {
        let result = try send(["smtp = smtp://mail.example.test", "tls = off"])
        XCTAssertEqual(result.status, 78, result.err)
        XCTAssertTrue(result.err.contains("tls = off is only allowed for a loopback host"), result.err)
        XCTAssertTrue(result.err.contains("mail.example.test"), result.err)
        let smtps = try send(["smtp = smtps://127.0.0.1:\(server.smtpsPort)", "tls = off"])
        XCTAssertEqual(smtps.status, 78, smtps.err)
        XCTAssertTrue(smtps.err.contains("tls = off goes only with smtp://localhost"), smtps.err)
    }

    func testDigestUsesTheCAFileOfAnAccountOnTheSameHost() throws {
        let credentials = ["user = \(SMTPTestServer.user)", "password_command = printf '%s' '\(SMTPTestServer.password)'"]
        let account = "\n[account home]\nurl = imaps://127.0.0.1:1\nuser = me\npassword_command = true\nca_file = \(server.caFile)\n"
        let result = try send(["smtp = smtp://127.0.0.1:\(server.starttlsPort)"] + credentials, account: account)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(server.received(containing: recipient).count, 1)
        // An account on another host lends nothing: the test CA is not trusted, TLS fails (75).
        let other = account.replacingOccurrences(of: "imaps://127.0.0.1:1", with: "imaps://mail.example.test")
        let refused = try send(["smtp = smtp://127.0.0.1:\(server.starttlsPort)"] + credentials, account: other, date: "2030-01-16")
        XCTAssertEqual(refused.status, 75, refused.err)
    }
}
