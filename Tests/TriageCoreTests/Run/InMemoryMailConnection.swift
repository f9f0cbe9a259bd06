import Foundation
import TriageCore

/// A `MailConnection` over mailboxes held in memory, for unit tests of the run:
/// it keeps UIDs, UIDVALIDITY and UIDNEXT as a server does, gives moved messages
/// new UIDs in the target, refuses what a test tells it to, and logs every call
/// that would reach a server.
final class InMemoryMailConnection: MailConnection {
    struct StoredMessage {
        var header: String
        var body: String
        var flags: Set<String> = []
        var labels: Set<String> = []
        var internalDate: Int64?
    }

    struct Mailbox {
        var uidValidity: UInt32
        var uidNext: UInt32 = 1
        var messages: [UInt32: StoredMessage] = [:]
    }

    let serverName = "memory.test"
    var mailboxes: [String: Mailbox] = [:]
    /// Calls that talk to the server, in order: `open INBOX`, `uids>3`, `fetch 1,2`,
    /// `store +label:x 1,2`, `move Archive 3`, `resume Archive 3`.
    private(set) var log: [String] = []
    /// Whether `open` reports UIDNEXT (some servers leave it out of SELECT).
    var reportsUIDNext = true
    /// Answers a STORE with a tagged NO when this says so.
    var refuses: (FlagChange, [UInt32]) -> Bool = { _, _ in false }
    /// The journal's attempts a `resumeMove` was given.
    private(set) var resumedAttempts: [CopyAttempt] = []
    private var current: String?

    init(uidValidity: UInt32 = 7, folders: [String] = []) {
        mailboxes["INBOX"] = Mailbox(uidValidity: uidValidity)
        for folder in folders { mailboxes[folder] = Mailbox(uidValidity: uidValidity + 100) }
    }

    /// Delivers a message to `mailbox`; returns its UID.
    @discardableResult
    func deliver(subject: String, to mailbox: String = "INBOX", id: String? = nil, flags: Set<String> = [],
                 labels: Set<String> = [], arrived: Int64? = 1_700_000_000) -> UInt32 {
        var box = mailboxes[mailbox]!
        let uid = box.uidNext
        let messageID = id ?? "m\(uid)-\(mailbox)@memory.test"
        box.messages[uid] = StoredMessage(header: "Subject: \(subject)\r\nMessage-ID: <\(messageID)>\r\n\r\n",
                                          body: "Body of \(subject)\r\n", flags: flags, labels: labels, internalDate: arrived)
        box.uidNext += 1
        mailboxes[mailbox] = box
        return uid
    }

    /// Renumbers a mailbox as a server may: new UIDVALIDITY, UIDs from 1, same messages.
    func renumber(_ mailbox: String = "INBOX", uidValidity: UInt32) {
        let old = mailboxes[mailbox]!
        var box = Mailbox(uidValidity: uidValidity)
        for uid in old.messages.keys.sorted() {
            box.messages[box.uidNext] = old.messages[uid]
            box.uidNext += 1
        }
        mailboxes[mailbox] = box
    }

    /// The subjects in a mailbox, by UID order.
    func subjects(in mailbox: String) -> [String] {
        mailboxes[mailbox]!.messages.sorted { $0.key < $1.key }.map { subject(of: $0.value) }
    }

    func message(_ uid: UInt32, in mailbox: String = "INBOX") -> StoredMessage? {
        mailboxes[mailbox]?.messages[uid]
    }

    func clearLog() { log = [] }

    private func subject(of message: StoredMessage) -> String {
        let line = message.header.split(separator: "\r\n").first { $0.hasPrefix("Subject: ") } ?? ""
        return String(line.dropFirst(9))
    }

    private func list(_ uids: [UInt32]) -> String { uids.map(String.init).joined(separator: ",") }

    // MARK: MailConnection

    func open(_ mailbox: String, readOnly: Bool) throws -> MailboxStatus {
        log.append("open \(mailbox)")
        guard let box = mailboxes[mailbox] else {
            throw MailError(.missingFolder, server: serverName, "mailbox \"\(mailbox)\" does not exist")
        }
        current = mailbox
        return MailboxStatus(name: mailbox, uidValidity: box.uidValidity, uidNext: reportsUIDNext ? box.uidNext : 0,
                             exists: UInt32(box.messages.count), readOnly: readOnly)
    }

    func uids(above uid: UInt32) throws -> [UInt32] {
        log.append("uids>\(uid)")
        return try open().messages.keys.filter { $0 > uid }.sorted()
    }

    func fetch(_ uids: [UInt32]) throws -> [FetchedMessage] {
        try fetch(uids, parts: .all)
    }

    func fetch(_ uids: [UInt32], parts: MessageParts) throws -> [FetchedMessage] {
        log.append("fetch \(list(uids))" + (parts.contains(.text) ? "" : " header"))
        let box = try open()
        return uids.compactMap { uid in
            guard let m = box.messages[uid] else { return nil }
            let header = Array(m.header.utf8), body = Array(m.body.utf8)
            return FetchedMessage(uid: uid, flags: m.flags, labels: m.labels, size: header.count + body.count,
                                  internalDate: m.internalDate, header: header,
                                  bodyPrefix: parts.contains(.text) ? body : [], attachments: [])
        }
    }

    func store(_ change: FlagChange, uids: [UInt32]) throws {
        let sign = change.operation == .add ? "+" : "-"
        let what = (change.flags.sorted() + change.labels.sorted().map { "label:" + $0 }).joined(separator: " ")
        log.append("store \(sign)\(what) \(list(uids))")
        if refuses(change, uids) {
            throw MailError(.refused, server: serverName, "STORE refused: NO [CANNOT] not for these messages")
        }
        let name = try openName()
        for uid in uids {
            guard var m = mailboxes[name]!.messages[uid] else { continue }
            switch change.operation {
            case .add:
                m.flags.formUnion(change.flags)
                m.labels.formUnion(change.labels)
            case .remove:
                m.flags.subtract(change.flags)
                m.labels.subtract(change.labels)
            }
            mailboxes[name]!.messages[uid] = m
        }
    }

    func move(_ uids: [UInt32], to folder: String) throws -> MoveMethod {
        log.append("move \(folder) \(list(uids))")
        return try moveMessages(uids, to: folder)
    }

    func resumeMove(_ uids: [UInt32], to folder: String, attempts: [CopyAttempt], recorder: MoveRecorder?) throws -> MoveMethod {
        log.append("resume \(folder) \(list(uids))")
        resumedAttempts += attempts
        return try moveMessages(uids, to: folder)
    }

    func close() {}

    private func open() throws -> Mailbox { mailboxes[try openName()]! }

    private func openName() throws -> String {
        guard let current else { throw MailError(.protocol, server: serverName, "no mailbox is open") }
        return current
    }

    private func moveMessages(_ uids: [UInt32], to folder: String) throws -> MoveMethod {
        let name = try openName()
        guard mailboxes[folder] != nil else {
            throw MailError(.missingFolder, server: serverName, "folder \"\(folder)\" does not exist")
        }
        for uid in uids {
            guard let m = mailboxes[name]!.messages.removeValue(forKey: uid) else { continue }
            mailboxes[folder]!.messages[mailboxes[folder]!.uidNext] = m
            mailboxes[folder]!.uidNext += 1
        }
        return .move
    }
}
