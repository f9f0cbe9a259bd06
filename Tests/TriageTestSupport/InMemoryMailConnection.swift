import Foundation
import TriageCore

/// A `MailConnection` over mailboxes held in memory that behaves like a small IMAP
/// server, for unit tests of the run and the app: UIDs, UIDVALIDITY and UIDNEXT as a
/// server keeps them, moved messages get new UIDs in the target, labels are stored as
/// keywords (`LabelCodec`), a fetch brings only the parts and header fields asked for,
/// SPECIAL-USE folders, folder creation and notices. It refuses what a test tells it
/// to, and logs every call that would reach a server.
///
/// Several connections to one `Server` (`session()`) see each other's changes, as
/// sessions on one account do (`InMemoryBackend` runs the `MailConnectionContract` so).
public final class InMemoryMailConnection: MailConnection {
    /// A message as the server keeps it.
    public struct StoredMessage {
        public var header: String
        public var body: String
        public var flags: Set<String> = []
        /// Keywords as stored (`no_push`), which read back as labels through `LabelCodec`;
        /// on Gmail (`X-GM-EXT-1` in the traits) labels as they are (`\Inbox`).
        public var labels: Set<String> = []
        public var internalDate: Int64?

        /// Creates a message.
        public init(header: String, body: String, flags: Set<String> = [], labels: Set<String> = [], internalDate: Int64? = nil) {
            self.header = header
            self.body = body
            self.flags = flags
            self.labels = labels
            self.internalDate = internalDate
        }
    }

    /// A mailbox: its UIDVALIDITY, the next UID, the messages by UID.
    public struct Mailbox {
        public var uidValidity: UInt32
        public var uidNext: UInt32 = 1
        public var messages: [UInt32: StoredMessage] = [:]

        /// Creates an empty mailbox.
        public init(uidValidity: UInt32) { self.uidValidity = uidValidity }
    }

    /// The account's state on the "server", shared by every session to it.
    public final class Server {
        public var mailboxes: [String: Mailbox] = [:]
        /// Folders by SPECIAL-USE attribute (`\Archive`, `\Trash`), as a LIST would mark them.
        public var specialUse: [String: String] = [:]
        /// What the server announces; by default MOVE and UIDPLUS, no SEARCH, any keyword.
        public var traits = ServerTraits(capabilities: ["IMAP4REV1", "MOVE", "UIDPLUS"], canSearch: false,
                                         fetchesTextPrefix: false, takesAnyKeyword: true, makesArchiveFolder: false)
        /// The body prefix a fetch brings at most (as IMAPSettings.bodyPrefixBytes).
        public var bodyPrefixBytes = 16 * 1024
        fileprivate var nextValidity: UInt32

        init(uidValidity: UInt32) { nextValidity = uidValidity + 1000 }
    }

    public let serverName = "memory.test"
    /// The server this session talks to.
    public let server: Server
    /// The server's mailboxes (the same for every session).
    public var mailboxes: [String: Mailbox] {
        get { server.mailboxes }
        set { server.mailboxes = newValue }
    }
    /// Calls that talk to the server, in order: `open INBOX`, `uids>3`, `fetch 1,2`,
    /// `store +label:x 1,2`, `move Archive 3`, `resume Archive 3`, `create Lists`.
    public private(set) var log: [String] = []
    /// Whether `open` reports UIDNEXT (some servers leave it out of SELECT).
    public var reportsUIDNext = true
    /// Answers a STORE with a tagged NO when this says so.
    public var refuses: (FlagChange, [UInt32]) -> Bool = { _, _ in false }
    /// Answers a MOVE to the folder with a tagged NO when this says so.
    public var refusesMove: (String) -> Bool = { _ in false }
    /// The journal's attempts a resumed move was given.
    public private(set) var resumedAttempts: [CopyAttempt] = []
    /// Notices the next `takeNotices()` returns (a test plays the server's surprises).
    public var notices: [String] = []
    private var current: String?
    private var readOnly = false

    /// A new server with an INBOX and `folders`, and a session to it.
    public init(uidValidity: UInt32 = 7, folders: [String] = []) {
        server = Server(uidValidity: uidValidity)
        server.mailboxes["INBOX"] = Mailbox(uidValidity: uidValidity)
        for folder in folders { server.mailboxes[folder] = Mailbox(uidValidity: uidValidity + 100) }
    }

    /// Another session to `server`.
    public init(server: Server) { self.server = server }

    /// Another session to the same server (nothing open, its own log).
    public func session() -> InMemoryMailConnection { InMemoryMailConnection(server: server) }

    /// Delivers a message to `mailbox`; returns its UID.
    @discardableResult
    public func deliver(subject: String, to mailbox: String = "INBOX", id: String? = nil, flags: Set<String> = [],
                        labels: Set<String> = [], arrived: Int64? = 1_700_000_000) -> UInt32 {
        let messageID = id ?? "m\(mailboxes[mailbox]!.uidNext)-\(mailbox)@memory.test"
        return deliver(StoredMessage(header: "Subject: \(subject)\r\nMessage-ID: <\(messageID)>\r\n\r\n",
                                     body: "Body of \(subject)\r\n", flags: flags, labels: labels, internalDate: arrived),
                       to: mailbox)
    }

    /// Delivers a whole message (header, empty line, body) to `mailbox`; returns its UID.
    @discardableResult
    public func deliver(raw: String, to mailbox: String = "INBOX", flags: Set<String> = [], arrived: Int64?) -> UInt32 {
        let end = raw.range(of: "\r\n\r\n")?.upperBound ?? raw.range(of: "\n\n")?.upperBound ?? raw.endIndex
        return deliver(StoredMessage(header: String(raw[..<end]), body: String(raw[end...]), flags: flags, internalDate: arrived),
                       to: mailbox)
    }

    private func deliver(_ message: StoredMessage, to mailbox: String) -> UInt32 {
        var box = mailboxes[mailbox]!
        let uid = box.uidNext
        box.messages[uid] = message
        box.uidNext += 1
        mailboxes[mailbox] = box
        return uid
    }

    /// Renumbers a mailbox as a server may: new UIDVALIDITY, UIDs from 1, same messages.
    public func renumber(_ mailbox: String = "INBOX", uidValidity: UInt32) {
        let old = mailboxes[mailbox]!
        var box = Mailbox(uidValidity: uidValidity)
        for uid in old.messages.keys.sorted() {
            box.messages[box.uidNext] = old.messages[uid]
            box.uidNext += 1
        }
        mailboxes[mailbox] = box
    }

    /// The subjects in a mailbox, by UID order.
    public func subjects(in mailbox: String) -> [String] {
        mailboxes[mailbox]!.messages.sorted { $0.key < $1.key }.map { subject(of: $0.value) }
    }

    /// The message with `uid` in `mailbox`, as stored.
    public func message(_ uid: UInt32, in mailbox: String = "INBOX") -> StoredMessage? {
        mailboxes[mailbox]?.messages[uid]
    }

    /// Forgets the calls logged so far.
    public func clearLog() { log = [] }

    private func subject(of message: StoredMessage) -> String {
        let line = message.header.split(separator: "\r\n").first { $0.hasPrefix("Subject: ") } ?? ""
        return String(line.dropFirst(9))
    }

    private func list(_ uids: [UInt32]) -> String { uids.map(String.init).joined(separator: ",") }

    // MARK: MailConnection

    public var traits: ServerTraits { server.traits }

    public func open(_ mailbox: String, readOnly: Bool) throws -> MailboxStatus {
        log.append("open \(mailbox)")
        guard let box = mailboxes[mailbox] else {
            throw MailError(.missingFolder, server: serverName, "mailbox \"\(mailbox)\" does not exist")
        }
        current = mailbox
        self.readOnly = readOnly
        return MailboxStatus(name: mailbox, uidValidity: box.uidValidity, uidNext: reportsUIDNext ? box.uidNext : 0,
                             exists: UInt32(box.messages.count), readOnly: readOnly)
    }

    public func uids(above uid: UInt32) throws -> [UInt32] {
        log.append("uids>\(uid)")
        return try open().messages.keys.filter { $0 > uid }.sorted()
    }

    /// As IMAP: the header (or only the fields asked for), the text only when asked,
    /// cut at the body prefix (and at `textPrefix` where the traits say so), in UID order.
    public func fetch(_ request: FetchRequest) throws -> [FetchedMessage] {
        let uids = request.uids, parts = request.parts
        log.append("fetch \(list(uids))" + (parts.contains(.text) ? "" : " header"))
        let box = try open()
        var limit = server.bodyPrefixBytes
        if let prefix = request.textPrefix, traits.fetchesTextPrefix { limit = min(limit, prefix) }
        return Set(uids).sorted().compactMap { uid in
            guard let m = box.messages[uid] else { return nil }
            let header = Array(m.header.utf8), body = Array(m.body.utf8)
            let fields = request.headerFields.flatMap { $0.isEmpty ? nil : $0 }
            let labels = traits.isGmail ? m.labels : Set(m.labels.map(LabelCodec.label(for:)))
            return FetchedMessage(uid: uid, flags: m.flags, labels: labels,
                                  size: header.count + body.count, internalDate: m.internalDate,
                                  header: fields.map { Self.only($0, of: m.header) } ?? header,
                                  bodyPrefix: parts.contains(.text) ? Array(body.prefix(limit)) : [], attachments: [])
        }
    }

    /// The header lines (with their continuations) of the named fields, and the empty line.
    private static func only(_ fields: [String], of header: String) -> [UInt8] {
        let wanted = Set(fields.map { $0.uppercased() })
        var kept = "", keeping = false
        for line in header.components(separatedBy: "\r\n") where !line.isEmpty {
            if line.first == " " || line.first == "\t" {
                if keeping { kept += line + "\r\n" }
                continue
            }
            let name = line.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            keeping = wanted.contains(name.uppercased())
            if keeping { kept += line + "\r\n" }
        }
        return Array((kept + "\r\n").utf8)
    }

    public func store(_ change: FlagChange, uids: [UInt32]) throws {
        let sign = change.operation == .add ? "+" : "-"
        let what = (change.flags.sorted() + change.labels.sorted().map { "label:" + $0 }).joined(separator: " ")
        log.append("store \(sign)\(what) \(list(uids))")
        if refuses(change, uids) {
            throw MailError(.refused, server: serverName, "STORE refused: NO [CANNOT] not for these messages")
        }
        let name = try openName()
        guard !readOnly else { throw MailError(.protocol, server: serverName, "STORE in a mailbox opened read-only") }
        let adding = change.operation == .add
        // Gmail keeps labels (X-GM-LABELS); elsewhere they are keywords, as IMAPConnection spells them.
        let keywords = traits.isGmail ? change.labels
            : Set(change.labels.flatMap { adding ? LabelCodec.keyword(for: $0).map { [$0] } ?? [] : LabelCodec.keywords(for: $0) })
        for uid in uids {
            guard var m = mailboxes[name]!.messages[uid] else { continue }
            if adding {
                m.flags.formUnion(change.flags)
                m.labels.formUnion(keywords)
            } else {
                m.flags.subtract(change.flags)
                m.labels.subtract(keywords)
            }
            mailboxes[name]!.messages[uid] = m
        }
    }

    public func move(_ uids: [UInt32], to folder: String, recorder: MoveRecorder?, resuming attempts: [CopyAttempt]?) throws -> MoveMethod {
        if let attempts {
            log.append("resume \(folder) \(list(uids))")
            resumedAttempts += attempts
        } else {
            log.append("move \(folder) \(list(uids))")
        }
        if refusesMove(folder) {
            throw MailError(.refused, server: serverName, "MOVE refused: NO [CANNOT] not into \(folder) now")
        }
        let name = try openName()
        guard mailboxes[folder] != nil else {
            throw MailError(.missingFolder, server: serverName, "folder \"\(folder)\" does not exist")
        }
        guard !readOnly else { throw MailError(.protocol, server: serverName, "MOVE in a mailbox opened read-only") }
        for uid in uids.sorted() {
            guard let m = mailboxes[name]!.messages.removeValue(forKey: uid) else { continue }
            mailboxes[folder]!.messages[mailboxes[folder]!.uidNext] = m
            mailboxes[folder]!.uidNext += 1
        }
        return .move
    }

    /// Every mailbox, INBOX first, as a LIST would give them.
    public func folderList() throws -> [String]? {
        ["INBOX"] + mailboxes.keys.filter { $0 != "INBOX" }.sorted()
    }

    public func specialUseFolder(_ attribute: String) throws -> String? {
        server.specialUse.first { $0.key.lowercased() == attribute.lowercased() }?.value
    }

    public func createFolder(_ name: String) throws {
        log.append("create \(name)")
        guard mailboxes[name] == nil else { return }
        mailboxes[name] = Mailbox(uidValidity: server.nextValidity)
        server.nextValidity += 1
    }

    public func takeNotices() -> [String] {
        defer { notices = [] }
        return notices
    }

    public func close() { current = nil }

    private func open() throws -> Mailbox { mailboxes[try openName()]! }

    private func openName() throws -> String {
        guard let current else { throw MailError(.protocol, server: serverName, "no mailbox is open") }
        return current
    }
}
