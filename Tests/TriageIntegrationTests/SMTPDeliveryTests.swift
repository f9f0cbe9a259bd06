import Foundation
import TriageCore
import TriageCurl
import TriageTestSupport
import XCTest

/// SMTPSender against the real aiosmtpd server on loopback.
final class SMTPDeliveryTests: XCTestCase {
    private var server: SMTPTestServer!

    override func setUpWithError() throws {
        server = try SMTPTestServer.shared()
    }

    private let credentials = SMTPCredentials(user: SMTPTestServer.user, password: SMTPTestServer.password)

    private func composed(subject: String = "triage · Mon 30 Nov: 2 reminders, 3 to reconcile, 14 FYI",
                          to: String = "me@example.test") throws -> (ComposedMessage, OutgoingMail) {
        let id = "digest-\(UUID().uuidString.lowercased())@triage.example.test"
        let mail = OutgoingMail(
            from: Address(name: "Triage Bötchen", address: "triage@example.test"),
            to: [Address(name: "Me", address: to)],
            subject: subject,
            date: MessageDate(year: 2026, month: 11, day: 30, hour: 7, minute: 0, second: 0, utcOffsetSeconds: -21600),
            messageID: id,
            textBody: "Reminders\n• Pay rent — today\n.\n日本語\n" + String(repeating: "long text line ", count: 12) + "\n",
            htmlBody: "<html><body><p>\(HTMLEscaper.escape("<script>alert(1)</script>"))</p><p>日本語 🚀</p></body></html>\n",
            extraHeaders: [HeaderField("Auto-Submitted", "auto-generated")])
        return (try MIMEComposer().compose(mail), mail)
    }

    private func sender(_ security: SMTPSender.Security = .startTLS, port: Int? = nil,
                        credentials: SMTPCredentials? = nil, trust: TLSTrust? = nil) -> SMTPSender {
        SMTPSender(host: "localhost", port: port ?? (security == .startTLS ? server.starttlsPort : server.smtpsPort),
                   security: security, credentials: credentials ?? self.credentials,
                   trust: trust ?? TLSTrust(caFile: server.caFile), connectTimeout: 5, timeout: 15)
    }

    private func deliveryError(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> MailDeliveryError? {
        do {
            try body()
            XCTFail("delivery should have failed", file: file, line: line)
            return nil
        } catch let error as MailDeliveryError {
            return error
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
            return nil
        }
    }

    func testStartTLSWithAuthDeliversTheMessageIntact() throws {
        let subject = "Ré: <script>alert('x')</script> 日本語 🚀 \r\nBcc: evil@example.test"
        let (message, mail) = try composed(subject: subject)
        try sender().deliver(message)

        let files = server.received(containing: message.messageID)
        XCTAssertEqual(files.count, 1)
        let raw = try String(contentsOf: files[0], encoding: .utf8)
        XCTAssertTrue(raw.hasPrefix("X-Test-Envelope-From: triage@example.test\r\nX-Test-Envelope-To: me@example.test\r\n"
            + "X-Test-Listener: starttls\r\nX-Test-TLS: yes\r\nX-Test-Auth-User: \(SMTPTestServer.user)\r\n"), raw)
        XCTAssertTrue(raw.hasSuffix(message.text), "the server received different bytes")

        let parsed = try SMTPTestMailParser.parse(files[0])
        XCTAssertEqual(parsed.subject, "Ré: <script>alert('x')</script> 日本語 🚀   Bcc: evil@example.test")
        XCTAssertFalse(parsed.headers.map { $0.lowercased() }.contains("bcc"))
        XCTAssertEqual(parsed.from, [.init(name: "Triage Bötchen", address: "triage@example.test")])
        XCTAssertEqual(parsed.to, [.init(name: "Me", address: "me@example.test")])
        XCTAssertEqual(parsed.text?.replacingOccurrences(of: "\r\n", with: "\n"), mail.textBody)
        XCTAssertEqual(parsed.html?.replacingOccurrences(of: "\r\n", with: "\n"), mail.htmlBody)
        XCTAssertEqual(parsed.message_id, "<\(message.messageID)>")
        XCTAssertEqual(parsed.defects, [])
    }

    func testImplicitTLSDelivers() throws {
        let (message, _) = try composed()
        try sender(.implicitTLS).deliver(message)
        let files = server.received(containing: message.messageID)
        XCTAssertEqual(files.count, 1)
        let raw = try String(contentsOf: files[0], encoding: .utf8)
        XCTAssertTrue(raw.contains("X-Test-Listener: smtps\r\nX-Test-TLS: yes\r\nX-Test-Auth-User: \(SMTPTestServer.user)\r\n"))
    }

    func testFactoryBuildsTheSenderFromTheConfiguredURL() throws {
        let (message, _) = try composed()
        let endpoint = try DeliveryEndpoint(parsing: "smtp://localhost:\(server.starttlsPort)")
        let delivery = MailDeliveryFactory.make(endpoint, credentials: credentials, trust: TLSTrust(caFile: server.caFile))
        try delivery.deliver(message)
        XCTAssertEqual(server.received(containing: message.messageID).count, 1)
    }

    func testWrongPasswordIsAClearAuthenticationError() throws {
        let (message, _) = try composed()
        let wrong = SMTPCredentials(user: SMTPTestServer.user, password: "wrong-Pa55word")
        let error = deliveryError { try sender(credentials: wrong).deliver(message) }
        XCTAssertEqual(error?.step, .authentication)
        XCTAssertEqual(error?.exitStatus, .noPermission, "refused credentials are 77, like IMAP's")
        XCTAssertEqual(error?.server, "localhost:\(server.starttlsPort)")
        XCTAssertTrue(error?.message.contains("refused authentication as \(SMTPTestServer.user)") ?? false, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("localhost:\(server.starttlsPort)") ?? false)
        XCTAssertFalse(error?.message.contains("wrong-Pa55word") ?? true)
        XCTAssertEqual(server.received(containing: message.messageID), [])
    }

    func testUntrustedCertificateIsATLSErrorAndNothingIsSent() throws {
        let (message, _) = try composed()
        for security in [SMTPSender.Security.startTLS, .implicitTLS] {
            let error = deliveryError { try sender(security, trust: TLSTrust()).deliver(message) }
            XCTAssertEqual(error?.step, .tls, error?.message ?? "")
            XCTAssertEqual(error?.exitStatus, .tempFail)
            XCTAssertTrue(error?.message.contains("TLS with the SMTP server localhost:") ?? false, error?.message ?? "")
            XCTAssertFalse(error?.message.contains(SMTPTestServer.password) ?? true)
        }
        XCTAssertEqual(server.received(containing: message.messageID), [])
    }

    func testCertificateForAnotherHostNameIsRefused() throws {
        // Signed by the trusted test CA, but for mail.example.test, not localhost.
        let (message, _) = try composed()
        let error = deliveryError { try sender(.implicitTLS, port: server.wrongHostPort).deliver(message) }
        XCTAssertEqual(error?.step, .tls, error?.message ?? "")
        XCTAssertEqual(server.received(containing: message.messageID), [])
    }

    /// smtps:// on the STARTTLS port: a protocol mismatch (78) with the fix, not a trust problem.
    func testImplicitTLSOnASTARTTLSPortSaysToUseSMTP() throws {
        let (message, _) = try composed()
        let error = deliveryError { try sender(.implicitTLS, port: server.starttlsPort).deliver(message) }
        XCTAssertEqual(error?.step, .tlsMode, error?.message ?? "")
        XCTAssertEqual(error?.exitStatus, .config)
        XCTAssertTrue(error?.message.contains("answered in plain text") ?? false, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("use smtp://localhost:\(server.starttlsPort)") ?? false, error?.message ?? "")
        XCTAssertFalse(error?.message.contains("certificate") ?? true, error?.message ?? "")
        XCTAssertEqual(server.received(containing: message.messageID), [])
    }

    func testServerWithoutSTARTTLSIsRefused() throws {
        let (message, _) = try composed()
        let error = deliveryError { try sender(port: server.plainPort).deliver(message) }
        XCTAssertEqual(error?.step, .startTLS)
        XCTAssertTrue(error?.message.contains("does not offer STARTTLS") ?? false, error?.message ?? "")
        XCTAssertEqual(server.received(containing: message.messageID), [])
    }

    func testRefusedRecipientIsNamed() throws {
        let (message, _) = try composed(to: "nobody@refused.test")
        let error = deliveryError { try sender().deliver(message) }
        XCTAssertEqual(error?.step, .recipient)
        XCTAssertTrue(error?.message.contains("refused the recipient <nobody@refused.test>") ?? false, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("550") ?? false, error?.message ?? "")
        XCTAssertEqual(server.received(containing: message.messageID), [])
    }

    func testConnectionRefusedIsAConnectError() throws {
        let (message, _) = try composed()
        let port = try LoopbackSocket.closedPort()
        let error = deliveryError { try sender(port: port).deliver(message) }
        XCTAssertEqual(error?.step, .connect)
        XCTAssertEqual(error?.exitStatus, .tempFail)
        XCTAssertTrue(error?.message.contains("cannot connect to the SMTP server localhost:\(port)") ?? false, error?.message ?? "")
    }

    func testSilentServerTimesOut() throws {
        let (message, _) = try composed()
        // A socket that listens but never answers: the kernel completes the TCP handshake, no greeting comes.
        let listener = try LoopbackSocket()
        defer { listener.close() }
        XCTAssertEqual(listener.listen(), 0)
        let port = listener.port
        let silent = SMTPSender(host: "127.0.0.1", port: port, security: .startTLS, credentials: credentials,
                                trust: TLSTrust(caFile: server.caFile), connectTimeout: 1, timeout: 1)
        let start = Date()
        let error = deliveryError { try silent.deliver(message) }
        XCTAssertEqual(error?.step, .timeout, error?.message ?? "")
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    /// CAINFO must add to the system trust (CAPATH), not replace it. The test
    /// stands in for /etc/ssl/certs with a hashed folder holding the test CA.
    func testCAFileAddsToTheSystemTrust() throws {
        let cases: [(TLSTrust, Bool, String)] = [
            (TLSTrust(caFile: nil, systemCAPath: server.trustedDirectory), true, "system trust alone"),
            (TLSTrust(caFile: server.otherCAFile, systemCAPath: server.trustedDirectory), true, "system trust plus an unrelated ca_file"),
            (TLSTrust(caFile: server.caFile, systemCAPath: server.emptyDirectory), true, "ca_file alone"),
            (TLSTrust(caFile: server.otherCAFile, systemCAPath: server.emptyDirectory), false, "neither trusts the server"),
        ]
        for (trust, succeeds, label) in cases {
            let (message, _) = try composed()
            do {
                try sender(trust: trust).deliver(message)
                XCTAssertTrue(succeeds, "\(label): should have been refused")
                XCTAssertEqual(server.received(containing: message.messageID).count, 1, label)
            } catch let error as MailDeliveryError {
                XCTAssertFalse(succeeds, "\(label): \(error.message)")
                XCTAssertEqual(error.step, .tls, label)
            }
        }
    }

    func testUnreadableCAFileIsNamed() throws {
        let (message, _) = try composed()
        let error = deliveryError { try sender(trust: TLSTrust(caFile: "/nonexistent/ca.pem")).deliver(message) }
        XCTAssertEqual(error?.step, .tls)
        XCTAssertTrue(error?.message.contains("/nonexistent/ca.pem") ?? false)
    }
}
