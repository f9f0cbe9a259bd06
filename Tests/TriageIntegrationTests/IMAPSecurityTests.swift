import Foundation
import TriageCore
import TriageIMAP
import TriageTestSupport
import XCTest

/// TLS verification, STARTTLS, credentials and error codes of `IMAPConnection`
/// against a real Dovecot on loopback.
final class IMAPSecurityTests: XCTestCase {
    private var server: DovecotServer!

    override func setUpWithError() throws {
        server = try DovecotServer.shared()
    }

    /// Whether the client sent a LOGIN command (not just saw `AUTH=LOGIN` advertised).
    private func sentLogin(_ trace: TraceRecorder) -> Bool {
        trace.lines.contains { $0.hasPrefix("C: ") && $0.contains(" LOGIN ") }
    }

    private func expectFailure(_ settings: IMAPSettings, kind: MailError.Kind, status: ExitStatus,
                               file: StaticString = #filePath, line: UInt = #line) -> MailError? {
        do {
            let connection = try IMAPConnection.connect(settings)
            connection.close()
            XCTFail("connected, expected \(kind)", file: file, line: line)
            return nil
        } catch let error as MailError {
            XCTAssertEqual(error.kind, kind, error.message, file: file, line: line)
            XCTAssertEqual(error.exitStatus, status, file: file, line: line)
            XCTAssertTrue(error.message.hasPrefix(settings.url.serverName + ": "), error.message, file: file, line: line)
            return error
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
            return nil
        }
    }

    func testVerifiedImapsLogsInAndTraceHidesThePassword() throws {
        let user = try server.makeUser("tls")
        let trace = TraceRecorder()
        let connection = try IMAPConnection.connect(server.settings(user: user, trace: trace))
        defer { connection.close() }
        XCTAssertTrue(connection.isEncrypted)
        _ = try connection.open("INBOX", readOnly: true)
        // The test CA is the ca_file: the system trust store is not needed, so not read.
        XCTAssertTrue(trace.text.contains("certificate verified for localhost against ca_file alone"), trace.text)
        XCTAssertTrue(trace.lines.contains { $0.hasSuffix("LOGIN \(user) ***") }, trace.text)
        XCTAssertFalse(trace.text.contains(DovecotServer.password), "the password leaked into the trace")
        XCTAssertTrue(trace.text.contains("EXAMINE INBOX"), trace.text)
    }

    func testCertificateFromUnknownCAIsRefusedBeforeLogin() throws {
        let user = try server.makeUser("rogue")
        let trace = TraceRecorder()
        // 127.0.0.3 presents a certificate for its own address from a CA nobody trusts.
        let error = expectFailure(server.settings(user: user, host: "127.0.0.3", trace: trace), kind: .tls, status: .tempFail)
        XCTAssertTrue(error?.message.contains("issuer is unknown") ?? false, error?.message ?? "")
        XCTAssertFalse(sentLogin(trace), "a credential was sent: \(trace.text)")
        XCTAssertFalse(server.log().contains("user=<\(user)>"), "the server saw a login attempt")
    }

    func testCertificateForAnotherHostNameIsRefusedBeforeLogin() throws {
        let user = try server.makeUser("wronghost")
        let trace = TraceRecorder()
        // 127.0.0.2 presents a test-CA certificate for wrong.example.test.
        let error = expectFailure(server.settings(user: user, host: "127.0.0.2", trace: trace), kind: .tls, status: .tempFail)
        XCTAssertTrue(error?.message.contains("does not match") ?? false, error?.message ?? "")
        XCTAssertFalse(sentLogin(trace), "a credential was sent: \(trace.text)")
        XCTAssertFalse(server.log().contains("user=<\(user)>"), "the server saw a login attempt")
    }

    func testTestCAIsNotTrustedWithoutCAFile() throws {
        let user = try server.makeUser("noca")
        let error = expectFailure(server.settings(user: user, caFile: .some(nil)), kind: .tls, status: .tempFail)
        XCTAssertTrue(error?.message.contains("ca_file") ?? false, error?.message ?? "")
    }

    func testUnreadableCAFileIsAConfigurationError() throws {
        let user = try server.makeUser("badca")
        _ = expectFailure(server.settings(user: user, caFile: "/nonexistent/ca.pem"), kind: .configuration, status: .config)
    }

    func testWrongPasswordExits77() throws {
        let user = try server.makeUser("badpass")
        let trace = TraceRecorder()
        let error = expectFailure(server.settings(user: user, password: "not-the-password", trace: trace),
                                  kind: .authentication, status: .noPermission)
        XCTAssertTrue(error?.message.contains(user) ?? false, error?.message ?? "")
        XCTAssertFalse(error?.message.contains("not-the-password") ?? true)
        XCTAssertFalse(trace.text.contains("not-the-password"))
    }

    func testStartTLSUpgradesVerifiesAndLogsIn() throws {
        let user = try server.makeUser("starttls")
        try server.seed(user: user, TestMessages.plain(id: "s1"))
        let trace = TraceRecorder()
        let connection = try IMAPConnection.connect(server.settings(user: user, scheme: .imap, trace: trace))
        defer { connection.close() }
        XCTAssertTrue(connection.isEncrypted)
        XCTAssertEqual(try connection.open("INBOX", readOnly: true).exists, 1)
        let lines = trace.lines
        let starttls = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("C: ") && $0.hasSuffix("STARTTLS") }, trace.text)
        let verified = try XCTUnwrap(lines.firstIndex { $0.contains("certificate verified") }, trace.text)
        let login = try XCTUnwrap(lines.firstIndex { $0.contains("LOGIN \(user) ***") }, trace.text)
        XCTAssertLessThan(starttls, verified)
        XCTAssertLessThan(verified, login)
        XCTAssertFalse(trace.text.contains(DovecotServer.password))
    }

    func testStartTLSWithUnknownCAIsRefusedBeforeLogin() throws {
        let user = try server.makeUser("starttls-rogue")
        let trace = TraceRecorder()
        let error = expectFailure(server.settings(user: user, host: "127.0.0.3", scheme: .imap, trace: trace),
                                  kind: .tls, status: .tempFail)
        XCTAssertTrue(error?.message.contains("issuer is unknown") ?? false, error?.message ?? "")
        XCTAssertFalse(sentLogin(trace), trace.text)
    }

    func testPlainIMAPOnlyWithTLSOffAndOnlyToLoopback() throws {
        let user = try server.makeUser("plain")
        var settings = server.settings(user: user, scheme: .imap)
        settings.tlsOff = true
        let connection = try IMAPConnection.connect(settings)
        XCTAssertFalse(connection.isEncrypted)
        XCTAssertEqual(try connection.open("INBOX", readOnly: true).exists, 0)
        connection.close()

        var remote = settings
        remote.url = MailServerURL(scheme: .imap, host: "imap.example.test", port: server.imapPort)
        let error = expectFailure(remote, kind: .configuration, status: .config)
        XCTAssertTrue(error?.message.contains("loopback") ?? false, error?.message ?? "")
    }

    func testNothingListeningExits75() throws {
        for scheme in [MailServerURL.Scheme.imaps, .imap] {
            var settings = server.settings(user: "me@example.test")
            settings.url = MailServerURL(scheme: scheme, host: "127.0.0.1", port: 1)
            let error = expectFailure(settings, kind: .connect, status: .tempFail)
            XCTAssertTrue(error?.message.hasPrefix("127.0.0.1:1: nothing accepts connections on port 1 (Connection refused)") ?? false,
                          error?.message ?? "")
        }
    }

    /// An unknown host and a closed port are different mistakes, told apart.
    func testUnknownHostIsNotAClosedPort() throws {
        for scheme in [MailServerURL.Scheme.imaps, .imap] {
            var settings = server.settings(user: "me@example.test")
            settings.url = MailServerURL(scheme: scheme, host: "no-such-host.invalid", port: 993)
            let error = expectFailure(settings, kind: .connect, status: .tempFail)
            XCTAssertTrue(error?.message.contains("cannot resolve the host name no-such-host.invalid") ?? false, error?.message ?? "")
            XCTAssertFalse(error?.message.contains("port") ?? true, error?.message ?? "")
        }
    }

    /// imaps:// on a STARTTLS port: a protocol mismatch, said so, with the fix.
    func testTLSOnAPlainPortSaysToUseIMAP() throws {
        var settings = server.settings(user: "me@example.test")
        settings.url = MailServerURL(scheme: .imaps, host: "localhost", port: server.imapPort)
        let error = expectFailure(settings, kind: .configuration, status: .config)
        XCTAssertTrue(error?.message.contains("greets in plain text") ?? false, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("use imap://localhost:\(server.imapPort)") ?? false, error?.message ?? "")
    }

    /// imap:// on an implicit-TLS port: said so after a few seconds, not after the
    /// 30-second connect timeout.
    func testPlainIMAPOnATLSPortSaysToUseIMAPS() throws {
        var settings = server.settings(user: "me@example.test")
        settings.url = MailServerURL(scheme: .imap, host: "localhost", port: server.imapsPort)
        settings.connectTimeout = 30
        let started = Date()
        let error = expectFailure(settings, kind: .configuration, status: .config)
        XCTAssertLessThan(Date().timeIntervalSince(started), IMAPConnection.greetingGrace + 3)
        XCTAssertTrue(error?.message.contains("expects TLS from the first byte") ?? false, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("use imaps://localhost:\(server.imapsPort)") ?? false, error?.message ?? "")
    }
}
