import Foundation

/// The loopback SMTP server of the integration tests (Tests/Servers/smtpd.py,
/// aiosmtpd): started once per test run, on first use, with a test CA made
/// at start.
///
/// Listeners: `starttlsPort` (STARTTLS required, AUTH after TLS), `smtpsPort`
/// (implicit TLS, AUTH), `wrongHostPort` (implicit TLS, certificate for
/// another host name), `plainPort` (no STARTTLS). Received messages are
/// `.eml` files in `mailDirectory`, each starting with `X-Test-*` header lines
/// that record the envelope, the listener, TLS and the authenticated user.
final class SMTPTestServer: @unchecked Sendable {
    /// The test login the server accepts.
    static let user = "triage-tester"
    /// The test password the server accepts.
    static let password = "s3cret-Päss word"

    /// The server of this test run, started on first use.
    static func shared() throws -> SMTPTestServer {
        lock.lock()
        defer { lock.unlock() }
        if let server = instance { return server }
        let server = try SMTPTestServer()
        instance = server
        return server
    }

    private nonisolated(unsafe) static var instance: SMTPTestServer?
    private static let lock = NSLock()

    private let process: PythonTestServerProcess

    private init() throws {
        process = try PythonTestServerProcess(script: "smtpd.py", environment: [
            "SMTPD_USER": Self.user, "SMTPD_PASSWORD": Self.password,
        ])
    }

    /// STARTTLS listener.
    var starttlsPort: Int { process.int("starttls") }
    /// Implicit-TLS listener.
    var smtpsPort: Int { process.int("smtps") }
    /// Implicit-TLS listener whose certificate names mail.example.test only.
    var wrongHostPort: Int { process.int("wronghost") }
    /// Listener without STARTTLS.
    var plainPort: Int { process.int("plain") }
    /// The PEM of the CA that signed the server certificate (`localhost`, `127.0.0.1`).
    var caFile: String { process.string("ca") }
    /// A CA that signed nothing here.
    var otherCAFile: String { process.string("other_ca") }
    /// A hashed certificate folder (like /etc/ssl/certs) holding only the test CA.
    var trustedDirectory: String { process.string("trusted_dir") }
    /// An empty certificate folder.
    var emptyDirectory: String { process.string("empty_dir") }
    /// The server certificate and key, for other test servers.
    var serverCertificate: String { process.string("server_cert") }
    var serverKey: String { process.string("server_key") }
    /// Where received messages are written.
    var mailDirectory: String { process.string("mail") }

    /// Every received message file whose text contains `marker` (e.g. a unique Message-ID).
    func received(containing marker: String) -> [URL] {
        let dir = URL(fileURLWithPath: mailDirectory)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: mailDirectory)) ?? [])
            .filter { $0.hasSuffix(".eml") && !$0.hasPrefix(".") }.sorted()
        return names.map { dir.appendingPathComponent($0) }.filter { url in
            (try? String(contentsOf: url, encoding: .utf8))?.contains(marker) ?? false
        }
    }
}
