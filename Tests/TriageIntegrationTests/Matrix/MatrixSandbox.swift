import Foundation
import TriageCore
import TriageIMAP
import XCTest

/// One user on one of the test servers (`IMAPTestServer`) with the rules of
/// `RunSandbox` (every action kind), a `file:` digest outbox and a webhook: the
/// server-facing scenarios of `ServerMatrix` run against each server through this.
/// Mail goes on the server over IMAP (APPEND), so the same code serves every server.
final class MatrixSandbox: TestFolderOwner {
    let server: any IMAPTestServer
    let user: String
    let folder: TestFolder
    /// The folders the rules touch, in rule form.
    static let folders = ["INBOX", "Lists/dev", "Archive"]

    init(_ purpose: String, server: any IMAPTestServer) throws {
        self.server = server
        user = try server.makeUser(purpose)
        try server.createFolders(user: user, Self.folders.filter { $0 != "INBOX" })
        let webhook = "http://127.0.0.1:\(try WebhookTestServer.shared().httpPort)/hook/matrix-\(purpose)"
        folder = try TestFolder("matrix-\(purpose)", rules: RunSandbox.rules(webhook: webhook), password: server.password, tmpfs: true)
        try writeConfig()
    }

    /// The account over `scheme` (imaps or imap with STARTTLS), verified with `caFile`
    /// (default: the server's test CA). The rules archive (`RunSandbox.rules`): to
    /// `archive = Archive`, as Courier and Mailutils have no SPECIAL-USE.
    func writeConfig(scheme: String = "imaps", caFile: String? = nil) throws {
        try folder.writeConfig(url: "\(scheme)://localhost:\(scheme == "imaps" ? server.imapsPort : server.imapPort)",
                               user: user, caFile: caFile ?? server.caFile, accountLines: ["archive": "Archive"], digest: true)
    }

    /// `triage ARGS --verbose` with the IMAP trace; returns the result and the commands sent.
    func traced(_ args: [String]) throws -> (TriageProcess.Result, commands: [String]) {
        let result = try triage(args + ["--verbose"], environment: ["TRIAGE_TRACE": "1"])
        let commands = result.err.split(separator: "\n").compactMap { line -> String? in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("C: ") else { return nil }
            // `C: 7 UID STORE ...` -> `UID STORE ...`
            return text.dropFirst(3).split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init)
        }
        return (result, commands)
    }

    /// The messages of the corpus `m0`, `m1`, ... as RunSandbox makes them (every
    /// rule), with Maildir flag letters turned into IMAP flags (`a` is keyword `old`).
    static func corpus(_ count: Int, prefix: String = "m") -> [SeedMessage] {
        (0..<count).map { i in
            let (text, letters) = RunSandbox.message("\(prefix)\(i)", kind: i)
            let flags = letters.map { letter -> String in
                switch letter {
                case "S": return "\\Seen"
                case "F": return "\\Flagged"
                case "a": return "old"
                default: return "\\Answered"
                }
            }
            return SeedMessage(text: text, flags: flags)
        }
    }

    func seed(_ count: Int, prefix: String = "m") throws {
        try server.append(user: user, Self.corpus(count, prefix: prefix))
    }

    /// Every message by folder (rule form) and Message-ID with its flags and labels,
    /// the store's records (times masked) and the outbox's files.
    func snapshot() throws -> [String] {
        var lines: [String] = []
        let connection = try server.connection(user: user)
        defer { connection.close() }
        for name in Self.folders {
            _ = try connection.open(server.serverName(name), readOnly: true)
            for item in try connection.fetch(try connection.uids(above: 0)) {
                let header = String(decoding: item.header, as: UTF8.self)
                let id = header.range(of: "Message-ID: <").map { String(header[$0.upperBound...].prefix { $0 != ">" }) } ?? "?"
                let flags = item.flags.subtracting(["\\Recent"]).sorted().joined(separator: " ")
                lines.append("\(name) \(id) flags(\(flags)) labels(\(item.labels.sorted().joined(separator: ",")))")
            }
        }
        // UIDs masked too: the crash sweep puts the same messages back under new UIDs.
        lines += folder.storeLines(maskUIDs: true)
        lines += folder.outboxFiles().map { "outbox \($0)" }
        return lines.sorted()
    }

    // MARK: - Starting point for the crash sweep

    private var startMessages: [SeedMessage] = []

    /// Remembers the store and outbox and the INBOX messages to put back.
    func saveStart(_ messages: [SeedMessage]) throws {
        startMessages = messages
        try folder.saveStoreAndOutbox()
    }

    /// Empties every folder and appends the start messages again (new UIDs above the
    /// remembered one: the rerun sees them as new mail), and puts back store and outbox.
    func restoreStart() throws {
        try server.wipe(user: user, Self.folders)
        try server.append(user: user, startMessages)
        try folder.restoreStoreAndOutbox()
    }
}
