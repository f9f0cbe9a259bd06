import Foundation
import TriageCore
import TriageIMAP

/// A message to put on a test server: its text, IMAP flags and keywords
/// (`\Seen`, `old`), and its INTERNALDATE.
struct SeedMessage {
    var text: String
    var flags: [String] = []
    var date = Date()
}

/// A real IMAP server the integration tests start on loopback (Dovecot, Cyrus,
/// Courier, Mailutils), so the server-facing tests run against each the same way.
protocol IMAPTestServer: AnyObject {
    /// For messages: `Dovecot`, `Cyrus`, `Courier`.
    var name: String { get }
    /// The test CA that signed the server's certificate for localhost / 127.0.0.1.
    var caFile: String { get }
    /// The STARTTLS port on 127.0.0.1.
    var imapPort: UInt16 { get }
    /// The implicit-TLS port on 127.0.0.1.
    var imapsPort: UInt16 { get }
    /// Whether the server offers MOVE on these ports.
    var offersMove: Bool { get }
    /// The server's own name of a personal folder written as in rules (`Lists/dev`):
    /// the ground truth the tests check triage's resolution against.
    func serverName(_ ruleName: String) -> String
    /// A login nobody has used yet, with an empty INBOX.
    func makeUser(_ purpose: String) throws -> String
    /// The server's log, for failure messages.
    func log() -> String
}

extension IMAPTestServer {
    /// Every test user's password.
    var password: String { DovecotServer.password }

    /// Creates personal folders (rule form) over IMAP.
    func createFolders(user: String, _ folders: [String]) throws {
        try runSeed(user: user, folders.map { ["create": ModifiedUTF7.encode(serverName($0))] })
    }

    /// Appends messages to a folder (rule form) over IMAP, in order (so in UID order).
    func append(user: String, folder: String = "INBOX", _ messages: [SeedMessage]) throws {
        let dir = NSTemporaryDirectory() + "triage-seed-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var ops: [[String: Any]] = []
        for (i, message) in messages.enumerated() {
            let file = dir + "/\(i).eml"
            try message.text.write(toFile: file, atomically: false, encoding: .utf8)
            ops.append(["append": ModifiedUTF7.encode(serverName(folder)), "file": file, "flags": message.flags,
                        "date": Int(message.date.timeIntervalSince1970)])
        }
        try runSeed(user: user, ops)
    }

    /// Expunges every message of the folders (rule form).
    func wipe(user: String, _ folders: [String]) throws {
        try runSeed(user: user, folders.map { ["wipe": ModifiedUTF7.encode(serverName($0))] })
    }

    /// Settings to reach the server as `user` on localhost, verified against the test CA.
    func settings(user: String, scheme: MailServerURL.Scheme = .imaps) -> IMAPSettings {
        var settings = IMAPSettings(url: MailServerURL(scheme: scheme, host: "localhost", port: scheme == .imaps ? imapsPort : imapPort),
                                    credential: .password(user: user, password), caFile: caFile)
        settings.connectTimeout = 5
        settings.commandTimeout = 10
        return settings
    }

    /// A logged-in connection as `user`.
    func connection(user: String) throws -> IMAPConnection {
        try IMAPConnection.connect(settings(user: user))
    }

    private func runSeed(user: String, _ ops: [[String: Any]]) throws {
        let job: [String: Any] = ["port": Int(imapsPort), "cafile": caFile, "user": user, "password": password, "ops": ops]
        let file = NSTemporaryDirectory() + "triage-seed-\(UUID().uuidString).json"
        try JSONSerialization.data(withJSONObject: job).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let script = PythonTestServerProcess.serversDirectory.appendingPathComponent("imap-seed.py").path
        try Spawn.run(["/usr/bin/python3", script, file])
    }
}

extension DovecotServer: IMAPTestServer {
    var name: String { "Dovecot" }
    var offersMove: Bool { true }
    func serverName(_ ruleName: String) -> String { ruleName }
}
