import Foundation
import TriageCore
import TriageIMAP
import XCTest

/// One user on one of the test servers (`IMAPTestServer`) with the rules of
/// `RunSandbox` (every action kind), a `file:` digest outbox and a webhook: the
/// server-facing scenarios of `ServerMatrix` run against each server through this.
/// Mail goes on the server over IMAP (APPEND), so the same code serves every server.
final class MatrixSandbox {
    let server: any IMAPTestServer
    let user: String
    let dir: String
    var config: String { dir + "/triage.conf" }
    var store: String { dir + "/store" }
    var outbox: String { dir + "/outbox" }
    /// The folders the rules touch, in rule form.
    static let folders = ["INBOX", "Lists/dev", "Archive"]

    init(_ purpose: String, server: any IMAPTestServer) throws {
        self.server = server
        user = try server.makeUser(purpose)
        try server.createFolders(user: user, Self.folders.filter { $0 != "INBOX" })
        let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()
        dir = base + "triage-matrix-\(purpose)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir + "/rules", withIntermediateDirectories: true)
        let webhook = "http://127.0.0.1:\(try WebhookTestServer.shared().httpPort)/hook/matrix-\(purpose)"
        try RunSandbox.rules(webhook: webhook).write(toFile: dir + "/rules/test.rules", atomically: true, encoding: .utf8)
        try server.password.write(toFile: dir + "/pw", atomically: true, encoding: .utf8)
        try writeConfig()
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// The account over `scheme` (imaps or imap with STARTTLS), verified with `caFile`
    /// (default: the server's test CA).
    func writeConfig(scheme: String = "imaps", caFile: String? = nil) throws {
        let text = """
        [triage]
        me = me@example.test
        rules = rules
        store = store
        timezone = UTC

        [account test]
        url = \(scheme)://localhost:\(scheme == "imaps" ? server.imapsPort : server.imapPort)
        user = \(user)
        password_command = cat \(dir)/pw
        ca_file = \(caFile ?? server.caFile)
        mailboxes = INBOX

        [digest]
        to = me@example.test
        from = triage@example.test
        hour = 0
        smtp = file:\(outbox)

        """
        try text.write(toFile: config, atomically: true, encoding: .utf8)
    }

    func triage(_ args: [String], environment: [String: String] = [:]) throws -> TriageProcess.Result {
        try TriageProcess.run(args + ["--config", config], environment: environment)
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
        for folder in Self.folders {
            _ = try connection.open(server.serverName(folder), readOnly: true)
            for item in try connection.fetch(try connection.uids(above: 0)) {
                let header = String(decoding: item.header, as: UTF8.self)
                let id = header.range(of: "Message-ID: <").map { String(header[$0.upperBound...].prefix { $0 != ">" }) } ?? "?"
                let flags = item.flags.subtracting(["\\Recent"]).sorted().joined(separator: " ")
                lines.append("\(folder) \(id) flags(\(flags)) labels(\(item.labels.sorted().joined(separator: ",")))")
            }
        }
        let uids = try NSRegularExpression(pattern: "\"uid\": [0-9]+")
        let times = try NSRegularExpression(pattern: "\"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+(Z|[+-][0-9:]+)\"")
        if let walker = FileManager.default.enumerator(atPath: store) {
            for case let path as String in walker where path.hasSuffix(".json") && !path.hasPrefix("state/") {
                guard !(path as NSString).lastPathComponent.hasPrefix(".") else { continue }
                let body = (try? String(contentsOfFile: store + "/" + path, encoding: .utf8)) ?? "(unreadable)"
                let masked = times.stringByReplacingMatches(in: body, range: NSRange(body.startIndex..., in: body), withTemplate: "TIME")
                // UIDs too: the crash sweep puts the same messages back under new UIDs.
                let uidMasked = uids.stringByReplacingMatches(in: masked, range: NSRange(masked.startIndex..., in: masked), withTemplate: "\"uid\": UID")
                lines.append("store \(path): \(uidMasked.replacingOccurrences(of: "\n", with: " "))")
            }
        }
        lines += ((try? FileManager.default.contentsOfDirectory(atPath: outbox)) ?? [])
            .filter { $0.hasSuffix(".eml") && !$0.hasPrefix(".") }.map { "outbox \($0)" }
        return lines.sorted()
    }

    // MARK: - Starting point for the crash sweep

    private var template: String { dir + "/template" }
    private var startMessages: [SeedMessage] = []

    /// Remembers the store and outbox and the INBOX messages to put back.
    func saveStart(_ messages: [SeedMessage]) throws {
        startMessages = messages
        try? FileManager.default.removeItem(atPath: template)
        try FileManager.default.createDirectory(atPath: template, withIntermediateDirectories: true)
        for folder in [store, outbox] where FileManager.default.fileExists(atPath: folder) {
            try Spawn.run(["/bin/cp", "-a", folder, template + "/" + (folder as NSString).lastPathComponent])
        }
    }

    /// Empties every folder and appends the start messages again (new UIDs above the
    /// remembered one: the rerun sees them as new mail), and puts back store and outbox.
    func restoreStart() throws {
        try server.wipe(user: user, Self.folders)
        try server.append(user: user, startMessages)
        for folder in [store, outbox] {
            try? FileManager.default.removeItem(atPath: folder)
            let saved = template + "/" + (folder as NSString).lastPathComponent
            if FileManager.default.fileExists(atPath: saved) { try Spawn.run(["/bin/cp", "-a", saved, folder]) }
        }
    }
}
