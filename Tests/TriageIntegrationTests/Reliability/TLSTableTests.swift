import Foundation
import TriageCurl
import XCTest

/// The TLS table of docs/RELIABILITY.md, for IMAP and SMTP alike on the same
/// certificates (Tests/Servers/tls-cases.sh): Dovecot serves each case on its own
/// loopback address, and the SMTP server (smtpd.py) on the same address with the
/// same certificate, both with implicit TLS and with STARTTLS.
///
/// Each case runs the real `triage`: `run` for IMAP and `digest --send` for SMTP.
/// A refusal must exit 75 with the reason and the server's name, and no credential
/// may reach the server: no LOGIN in the client's trace and no login attempt in
/// Dovecot's log; no AUTH command at the SMTP server. An accepted case must log in
/// and finish (exit 0): the control that the refusals are about the certificate.
///
/// Host names (a wildcard covers one label, not two; an IP-only certificate reached
/// by a name) need names that resolve to the cases' addresses: each run happens in
/// its own mount namespace (`unshare --mount`, the tests run as root) with a hosts
/// file bound over /etc/hosts, so the machine's own resolution is never touched.
final class TLSTableTests: XCTestCase {
    private var dovecot: DovecotServer!
    private var folder: TestFolder!

    /// One case of the table: the host triage is told, and what must happen.
    private struct Case {
        var name: String
        var host: String
        /// nil: accepted; otherwise words the refusal must contain.
        var refusal: String?
    }

    private let cases = [
        Case(name: "self-signed", host: "127.0.0.6", refusal: "issuer is unknown"),
        Case(name: "intermediate with CA:FALSE", host: "127.0.0.7", refusal: "issuer is not a CA"),
        Case(name: "intermediate not sent", host: "127.0.0.8", refusal: "issuer is unknown"),
        Case(name: "intermediate sent (control)", host: "127.0.0.9", refusal: nil),
        Case(name: "clientAuth-only key usage", host: "127.0.0.10", refusal: "not meant for a TLS server"),
        Case(name: "address as a DNS name", host: "127.0.0.11",
             refusal: "the certificate is for DNS:127.0.0.11, which does not match IP:127.0.0.11"),
        Case(name: "address as an IP entry, by address", host: "127.0.0.12", refusal: nil),
        Case(name: "address as an IP entry, by a name", host: "iponly.triage.test",
             refusal: "the certificate is for IP:127.0.0.12, which does not match DNS:iponly.triage.test"),
        Case(name: "wildcard, one label", host: "one.wild.triage.test", refusal: nil),
        Case(name: "wildcard, two labels", host: "two.one.wild.triage.test",
             refusal: "the certificate is for DNS:*.wild.triage.test, which does not match DNS:two.one.wild.triage.test"),
    ]

    /// The names the cases use, as the namespace's /etc/hosts gives them.
    private static let hosts = """
        127.0.0.1 localhost
        127.0.0.12 iponly.triage.test
        127.0.0.13 one.wild.triage.test two.one.wild.triage.test

        """

    /// The listener name (smtpd.py's `case:NAME:...`) serving each address.
    private static let smtpCase = [
        "127.0.0.6": "selfsigned", "127.0.0.7": "notca", "127.0.0.8": "nointermediate", "127.0.0.9": "intermediate",
        "127.0.0.10": "clientauth", "127.0.0.11": "ipasdns", "127.0.0.12": "iponly", "127.0.0.13": "wildcard",
    ]

    private nonisolated(unsafe) static var smtp: PythonTestServerProcess?
    private static let lock = NSLock()

    /// The SMTP server with the cases' listeners, on Dovecot's certificates.
    private static func smtpServer(_ dovecot: DovecotServer) throws -> PythonTestServerProcess {
        lock.lock()
        defer { lock.unlock() }
        if let smtp { return smtp }
        let server = try PythonTestServerProcess(script: "smtpd.py", arguments: [dovecot.directory + "/ssl"], environment: [
            "SMTPD_USER": SMTPTestServer.user, "SMTPD_PASSWORD": SMTPTestServer.password,
        ])
        smtp = server
        return server
    }

    override func setUpWithError() throws {
        dovecot = try DovecotServer.shared()
        folder = try TestFolder("tls-table", rules: "rule \"r\" when from:nobody.test then flag\n")
        try Self.hosts.write(toFile: folder.dir + "/hosts", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        folder?.remove()
    }

    /// Runs `triage ARGS --config CONFIG` in its own mount namespace with the cases' hosts file.
    private func triage(_ args: [String], environment: [String: String] = [:]) throws -> TriageProcess.Result {
        try TriageProcess.run(["--mount", "/bin/sh", "-c", "mount --bind \"$0\" /etc/hosts && exec \"$@\"",
                               folder.dir + "/hosts", TriageProcess.binary.path] + args + ["--config", folder.config],
                              environment: environment, executable: URL(fileURLWithPath: "/usr/bin/unshare"))
    }

    private func checkIMAP(_ item: Case, scheme: String, user: String) throws {
        let label = "IMAP \(scheme) \(item.name)"
        let port = scheme == "imaps" ? dovecot.imapsPort : dovecot.imapPort
        try folder.writeConfig([.triage(me: nil, timezone: nil), ConfigSection("account table", [
            "url": "\(scheme)://\(item.host):\(port)", "user": user, "password": DovecotServer.password,
            "ca_file": dovecot.caFile, "timeout": "5",
        ])])
        let logBefore = dovecot.log().utf8.count
        let run = try triage(["run", "--verbose"], environment: ["TRIAGE_TRACE": "1"])
        let serverLog = String(decoding: dovecot.log().utf8.dropFirst(logBefore), as: UTF8.self)
        let loginSent = run.err.contains("LOGIN \(user) ***")
        let loginSeen = serverLog.contains("user=<\(user)>")
        checkOutcome(item, label, run, untrusted: "\(item.host):\(port): the server's certificate is not trusted for \(item.host)",
                     control: "logs in: \(serverLog)", reached: [
                         "LOGIN was sent": loginSent, "the server saw a login attempt: \(serverLog)": loginSeen,
                     ])
    }

    private func checkSMTP(_ item: Case, scheme: String, smtp: PythonTestServerProcess) throws {
        let label = "SMTP \(scheme) \(item.name)"
        let address = try XCTUnwrap(Self.address(of: item.host))
        let listener = "case:\(try XCTUnwrap(Self.smtpCase[address])):\(scheme == "smtps" ? "smtps" : "starttls")"
        let port = smtp.int(listener)
        XCTAssertGreaterThan(port, 0, listener)
        try folder.writeConfig([.triage(me: nil), ConfigSection("digest", [
            "to": "Me <me@example.test>", "from": "triage <triage@example.test>", "smtp": "\(scheme)://\(item.host):\(port)",
            "user": SMTPTestServer.user, "password_command": "printf '%s' '\(SMTPTestServer.password)'",
            "ca_file": dovecot.caFile, "send_empty": "yes",
        ])])
        // Two cases share a listener (by address and by name): count what this run adds.
        let auths = {
            ((try? String(contentsOf: smtp.workDirectory.appendingPathComponent("auth.log"), encoding: .utf8)) ?? "")
                .split(separator: "\n").filter { $0 == listener }.count
        }
        let mails = {
            ((try? FileManager.default.contentsOfDirectory(atPath: smtp.string("mail"))) ?? [])
                .filter { $0.hasSuffix("-\(listener).eml") }.count
        }
        let (authsBefore, mailsBefore) = (auths(), mails())
        let run = try triage(["digest", "--send", "--force"])
        let authSeen = auths() > authsBefore
        let received = mails() > mailsBefore
        checkOutcome(item, label, run, untrusted: "TLS with the SMTP server \(item.host):\(port) failed: "
                                                  + "the server's certificate is not trusted for \(item.host)",
                     control: "authenticates and delivers", reached: [
                         "the server got an AUTH command": authSeen, "the server got the message": received,
                     ])
    }

    /// What every case checks of its run: no raw GnuTLS output; an accepted case exits 0
    /// and reached the server (`reached`, every one: the control); a refused case exits
    /// 75 with `untrusted` and the refusal's words, and reached nothing of `reached`.
    private func checkOutcome(_ item: Case, _ label: String, _ run: TriageProcess.Result, untrusted: String,
                              control: String, reached: KeyValuePairs<String, Bool>) {
        print("tls table \(label): exit \(run.status): \(run.err.split(separator: "\n").last ?? "")")
        XCTAssertFalse(run.err.contains("GnuTLS"), "\(label): raw GnuTLS output: \(run.err)")
        guard let refusal = item.refusal else {
            XCTAssertEqual(run.status, 0, "\(label): \(run.err)")
            XCTAssertTrue(reached.allSatisfy(\.value), "\(label): the control \(control): \(run.err)")
            return
        }
        XCTAssertEqual(run.status, 75, "\(label): \(run.err)")
        XCTAssertTrue(run.err.contains(untrusted), "\(label): \(run.err)")
        XCTAssertTrue(run.err.contains(refusal), "\(label): wants \"\(refusal)\": \(run.err)")
        for (what, seen) in reached { XCTAssertFalse(seen, "\(label): \(what): \(run.err)") }
    }

    private static func address(of host: String) -> String? {
        if smtpCase[host] != nil { return host }
        for line in hosts.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if words.dropFirst().contains(host) { return words.first }
        }
        return nil
    }

    func testIMAPOverImplicitTLS() throws {
        let user = try dovecot.makeUser("tls-table-imaps")
        for item in cases { try checkIMAP(item, scheme: "imaps", user: user) }
    }

    func testIMAPOverSTARTTLS() throws {
        let user = try dovecot.makeUser("tls-table-imap")
        for item in cases { try checkIMAP(item, scheme: "imap", user: user) }
    }

    func testSMTPOverImplicitTLS() throws {
        let smtp = try Self.smtpServer(dovecot)
        for item in cases { try checkSMTP(item, scheme: "smtps", smtp: smtp) }
    }

    func testSMTPOverSTARTTLS() throws {
        let smtp = try Self.smtpServer(dovecot)
        for item in cases { try checkSMTP(item, scheme: "smtp", smtp: smtp) }
    }

    /// Webhooks go through the same gate: an https endpoint with the clientAuth-only
    /// certificate is refused before the request is sent; with a serverAuth one from
    /// the same CA (the control), the request arrives.
    func testWebhookOverHTTPS() throws {
        let ssl = dovecot.directory + "/ssl"
        for (name, accepted) in [("clientauth", false), ("intermediate", true)] {
            let server = try PythonTestServerProcess(script: "httpd.py", arguments: ["\(ssl)/\(name).pem", "\(ssl)/\(name).key"])
            defer { server.stop() }
            let marker = UUID().uuidString
            let result = WebhookPoster(trust: TLSTrust(caFile: dovecot.caFile), timeout: 5)
                .post(url: "https://localhost:\(server.int("https"))/hook", json: #"{"m":"\#(marker)"}"#)
            let requests = (try? FileManager.default.contentsOfDirectory(atPath: server.string("requests"))) ?? []
            if accepted {
                XCTAssertEqual(result, .delivered(status: 200), name)
                XCTAssertEqual(requests.filter { $0.hasSuffix(".json") }.count, 1, name)
            } else {
                guard case .failed(let reason) = result else { return XCTFail("\(name): \(result)") }
                XCTAssertTrue(reason.contains("not meant for a TLS server"), reason)
                XCTAssertEqual(requests.filter { $0.hasSuffix(".json") }, [], "\(name): the request was sent")
            }
        }
    }
}
