/// One message as fetched from the server: the server's facts plus the raw bytes
/// the parser needs, not yet parsed (`TriageMIME.MessageParser` does that).
public struct FetchedMessage: Hashable, Sendable {
    /// The UID in the open mailbox.
    public var uid: UInt32
    /// System flags as the server spells them (`\Seen`, `\Flagged`, ...).
    public var flags: Set<String>
    /// Keywords (or Gmail labels) decoded back to what the user wrote (`no push`).
    public var labels: Set<String>
    /// RFC822.SIZE: the size of the whole message in bytes, not of `bytes`.
    public var size: Int
    /// INTERNALDATE, seconds since 1970 (UTC), if the server sent one.
    public var internalDate: Int64?
    /// The complete header block, ending with the empty line.
    public var header: [UInt8]
    /// The start of the body (up to the connection's body prefix length).
    public var bodyPrefix: [UInt8]
    /// Attachment names from the server's view of the MIME structure (IMAP
    /// BODYSTRUCTURE), complete even when `bodyPrefix` is cut short, already decoded
    /// as the message parser decodes them; nil when the source cannot tell (then
    /// parse `bytes`).
    public var attachments: [String]?

    /// Creates a fetched message.
    public init(uid: UInt32, flags: Set<String> = [], labels: Set<String> = [], size: Int = 0,
                internalDate: Int64? = nil, header: [UInt8] = [], bodyPrefix: [UInt8] = [],
                attachments: [String]? = nil) {
        self.uid = uid
        self.flags = flags
        self.labels = labels
        self.size = size
        self.internalDate = internalDate
        self.header = header
        self.bodyPrefix = bodyPrefix
        self.attachments = attachments
    }

    /// Header and body prefix joined: what the message parser reads.
    /// (A header-only fetch shares the header's storage: no copy.)
    public var bytes: [UInt8] { bodyPrefix.isEmpty ? header : header + bodyPrefix }

    /// Whether `bodyPrefix` is the whole body (the message was short enough).
    public var isComplete: Bool { header.count + bodyPrefix.count >= size }

    /// The server facts for `Message.server`, for a given account and mailbox.
    public func serverFacts(account: String?, mailbox: String) -> ServerFacts {
        var facts = ServerFacts()
        facts.account = account
        facts.mailbox = mailbox
        facts.uid = uid
        facts.flags = flags
        facts.labels = labels
        facts.internalDate = internalDate
        return facts
    }
}
