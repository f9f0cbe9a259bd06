import Foundation
import XCTest

/// Cyrus IMAP or Courier-IMAP from their Debian packages' files unpacked into a private
/// cache (Tests/Servers/cyrus.sh, courier.sh, unpacked.sh), or GNU Mailutils' imap4d
/// (mailutils.sh), one of each for the whole test run, started on first use and stopped when the test bundle finishes. A server
/// that cannot start fails the test with the script's message: these tests never skip.
final class PackagedIMAPServer: IMAPTestServer, @unchecked Sendable {
    enum Kind: String {
        case cyrus, courier, mailutils
    }

    /// Where personal folders live: beside INBOX with `/` (Dovecot here, Fastmail's Cyrus),
    /// or under `INBOX.` with `.` (Courier, Cyrus's default).
    enum Layout {
        case flat, inboxDot
    }

    let kind: Kind
    let layout: Layout
    let directory: String
    let imapPort: UInt16
    let imapsPort: UInt16
    var name: String {
        switch kind {
        case .cyrus: return layout == .flat ? "Cyrus" : "Cyrus (default namespace)"
        case .courier: return "Courier"
        case .mailutils: return "Mailutils"
        }
    }
    var caFile: String { directory + "/ssl/ca.pem" }
    var offersMove: Bool { kind == .cyrus }
    /// The process that owns the user pool (self, or the server this is a view of).
    private let owner: PackagedIMAPServer?
    private let lock = NSLock()
    private var nextUser = 0

    private static let lock = NSLock()
    nonisolated(unsafe) private static var instances: [Kind: PackagedIMAPServer] = [:]

    /// Cyrus with Fastmail's layout (altnamespace, `/` separator).
    static func cyrus() throws -> PackagedIMAPServer { try shared(.cyrus) }

    /// The same Cyrus seen through its default namespace: `INBOX.` prefix, `.` separator
    /// (implicit TLS only).
    static func cyrusDefaultNamespace() throws -> PackagedIMAPServer {
        let server = try shared(.cyrus)
        return PackagedIMAPServer(view: server, imapsPort: server.ports["imapsstd"] ?? 0, layout: .inboxDot)
    }

    /// Courier-IMAP: no MOVE, no UIDNEXT in SELECT, `INBOX.` namespace.
    static func courier() throws -> PackagedIMAPServer { try shared(.courier) }

    /// GNU Mailutils imap4d: no MOVE, no UIDPLUS, no keywords, and a UID SEARCH that
    /// finds nothing.
    static func mailutils() throws -> PackagedIMAPServer { try shared(.mailutils) }

    private static func shared(_ kind: Kind) throws -> PackagedIMAPServer {
        lock.lock()
        defer { lock.unlock() }
        if let server = instances[kind] { return server }
        let server = try PackagedIMAPServer(kind)
        instances[kind] = server
        if instances.count == 1 { XCTestObservationCenter.shared.addTestObserver(StopAtEnd()) }
        return server
    }

    private let ports: [String: UInt16]

    private init(_ kind: Kind) throws {
        self.kind = kind
        layout = kind == .courier ? .inboxDot : .flat
        owner = nil
        directory = NSTemporaryDirectory() + "triage-\(kind.rawValue)-\(getpid())"
        do {
            ports = try Self.script(kind).start(in: directory)
        } catch {
            throw NSError(domain: "PackagedIMAPServer", code: 1, userInfo: [NSLocalizedDescriptionKey:
                "\(kind.rawValue) did not start (Tests/Servers/\(kind.rawValue).sh; scripts/install-deps --test installs "
                + "what it needs): \(error.localizedDescription)"])
        }
        imapPort = ports["imap"]!
        imapsPort = ports["imaps"]!
    }

    private init(view server: PackagedIMAPServer, imapsPort: UInt16, layout: Layout) {
        kind = server.kind
        self.layout = layout
        owner = server
        directory = server.directory
        ports = server.ports
        imapPort = server.imapPort
        self.imapsPort = imapsPort
    }

    private static func script(_ kind: Kind) -> ServerScript {
        ServerScript("\(kind.rawValue).sh")
    }

    func serverName(_ ruleName: String) -> String {
        guard layout == .inboxDot, ruleName != "INBOX" else { return ruleName }
        return "INBOX." + ruleName.replacingOccurrences(of: "/", with: ".")
    }

    func makeUser(_ purpose: String) throws -> String {
        if let owner { return try owner.makeUser(purpose) }
        lock.lock()
        nextUser += 1
        let number = nextUser
        lock.unlock()
        let pool = [Kind.cyrus: 60, .courier: 200, .mailutils: 40][kind] ?? 0
        guard number <= pool else {
            throw NSError(domain: "PackagedIMAPServer", code: 4, userInfo: [NSLocalizedDescriptionKey: "the user pool of \(kind.rawValue).sh is used up"])
        }
        return kind == .mailutils ? "user\(number)@example.test" : "user\(number)"
    }

    func log() -> String {
        (try? String(contentsOfFile: directory + "/\(kind.rawValue).log", encoding: .utf8)) ?? ""
    }

    /// Stops the server and removes its folder.
    func stop() {
        Self.script(kind).stop(in: directory)
    }

    private final class StopAtEnd: NSObject, XCTestObservation {
        func testBundleDidFinish(_ testBundle: Bundle) {
            PackagedIMAPServer.lock.lock()
            let servers = PackagedIMAPServer.instances.values
            PackagedIMAPServer.instances = [:]
            PackagedIMAPServer.lock.unlock()
            servers.forEach { $0.stop() }
        }
    }
}
