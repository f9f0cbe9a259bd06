import Foundation
import TriageCore
import TriageIMAP
import XCTest

/// One throw-away Dovecot for the whole test run (Tests/Servers/dovecot.sh),
/// started on first use and stopped when the test bundle finishes.
///
/// Each test takes its own user (`makeUser`) so tests never see each other's mail.
/// Seeding writes Maildir files directly, owned by the mail uid as Dovecot requires.
final class DovecotServer: @unchecked Sendable {
    /// The password of every test user.
    static let password = "test-password"
    /// The uid/gid that owns the test mail (nobody/nogroup).
    static let mailUID: uid_t = 65534

    /// The server's folder (config, certificates, homes, log).
    let directory: String
    /// The STARTTLS port, on 127.0.0.1-4.
    let imapPort: UInt16
    /// The implicit-TLS port, on 127.0.0.1-4.
    let imapsPort: UInt16
    /// ManageSieve (STARTTLS) on 127.0.0.1; LMTP is the socket `run/lmtp`.
    let sievePort: UInt16

    /// The test CA that signed the certificates for 127.0.0.1, 127.0.0.2 and 127.0.0.4.
    var caFile: String { directory + "/ssl/ca.pem" }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var instance: DovecotServer?
    private let lock = NSLock()
    private var counter = 0
    private var nextUser = 0

    /// The shared server, started on first call.
    static func shared() throws -> DovecotServer {
        lock.lock()
        defer { lock.unlock() }
        if let instance { return instance }
        let server = try DovecotServer()
        instance = server
        XCTestObservationCenter.shared.addTestObserver(StopAtEnd())
        return server
    }

    private static let script = ServerScript("dovecot.sh")

    /// A server of its own in `directory` (default: the shared one's), for tests that
    /// stop and restart it (`stop()` when done).
    init(directory: String = NSTemporaryDirectory() + "triage-dovecot-\(getpid())") throws {
        self.directory = directory
        let ports = try Self.script.start(in: directory)
        imapPort = ports["imap"]!
        imapsPort = ports["imaps"]!
        sievePort = ports["sieve"]!
    }

    /// Stops the server and removes its folder.
    func stop() {
        Self.script.stop(in: directory)
    }

    /// Stops the server (if it runs) and starts it again on the same ports
    /// (`dovecot.sh restart`); the mail stays.
    func restart() throws {
        try Self.script.run(["restart", directory])
    }

    /// Stops the server, keeping its folder, for `restart()`.
    func halt() throws {
        try Self.script.run(["halt", directory])
    }

    /// A login nobody has used yet (from the pool dovecot.sh made), with an empty
    /// INBOX. `purpose` is only for reading test code.
    func makeUser(_ purpose: String) throws -> String {
        lock.lock()
        nextUser += 1
        let number = nextUser
        lock.unlock()
        guard number <= 200 else {
            throw NSError(domain: "DovecotServer", code: 4, userInfo: [NSLocalizedDescriptionKey: "the user pool of dovecot.sh is used up"])
        }
        let name = "user\(number)@example.test"
        try createMailbox(user: name, "INBOX")
        return name
    }

    /// The Maildir folder of a mailbox (`INBOX`, or Maildir++ `.Name` with `/` as
    /// `.`; Dovecot keeps folder names on disk in modified UTF-7: `.Re&AOc-us`).
    func maildir(user: String, mailbox: String = "INBOX") -> String {
        let root = "\(directory)/home/\(user)/Maildir"
        guard mailbox != "INBOX" else { return root }
        return root + "/." + ModifiedUTF7.encode(mailbox).replacingOccurrences(of: "/", with: ".")
    }

    /// Creates an (empty) mailbox folder.
    func createMailbox(user: String, _ mailbox: String) throws {
        let home = "\(directory)/home/\(user)"
        let path = maildir(user: user, mailbox: mailbox)
        for sub in [home, home + "/Maildir"] where !FileManager.default.fileExists(atPath: sub) {
            try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
            try own(sub)
        }
        for sub in ["", "/cur", "/new", "/tmp"] {
            try FileManager.default.createDirectory(atPath: path + sub, withIntermediateDirectories: true)
            try own(path + sub)
        }
    }

    /// Writes a message into `mailbox/cur` with Maildir info flags (`S` seen,
    /// `F` flagged, `R` answered, `T` deleted) and a delivery time (INTERNALDATE).
    /// Dovecot numbers messages by file name order, so seed in the wanted UID order.
    func seed(user: String, mailbox: String = "INBOX", _ message: String, flags: String = "", date: Date = Date()) throws {
        try seed(user: user, mailbox: mailbox, bytes: Array(message.utf8), flags: flags, date: date)
    }

    /// `seed` for a message given as bytes (a fixture that is not valid UTF-8).
    func seed(user: String, mailbox: String = "INBOX", bytes: [UInt8], flags: String = "", date: Date = Date()) throws {
        lock.lock()
        counter += 1
        let unique = counter
        lock.unlock()
        let seconds = Int(date.timeIntervalSince1970)
        let name = "\(seconds).M\(unique)P\(getpid()).triage-test:2,\(String(flags.sorted()))"
        let path = maildir(user: user, mailbox: mailbox) + "/cur/" + name
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw NSError(domain: "DovecotServer", code: 2, userInfo: [NSLocalizedDescriptionKey: "cannot write \(path)"])
        }
        try own(path)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }

    /// File names currently in a mailbox's `cur` and `new`.
    func files(user: String, mailbox: String = "INBOX") -> [String] {
        let base = maildir(user: user, mailbox: mailbox)
        return ["cur", "new"].flatMap { (try? FileManager.default.contentsOfDirectory(atPath: base + "/" + $0)) ?? [] }.sorted()
    }

    /// Dovecot's keyword list for a mailbox (what went over the wire as keywords).
    func keywordFile(user: String, mailbox: String = "INBOX") -> String {
        (try? String(contentsOfFile: maildir(user: user, mailbox: mailbox) + "/dovecot-keywords", encoding: .utf8)) ?? ""
    }

    /// The server log (for failures and for checking what reached the server).
    func log() -> String {
        (try? String(contentsOfFile: directory + "/dovecot.log", encoding: .utf8)) ?? ""
    }

    private func own(_ path: String) throws {
        guard chown(path, Self.mailUID, Self.mailUID) == 0 else {
            throw NSError(domain: "DovecotServer", code: 3, userInfo: [NSLocalizedDescriptionKey: "chown \(path): errno \(errno)"])
        }
    }

    /// Stops the shared server when the test bundle is done.
    private final class StopAtEnd: NSObject, XCTestObservation {
        func testBundleDidFinish(_ testBundle: Bundle) {
            DovecotServer.lock.lock()
            let server = DovecotServer.instance
            DovecotServer.instance = nil
            DovecotServer.lock.unlock()
            server?.stop()
        }
    }
}
