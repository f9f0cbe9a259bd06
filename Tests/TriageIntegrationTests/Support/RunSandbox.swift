import Foundation
import TriageCore
import TriageIMAP
import XCTest

/// One Dovecot user with a configuration, rules using every action kind, a
/// `file:` digest outbox and a webhook, for the reliability tests: runs the built
/// `triage`, saves and restores the whole starting state (the user's Maildir with
/// Dovecot's indexes, the store, the outbox) so that many runs can start from the
/// same point, and takes a snapshot of everything a run changes.
final class RunSandbox: TestFolderOwner {
    let server: DovecotServer
    let user: String
    let folder: TestFolder
    /// The mailboxes the rules touch.
    static let mailboxes = ["INBOX", "Lists/dev", "Archive"]
    /// The webhook the receipts rule posts to.
    let webhookURL: String

    /// Rules with every action kind: label, unlabel, move, archive (to `Archive`, the
    /// SPECIAL-USE `\Archive` folder dovecot.sh declares), mark read and unread,
    /// flag, queue, remind, digest, webhook, stop.
    static func rules(webhook: String) -> String {
        """
        rule "cc is for information only"
          when cc:me -to:me
          then label "no push", digest "FYI"

        rule "receipts to reconcile"
          when from:{bank.example shop.example} subject:(receipt OR invoice)
          then label "money", queue rec, webhook "\(webhook)"

        rule "reply to the boss"
          when from:boss@example.test is:unread
          then remind "Reply to {from.name}: {subject}" in 2 days, flag

        rule "lists stay out of the inbox"
          when list:dev.lists.example
          then move "Lists/dev", mark read, digest "Lists", stop

        rule "never reached after stop"
          when list:dev.lists.example
          then label "after stop"

        rule "reopened"
          when subject:reopen
          then unlabel "old", mark unread

        rule "newsletters are archived"
          when from:news@letters.example
          then label "news", mark read, archive
        """
    }

    /// A fresh user and folder; `host` and `port` say where triage connects
    /// (default: Dovecot's IMAPS on localhost).
    init(_ purpose: String, server: DovecotServer? = nil) throws {
        let server = try server ?? DovecotServer.shared()
        self.server = server
        user = try server.makeUser(purpose)
        for mailbox in Self.mailboxes where mailbox != "INBOX" { try server.createMailbox(user: user, mailbox) }
        // Keyword 0 is `old`, for the unlabel rule (Maildir flag letter `a`).
        let keywords = server.maildir(user: user) + "/dovecot-keywords"
        try "0 old\n".write(toFile: keywords, atomically: false, encoding: .utf8)
        chown(keywords, DovecotServer.mailUID, DovecotServer.mailUID)
        webhookURL = "http://127.0.0.1:\(try WebhookTestServer.shared().httpPort)/hook/\(purpose)"
        folder = try TestFolder(purpose, rules: Self.rules(webhook: webhookURL), tmpfs: true)
        try writeConfig()
        try Self.pinDigestSecret(store: folder.store)
    }

    /// Writes the configuration: the account at `host:port` over `scheme`, an
    /// optional `timeout`, and the digest into the outbox when `digest` is set.
    func writeConfig(host: String = "localhost", port: UInt16? = nil, scheme: String = "imaps",
                     timeout: Int? = nil, digest: Bool = true) throws {
        try folder.writeConfig(url: "\(scheme)://\(host):\(port ?? (scheme == "imaps" ? server.imapsPort : server.imapPort))",
                               user: user, caFile: server.caFile, accountLines: timeout.map { ["timeout": "\($0)"] } ?? [:],
                               digest: digest)
    }

    /// Writes a fixed digest command secret into the store, as a store that has sent
    /// digests before has one: the digest's Message-ID (and so its outbox file name)
    /// and its Done links derive from it, and the snapshots compare them across
    /// restored starting points and across users.
    static func pinDigestSecret(store: String) throws {
        try FileManager.default.createDirectory(atPath: store + "/digest", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(store, 0o700)
        let path = store + "/digest/secret"
        try (String(repeating: "5a", count: 32) + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o600)
    }

    // MARK: - Mail

    /// A message; `kind` picks which rule it meets (see `corpus`).
    /// `messageID` replaces `<ID@example.test>`; `withoutMessageID` leaves the header out.
    static func message(_ id: String, kind: Int, messageID: String? = nil, withoutMessageID: Bool = false) -> (text: String, flags: String) {
        var from = "Friend <friend@example.test>", to = "me@example.test", cc: String?, subject = "Lunch \(id)?"
        var list: String?, flags = ""
        switch kind % 7 {
        case 0: to = "team@example.test"; cc = "me@example.test"; subject = "Team notes \(id)"
        case 1: from = "Bank <billing@bank.example>"; subject = "Your receipt \(id)"; flags = "S"
        case 2: from = "The Boss <boss@example.test>"; subject = "Budget \(id)"
        case 3: from = "dev@lists.example"; to = "dev@dev.lists.example"; subject = "Release \(id)"; list = "dev.lists.example"
        case 4: subject = "Please reopen \(id)"; flags = "Sa"  // seen, keyword `old`
        case 5: from = "News <news@letters.example>"; subject = "Weekly \(id)"
        default: flags = "S"
        }
        var text = "From: \(from)\nTo: \(to)\n"
        if let cc { text += "Cc: \(cc)\n" }
        if let list { text += "List-Id: Dev list <\(list)>\n" }
        text += "Subject: \(subject)\nDate: Mon, 30 Nov 2026 08:00:00 +0000\n"
        if !withoutMessageID { text += "Message-ID: <\(messageID ?? "\(id)@example.test")>\n" }
        text += "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\nHello \(id).\n"
        return (text, flags)
    }

    /// Seeds `count` messages into INBOX, cycling through every rule.
    func seed(_ count: Int, prefix: String = "m") throws {
        for i in 0..<count {
            let (text, flags) = Self.message("\(prefix)\(i)", kind: i)
            try server.seed(user: user, text, flags: flags)
        }
    }

    /// What `seedLookalikes` adds to each mailbox (for the reference checks).
    static let lookalikes = (listsDev: 4, archive: 1)

    /// Messages a Message-ID cannot tell apart, for moves without MOVE: already in
    /// Lists/dev a decoy with m3's Message-ID (another subject and text); into INBOX
    /// a list post reusing m3's Message-ID, two byte-identical list posts without
    /// one (same arrival time too), and a newsletter without one. Needs `seed` to
    /// have seeded m3. They arrived a day before the others, so they come first.
    func seedLookalikes() throws {
        let arrived = Date(timeIntervalSince1970: 1_796_025_600)  // 2026-11-30 08:00 UTC
        try server.seed(user: user, mailbox: "Lists/dev",
                        "From: Someone <someone@example.test>\nTo: dev@dev.lists.example\nSubject: Decoy m3\n"
                        + "Date: Mon, 30 Nov 2026 08:00:00 +0000\nMessage-ID: <m3@example.test>\n\nNot the real m3.\n",
                        date: arrived)
        try server.seed(user: user, Self.message("d3", kind: 3, messageID: "m3@example.test").text, date: arrived)
        for _ in 0..<2 { try server.seed(user: user, Self.message("twin", kind: 3, withoutMessageID: true).text, date: arrived) }
        try server.seed(user: user, Self.message("noid5", kind: 5, withoutMessageID: true).text, date: arrived)
    }

    // MARK: - Saving and restoring the starting point

    private var maildirRoot: String { server.maildir(user: user) }

    /// Saves the Maildir (with Dovecot's indexes), the store and the outbox.
    func saveStart() throws {
        try folder.saveStoreAndOutbox()
        try Spawn.run(["/bin/cp", "-a", maildirRoot, folder.template + "/Maildir"])
    }

    /// Puts back what `saveStart` saved.
    func restoreStart() throws {
        // Dovecot's process for a killed run may still be writing (a uidlist lock):
        // remove until the folder stays gone, so the copy never lands inside it.
        for _ in 0..<100 {
            try? Spawn.run(["/bin/rm", "-rf", maildirRoot])
            usleep(20_000)
            if !FileManager.default.fileExists(atPath: maildirRoot) { break }
        }
        try Spawn.run(["/bin/cp", "-a", folder.template + "/Maildir", maildirRoot])
        try folder.restoreStoreAndOutbox()
    }

    // MARK: - Snapshots

    /// Everything a run changes, comparable between runs of different users:
    /// every message by mailbox, Message-ID and subject with its flags and keywords (a
    /// doubled message appears twice, a lost one not at all), every store record
    /// with its times masked, and the outbox's file names.
    func snapshot() throws -> [String] {
        var lines: [String] = []
        let connection = try server.connect(user: user)
        defer { connection.close() }
        for mailbox in Self.mailboxes {
            _ = try connection.open(mailbox, readOnly: true)
            for item in try connection.fetch(try connection.uids(above: 0)) {
                let header = String(decoding: item.header, as: UTF8.self)
                let id = header.range(of: "Message-ID: <").map { String(header[$0.upperBound...].prefix { $0 != ">" }) } ?? "?"
                // The subject tells apart messages that share a Message-ID (or have none).
                let subject = header.range(of: "Subject: ").map { String(header[$0.upperBound...].prefix { !$0.isNewline }) } ?? "?"
                // \Recent belongs to whichever session saw the message first.
                let flags = item.flags.subtracting(["\\Recent"]).sorted().joined(separator: " ")
                lines.append("\(mailbox) \(id) \"\(subject)\" flags(\(flags)) labels(\(item.labels.sorted().joined(separator: ",")))")
            }
        }
        lines += storeLines()
        lines += outboxFiles().map { "outbox \($0)" }
        return lines.sorted()
    }

    /// Store files (not the state, lock or temporary files) with their contents, times masked.
    func storeLines() -> [String] { folder.storeLines() }

    /// The `.eml` files in the outbox.
    func outboxFiles() -> [String] { folder.outboxFiles() }

    /// The inode of an outbox file (a new delivery replaces the file with a new one).
    func inode(ofOutboxFile name: String) -> UInt64? {
        var st = stat()
        return stat(outbox + "/" + name, &st) == 0 ? UInt64(st.st_ino) : nil
    }

    /// The webhook server's recorded request files for this sandbox's URL.
    func webhookRequests() throws -> [String: String] {
        let server = try WebhookTestServer.shared()
        let folder = server.requestsDirectory
        var found: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            guard let path = object?["path"] as? String, webhookURL.hasSuffix(path) else { continue }
            found[name] = object?["body"] as? String ?? ""
        }
        return found
    }
}
