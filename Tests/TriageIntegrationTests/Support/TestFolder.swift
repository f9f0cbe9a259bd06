import Foundation

/// A throw-away folder for one triage configuration, as the integration tests write it:
/// `rules/test.rules`, the password file `pw`, `triage.conf` with one `[account test]`,
/// and the store and outbox triage writes beside them.
struct TestFolder {
    /// The folder.
    let dir: String
    var config: String { dir + "/triage.conf" }
    var store: String { dir + "/store" }
    var outbox: String { dir + "/outbox" }

    /// `triage-PURPOSE-XXXXXXXX` with `rules` and the test users' password. On tmpfs
    /// when `tmpfs` and there is one: for tests about the order of writes, not the
    /// disk's durability (each fsync on the disk costs milliseconds).
    init(_ purpose: String, rules: String, password: String = DovecotServer.password, tmpfs: Bool = false) throws {
        let base = tmpfs && FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()
        dir = base + "triage-\(purpose)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir + "/rules", withIntermediateDirectories: true)
        try writeRules(rules)
        try password.write(toFile: dir + "/pw", atomically: true, encoding: .utf8)
    }

    /// Replaces `rules/test.rules`.
    func writeRules(_ rules: String) throws {
        try rules.write(toFile: dir + "/rules/test.rules", atomically: true, encoding: .utf8)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Writes `triage.conf`: `[triage]` and one `[account test]` at `url` as `user`, the
    /// password by `cat PASSWORDFILE`, verified with `caFile`; `mailboxes` when given,
    /// then `accountLines`; the digest into the outbox when `digest` is set.
    func writeConfig(url: String, user: String, caFile: String, mailboxes: String? = "INBOX", passwordFile: String = "pw",
                     accountLines: KeyValuePairs<String, String> = [:], digest: Bool = false) throws {
        var account = ConfigSection("account test", [
            "url": url, "user": user, "password_command": "cat \(dir)/\(passwordFile)", "ca_file": caFile,
        ])
        if let mailboxes { account.lines.append(("mailboxes", mailboxes)) }
        account.lines += accountLines.map { ($0.key, $0.value) }
        var sections = [ConfigSection.triage(), account]
        if digest {
            sections.append(ConfigSection("digest", [
                "to": "me@example.test", "from": "triage@example.test", "hour": "0", "smtp": "file:\(outbox)",
            ]))
        }
        try writeConfig(sections)
    }

    /// Writes `triage.conf` from `sections`, private to its owner (0600) as a file
    /// with a password must be.
    func writeConfig(_ sections: [ConfigSection]) throws {
        try sections.map(\.text).joined(separator: "\n").write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)
    }

    /// Runs `triage ARGS --config CONFIG`.
    func triage(_ args: [String], environment: [String: String] = [:]) throws -> TriageProcess.Result {
        try TriageProcess.run(args + ["--config", config], environment: environment)
    }

    // MARK: - Store and outbox

    /// Store files (not the state, lock or temporary files) with their contents, times
    /// masked, and UIDs too when `maskUIDs` (a sweep puts messages back under new UIDs).
    func storeLines(maskUIDs: Bool = false) -> [String] {
        var lines: [String] = []
        guard let walker = FileManager.default.enumerator(atPath: store) else { return [] }
        let times = try! NSRegularExpression(pattern: "\"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+(Z|[+-][0-9:]+)\"")
        let uids = try! NSRegularExpression(pattern: "\"uid\": [0-9]+")
        for case let path as String in walker where path.hasSuffix(".json") && !path.hasPrefix("state/") {
            guard !(path as NSString).lastPathComponent.hasPrefix(".") else { continue }
            let body = (try? String(contentsOfFile: store + "/" + path, encoding: .utf8)) ?? "(unreadable)"
            var masked = times.stringByReplacingMatches(in: body, range: NSRange(body.startIndex..., in: body), withTemplate: "TIME")
            if maskUIDs {
                masked = uids.stringByReplacingMatches(in: masked, range: NSRange(masked.startIndex..., in: masked), withTemplate: "\"uid\": UID")
            }
            lines.append("store \(path): \(masked.replacingOccurrences(of: "\n", with: " "))")
        }
        return lines
    }

    /// The `.eml` files in the outbox.
    func outboxFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: outbox)) ?? []).filter { $0.hasSuffix(".eml") && !$0.hasPrefix(".") }.sorted()
    }

    /// Where `saveStoreAndOutbox` keeps its copies.
    var template: String { dir + "/template" }

    /// Copies the store and the outbox into a fresh `template`.
    func saveStoreAndOutbox() throws {
        try? FileManager.default.removeItem(atPath: template)
        try FileManager.default.createDirectory(atPath: template, withIntermediateDirectories: true)
        for folder in [store, outbox] where FileManager.default.fileExists(atPath: folder) {
            try Spawn.run(["/bin/cp", "-a", folder, template + "/" + (folder as NSString).lastPathComponent])
        }
    }

    /// Puts back the store and the outbox `saveStoreAndOutbox` saved.
    func restoreStoreAndOutbox() throws {
        for folder in [store, outbox] {
            try? FileManager.default.removeItem(atPath: folder)
            let saved = template + "/" + (folder as NSString).lastPathComponent
            if FileManager.default.fileExists(atPath: saved) { try Spawn.run(["/bin/cp", "-a", saved, folder]) }
        }
    }
}
