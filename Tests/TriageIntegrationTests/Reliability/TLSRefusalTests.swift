import Foundation
import TriageCore
import TriageIMAP
import XCTest

/// TLS refusals not covered in IMAPSecurityTests: an expired certificate and a
/// server that offers no STARTTLS on `imap://`. Each is refused before any
/// credential is sent, with the reason, by the connection and by `triage run`.
final class TLSRefusalTests: XCTestCase {
    private var server: DovecotServer!

    override func setUpWithError() throws {
        server = try DovecotServer.shared()
    }

    func testExpiredCertificateIsRefusedBeforeLogin() throws {
        let user = try server.makeUser("expired")
        let trace = TraceRecorder()
        // 127.0.0.5 presents a test-CA certificate for its address that expired.
        XCTAssertThrowsError(try IMAPConnection.connect(server.settings(user: user, host: "127.0.0.5", trace: trace))) { error in
            let mailError = error as? MailError
            XCTAssertEqual(mailError?.kind, .tls, "\(error)")
            XCTAssertEqual(mailError?.exitStatus, .tempFail)
            XCTAssertTrue(mailError?.message.contains("expired") ?? false, "\(error)")
            XCTAssertTrue(mailError?.message.hasPrefix("127.0.0.5:") ?? false, "\(error)")
        }
        XCTAssertFalse(trace.lines.contains { $0.hasPrefix("C: ") && $0.contains(" LOGIN ") }, trace.text)
        XCTAssertFalse(server.log().contains("user=<\(user)>"), "the server saw a login attempt")

        // The same through `triage run` (over STARTTLS this time).
        let box = try TestFolder("expired", rules: "rule \"r\" when from:x.test then flag\n")
        defer { box.remove() }
        try box.writeConfig([.triage(me: nil, timezone: nil), ConfigSection("account expired", [
            "url": "imap://127.0.0.5:\(server.imapPort)", "user": user,
            "password": DovecotServer.password, "ca_file": server.caFile,
        ])])
        let run = try box.triage(["run"])
        XCTAssertEqual(run.status, 75, run.err)
        XCTAssertTrue(run.err.contains("127.0.0.5:\(server.imapPort)") && run.err.contains("expired"), run.err)
        XCTAssertFalse(server.log().contains("user=<\(user)>"), "the server saw a login attempt")
    }

    func testServerWithoutSTARTTLSIsRefusedBeforeLogin() throws {
        let fake = try FakeIMAPServer(.nostarttls, dovecot: server)
        defer { fake.stop() }
        let box = try TestFolder("nostarttls", rules: "rule \"r\" when from:x.test then flag\n")
        defer { box.remove() }
        try box.writeConfig([.triage(me: nil, timezone: nil), ConfigSection("account plain", [
            "url": "imap://localhost:\(fake.port)", "user": "me@example.test",
            "password_command": "echo never-sent-pw",
        ])])
        let run = try box.triage(["run"])
        XCTAssertEqual(run.status, 75, run.err)
        XCTAssertTrue(run.err.contains("localhost:\(fake.port)") && run.err.contains("does not offer STARTTLS"), run.err)
        XCTAssertFalse(fake.commands.contains { $0.contains("LOGIN") || $0.contains("AUTHENTICATE") }, "\(fake.commands)")
        XCTAssertTrue(fake.commands.contains { $0.hasSuffix("CAPABILITY") }, "the control: it did talk: \(fake.commands)")
    }

    /// imaps:// on the STARTTLS port through `triage run`: exit 78 with the fix, and
    /// nothing of GnuTLS's own ("GnuTLS error: An unexpected TLS packet was
    /// received.", printed by libetpan through gnutls_perror) on standard error.
    func testWrongPortIsAConfigurationErrorWithoutRawGnuTLSOutput() throws {
        let box = try TestFolder("wrongport", rules: "rule \"r\" when from:x.test then flag\n")
        defer { box.remove() }
        let user = try server.makeUser("wrongport")
        try box.writeConfig([.triage(me: nil, timezone: nil), ConfigSection("account wrongport", [
            "url": "imaps://localhost:\(server.imapPort)", "user": user,
            "password": DovecotServer.password, "ca_file": server.caFile,
        ])])
        let run = try box.triage(["run"])
        XCTAssertEqual(run.status, 78, run.err)
        XCTAssertTrue(run.err.contains("localhost:\(server.imapPort): port \(server.imapPort) greets in plain text"), run.err)
        XCTAssertFalse(run.err.contains("GnuTLS"), run.err)
        XCTAssertEqual(run.err.split(separator: "\n").count, 1, run.err)
    }
}
