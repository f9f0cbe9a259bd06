import CCurl
import TriageCore
@testable import TriageCurl
import XCTest

/// The SMTP adapter's pure parts: step tracking, error wording, redaction.
final class SMTPAdapterTests: XCTestCase {
    private func conversation(_ lines: [(curl_infotype, String)]) -> SMTPConversation {
        let c = SMTPConversation()
        for (type, text) in lines { c.observe(type, text) }
        return c
    }

    func testTracksTheStepAndIgnoresAuthData() {
        let c = conversation([
            (CURLINFO_TEXT, "Connected to localhost (127.0.0.1) port 2525 (#0)\n"),
            (CURLINFO_HEADER_IN, "220 localhost ESMTP\r\n"),
            (CURLINFO_HEADER_OUT, "EHLO client\r\n"),
            (CURLINFO_HEADER_OUT, "STARTTLS\r\n"),
            (CURLINFO_HEADER_OUT, "AUTH LOGIN\r\n"),
            (CURLINFO_HEADER_IN, "334 VXNlcm5hbWU6\r\n"),
            (CURLINFO_HEADER_OUT, "RATA\r\n"),  // Base64 login that looks like a verb: not a command
            (CURLINFO_HEADER_IN, "334 UGFzc3dvcmQ6\r\n"),
            (CURLINFO_HEADER_OUT, "DATA\r\n"),  // a password that reads "DATA" must not look like DATA
            (CURLINFO_HEADER_IN, "535 5.7.8 Authentication credentials invalid\r\n"),
            (CURLINFO_HEADER_OUT, "QUIT\r\n"),
            (CURLINFO_HEADER_IN, "221 Bye\r\n"),
        ])
        XCTAssertEqual(c.step, .authentication)
        XCTAssertEqual(c.lastReply, "535 5.7.8 Authentication credentials invalid")
        XCTAssertTrue(c.connected)
    }

    func testRecordsTheRefusedRecipient() {
        let c = conversation([
            (CURLINFO_TEXT, "Connected to x\n"),
            (CURLINFO_HEADER_OUT, "MAIL FROM:<a@x.test>\r\n"),
            (CURLINFO_HEADER_IN, "250 OK\r\n"),
            (CURLINFO_HEADER_OUT, "RCPT TO:<b@y.test>\r\n"),
            (CURLINFO_HEADER_IN, "550 5.1.1 no such user\r\n"),
        ])
        XCTAssertEqual(c.step, .recipient)
        XCTAssertEqual(c.lastRecipient, "b@y.test")
        let error = SMTPSender.error(code: CURLE_SEND_ERROR, curlMessage: "RCPT failed: 550", conversation: c,
                                     server: "smtp.example.test:587", user: "me", secret: "pw", sender: "a@x.test")
        XCTAssertEqual(error.step, .recipient)
        XCTAssertEqual(error.exitStatus, .tempFail)
        XCTAssertEqual(error.message, "the SMTP server smtp.example.test:587 refused the recipient <b@y.test> "
            + "(server said: 550 5.1.1 no such user). Check [digest] to. Nothing was sent; the next run retries.")
    }

    func testErrorsNeverContainThePassword() {
        let c = conversation([(CURLINFO_HEADER_IN, "535 bad password hunter2 for you\r\n")])
        let error = SMTPSender.error(code: CURLE_LOGIN_DENIED, curlMessage: "Login denied", conversation: c,
                                     server: "h:465", user: "me", secret: "hunter2", sender: "a@x.test")
        XCTAssertEqual(error.step, .authentication)
        XCTAssertEqual(error.exitStatus, .noPermission)
        XCTAssertFalse(error.message.contains("hunter2"), error.message)
        XCTAssertTrue(error.message.contains("as me"))
    }

    func testTLSReasonDropsTheMisleadingCAfileTail() {
        let error = SMTPSender.error(code: CURLE_PEER_FAILED_VERIFICATION,
                                     curlMessage: "server certificate verification failed. CAfile: none CRLfile: none",
                                     conversation: SMTPConversation(), server: "h:465", user: nil, secret: nil, sender: "a@x")
        XCTAssertEqual(error.step, .tls)
        XCTAssertTrue(error.message.hasPrefix("the TLS handshake with the SMTP server h:465 failed: server certificate verification failed. Check"),
                      error.message)
    }

    func testAPlainTextAnswerToTLSIsAProtocolMismatch() {
        let error = SMTPSender.error(code: CURLE_SSL_CONNECT_ERROR,
                                     curlMessage: "gnutls_handshake() failed: An unexpected TLS packet was received.",
                                     conversation: SMTPConversation(), server: "h:587", user: nil, secret: nil, sender: "a@x",
                                     implicitTLS: true)
        XCTAssertEqual(error.step, .tlsMode)
        XCTAssertEqual(error.exitStatus, .config)
        XCTAssertTrue(error.message.contains("use smtp://h:587"), error.message)
    }

    func testCredentialsNeverPrintThePassword() {
        let credentials = SMTPCredentials(user: "me@example.test", password: "hunter2")
        XCTAssertFalse("\(credentials)".contains("hunter2"))
        XCTAssertFalse(String(reflecting: credentials).contains("hunter2"))
        var dumped = ""
        dump(credentials, to: &dumped)
        XCTAssertFalse(dumped.contains("hunter2"), dumped)
    }

    func testURLsAndFactory() {
        XCTAssertEqual(SMTPSender(host: "::1", port: 25, security: .startTLS).url, "smtp://[::1]:25")
        XCTAssertEqual(SMTPSender(host: "mail.example.test", port: 465, security: .implicitTLS).url, "smtps://mail.example.test:465")
        XCTAssertTrue(MailDeliveryFactory.make(.directory(path: "/tmp/x")) is FileDelivery)
        let smtp = MailDeliveryFactory.make(.smtp(host: "h", port: 587)) as? SMTPSender
        XCTAssertEqual(smtp?.security, .startTLS)
        XCTAssertEqual((MailDeliveryFactory.make(.smtps(host: "h", port: 465)) as? SMTPSender)?.security, .implicitTLS)
        XCTAssertEqual((MailDeliveryFactory.make(.smtp(host: "h", port: 25), tlsOff: true) as? SMTPSender)?.security, .plain)
    }

    func testPlainSMTPIsRefusedForAHostNotOnLoopbackBeforeConnecting() throws {
        let mail = OutgoingMail(from: Address(address: "a@example.test"), to: [Address(address: "b@example.test")],
                                subject: "s", date: MessageDate(year: 2030, month: 1, day: 1, hour: 0, minute: 0, second: 0,
                                                                utcOffsetSeconds: 0),
                                messageID: "x@triage", textBody: "t")
        let message = try MIMEComposer().compose(mail)
        XCTAssertThrowsError(try SMTPSender(host: "mail.example.test", port: 25, security: .plain).deliver(message)) { error in
            XCTAssertEqual((error as? MailDeliveryError)?.exitStatus, .config)
        }
    }

    func testWebhookOriginHidesCredentialsAndPath() {
        XCTAssertEqual(WebhookPoster.origin(of: "https://user:tok@hooks.example.test:8443/services/T0/B0/secret?x=1"),
                       "https://hooks.example.test:8443")
        XCTAssertEqual(WebhookPoster.origin(of: "nonsense"), "(not a URL)")
    }

    func testWebhookErrorsHideTheUserPartAndPath() {
        let url = "https://user:tok@hooks.example.test/services/T0/secret"
        XCTAssertEqual(WebhookPoster.redacting("could not reach \(url)", url: url),
                       "could not reach https://***@hooks.example.test/…")
        // An empty user part hides nothing, and must not put *** between every character.
        XCTAssertEqual(WebhookPoster.redacting("no route to host", url: "http://@hooks.example.test/"),
                       "no route to host")
    }
}
