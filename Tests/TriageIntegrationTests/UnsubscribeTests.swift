import Foundation
import TriageCore
import TriageCurl
import TriageTestSupport
import XCTest

/// Unsubscribing for real: RFC 8058 one-click against the loopback HTTPS server
/// (Tests/Servers/httpd.py with the suite's test CA), the `mailto:` fallback
/// through the SMTP test server (aiosmtpd, STARTTLS and AUTH) read back with
/// Python's `email`, and `triage unsubscribe --dry-run`.
final class UnsubscribeTests: XCTestCase {
    static let zone = TimeZone(identifier: "America/Chicago")!
    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.path + "/triage-unsubscribe-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: dir)
    }

    func marker() -> String { "u" + UUID().uuidString.prefix(12).lowercased() }

    func poster(timeout: Double = 5, max: Int = 64 << 10) throws -> OneClickUnsubscribe {
        OneClickUnsubscribe(trust: TLSTrust(caFile: try SMTPTestServer.shared().caFile), timeout: timeout, maxResponseBytes: max)
    }

    // MARK: - One-click

    func testOneClickPostsTheRFC8058BodyWithNoCookiesOrCredentials() throws {
        let server = try WebhookTestServer.shared()
        let mark = marker()
        let outcome = try poster().post("https://localhost:\(server.httpsPort)/unsub/\(mark)?list=weekly")
        XCTAssertEqual(outcome, .answered(200))
        let requests = try server.requests(pathContaining: mark)
        XCTAssertEqual(requests.count, 1)
        let r = try XCTUnwrap(requests.first)
        XCTAssertEqual(r.body, "List-Unsubscribe=One-Click")
        XCTAssertEqual(r.headers["content-type"], "application/x-www-form-urlencoded")
        XCTAssertNil(r.headers["cookie"])
        XCTAssertNil(r.headers["authorization"])
        XCTAssertEqual(r.path, "/unsub/\(mark)?list=weekly")
    }

    func testARedirectIsNotFollowedAndItsCookieNeverSent() throws {
        let server = try WebhookTestServer.shared()
        let mark = marker()
        XCTAssertEqual(try poster().post("https://localhost:\(server.httpsPort)/redirect/\(mark)"), .answered(302))
        let requests = try server.requests(pathContaining: mark)
        XCTAssertEqual(requests.map(\.path), ["/redirect/\(mark)"], "only the first request: the Location was not followed")
        XCTAssertNil(requests.first?.headers["cookie"])
    }

    func testPlainHTTPIsRefusedBeforeAnythingIsSent() throws {
        let server = try WebhookTestServer.shared()
        let mark = marker()
        guard case .refused(let reason) = try poster().post("http://127.0.0.1:\(server.httpPort)/unsub/\(mark)") else {
            return XCTFail("http:// was not refused")
        }
        XCTAssertTrue(reason.contains("https://"), reason)
        XCTAssertEqual(try server.requests(pathContaining: mark).count, 0)
    }

    func testAnOversizeOrSlowAnswerIsBounded() throws {
        let server = try WebhookTestServer.shared()
        guard case .failed(let big) = try poster(max: 1024).post("https://localhost:\(server.httpsPort)/big/200000/\(marker())") else {
            return XCTFail("an answer beyond the limit was read")
        }
        XCTAssertTrue(big.contains("larger than 1024 bytes"), big)
        let start = Date()
        guard case .failed(let slow) = try poster(timeout: 2).post("https://localhost:\(server.httpsPort)/stall/30/\(marker())") else {
            return XCTFail("a stalled server was waited for")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
        XCTAssertTrue(slow.contains("timed out"), slow)
    }

    func testAnUntrustedCertificateIsRefused() throws {
        let server = try WebhookTestServer.shared()
        let mark = marker()
        guard case .failed(let reason) = OneClickUnsubscribe(timeout: 5).post("https://localhost:\(server.httpsPort)/unsub/\(mark)") else {
            return XCTFail("an unknown CA was accepted")
        }
        XCTAssertTrue(reason.contains("TLS"), reason)
        XCTAssertEqual(try server.requests(pathContaining: mark).count, 0)
    }

    // MARK: - The command

    /// A store with one Newsletters entry of `offer`, id 5b0e….
    func seed(_ offer: UnsubscribeOffer) throws -> String {
        let store = Store(path: dir + "/store", timeZone: Self.zone)
        store.synchronous = false
        var summary = MessageSummary(from: Address(name: "News", address: "letters@news.example"), subject: "This week",
                                     date: "2030-01-15T07:00:00-06:00", messageID: "week-3@news.example", account: "home",
                                     mailbox: "INBOX", uid: 7, snippet: "Hello.", list: "weekly.news.example")
        summary.unsubscribe = offer
        let id = "5b0e" + String(repeating: "0", count: 27) + "1"
        try store.put(DigestEntry(id: id, section: "Newsletters", created: Timestamp(secondsSince1970: 1_894_698_000, utcOffsetSeconds: -21_600),
                                  rule: "news", message: summary))
        return id
    }

    func triage(_ args: [String], expect status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> TriageProcess.Result {
        let result = try TriageProcess.run(args + ["--config", dir + "/triage.conf"])
        XCTAssertEqual(result.status, status, "triage \(args.joined(separator: " ")): \(result.err)", file: file, line: line)
        return result
    }

    func testDryRunSaysWhatItWouldDoAndChangesNothing() throws {
        try DigestTestConfig.write(in: dir, digest: ["smtp = file:\(dir)/out"])
        let server = try WebhookTestServer.shared()
        let mark = marker()
        _ = try seed(UnsubscribeOffer(https: "https://localhost:\(server.httpsPort)/unsub/\(mark)", mailto: "mailto:leave@news.example",
                                      oneClick: true, dkimPass: true, dkim: "pass: d=news.example signed both fields (mx.example.net)"))
        let result = try triage(["unsubscribe", "5b0e", "--dry-run"])
        XCTAssertTrue(result.out.contains("unsubscribe from weekly.news.example: would POST List-Unsubscribe=One-Click to https://localhost:"),
                      result.out)
        // By Message-ID too, with brackets.
        XCTAssertTrue(try triage(["unsubscribe", "<week-3@news.example>", "--dry-run"]).out.contains("would POST"))
        XCTAssertEqual(try server.requests(pathContaining: mark).count, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/store/unsubscribe"))
        // An id that names nothing.
        _ = try triage(["unsubscribe", "ffff", "--dry-run"], expect: 65)
    }

    func testTheMailtoFallbackGoesThroughTheDigestsSMTP() throws {
        let smtp = try SMTPTestServer.shared()
        let recipient = "me-\(UUID().uuidString.prefix(8).lowercased())@example.test"
        try DigestTestConfig.write(in: dir, to: recipient, digest: [
            "smtp = smtp://127.0.0.1:\(smtp.starttlsPort)", "user = \(SMTPTestServer.user)",
            "password_command = printf '%s' '\(SMTPTestServer.password)'", "ca_file = \(smtp.caFile)",
        ])
        let mark = marker()
        // One-click offered but not vouched for: the mailto is used, never the POST.
        let id = try seed(UnsubscribeOffer(https: "https://localhost:1/unsub/\(mark)",
                                           mailto: "mailto:leave-\(mark)@news.example?subject=unsubscribe%20\(mark)&body=please%20remove&bcc=evil@x.example",
                                           oneClick: true, dkimPass: false, dkim: "no authserv_id"))
        let dry = try triage(["unsubscribe", "5b0e", "--dry-run"])
        XCTAssertTrue(dry.out.contains("would send a message to leave-\(mark)@news.example"), dry.out)
        let result = try triage(["unsubscribe", "5b0e", "--now", "2030-01-15T09:00"])
        XCTAssertTrue(result.out.contains("unsubscribed from weekly.news.example by mailto: sent to leave-\(mark)@news.example"), result.out + result.err)

        let files = smtp.received(containing: mark)
        XCTAssertEqual(files.count, 1)
        let file = try XCTUnwrap(files.first)
        // Read by Python's email package, as a mail program would.
        let script = """
        import email, email.policy, sys
        m = email.message_from_binary_file(open(sys.argv[1], 'rb'), policy=email.policy.default)
        print(m['To']); print(m['From']); print(m['Subject']); print(m['Bcc']); print(m['Auto-Submitted']); print(m.get_content().strip())
        """
        let out = dir + "/parsed.txt"
        XCTAssertEqual(try Spawn.runCapturing(["/usr/bin/python3", "-c", script, file.path], output: out), 0)
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines, ["leave-\(mark)@news.example", recipient, "unsubscribe \(mark)", "None", "auto-generated", "please remove"])

        // Recorded (list, method, answer), and the next digest says so.
        let store = try Store.open(path: dir + "/store", timeZone: Self.zone)
        let record = try XCTUnwrap(try store.record(UnsubscribeRecord.self, id: id))
        XCTAssertEqual(record.statusFolder, "done")
        XCTAssertEqual(record.method, .mailto)
        XCTAssertEqual(record.via, "command")
        XCTAssertTrue(record.succeeded)
        let preview = try triage(["digest", "--preview", "--text", "--now", "2030-01-15T09:00"])
        XCTAssertTrue(preview.out.contains("Unsubscribed from weekly.news.example"), preview.out)
        // A second time: already done, nothing sent.
        XCTAssertTrue(try triage(["unsubscribe", "5b0e"]).out.hasPrefix("already done"))
        XCTAssertEqual(smtp.received(containing: mark).count, 1)
    }
}
