import Foundation

/// A one-connection scripted IMAP server (Tests/Servers/fake-imap.py) for what
/// Dovecot cannot show: Gmail's X-GM-LABELS, bytes injected before a STARTTLS
/// handshake, a server that stops answering. Uses the Dovecot harness's test
/// certificate for localhost.
final class FakeIMAPServer {
    /// What the script does; see fake-imap.py.
    enum Mode: String {
        case gmail, inject, silent, nostarttls, malformed, bye, flood, drip, escape, nouidnext
        case shortLiteral = "short-literal", longLiteral = "long-literal", hugeLiteral = "huge-literal"
        case deepNest = "deep-nest"
        /// STARTTLS without injection: the control for `inject`.
        case starttls
    }

    /// The port on 127.0.0.1.
    let port: UInt16
    private let directory: String
    private let pid: pid_t

    /// Starts the script and waits until it listens.
    init(_ mode: Mode, dovecot: DovecotServer) throws {
        directory = NSTemporaryDirectory() + "triage-fake-imap-\(getpid())-\(mode.rawValue)-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Servers/fake-imap.py").path
        pid = try Spawn.start(["/usr/bin/python3", script, mode.rawValue, dovecot.directory + "/ssl/server.pem",
                               dovecot.directory + "/ssl/server.key", directory],
                              errorFile: directory + "/stderr")
        var found: UInt16?
        for _ in 0..<200 {
            if let text = try? String(contentsOfFile: directory + "/port", encoding: .utf8), let value = UInt16(text) {
                found = value
                break
            }
            usleep(25_000)
        }
        guard let found else {
            kill(pid, SIGTERM)
            Spawn.wait(pid)
            let errors = (try? String(contentsOfFile: directory + "/stderr", encoding: .utf8)) ?? ""
            throw NSError(domain: "FakeIMAPServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "did not start: \(errors)"])
        }
        port = found
    }

    /// The command lines the server received (LOGIN arguments masked).
    var commands: [String] {
        ((try? String(contentsOfFile: directory + "/commands", encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    /// Stops the script (if still running) and removes its folder.
    func stop() {
        kill(pid, SIGTERM)
        Spawn.wait(pid)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
