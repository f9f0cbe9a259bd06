/// What the server says about a mailbox when it is opened.
public struct MailboxStatus: Hashable, Sendable {
    /// The mailbox name as the user wrote it (`INBOX`, `Receipts`).
    public var name: String
    /// UIDVALIDITY: when it changes, every UID remembered for this mailbox is void.
    public var uidValidity: UInt32
    /// UIDNEXT: the UID the next delivered message will get (at least; it only grows).
    public var uidNext: UInt32
    /// How many messages the mailbox holds.
    public var exists: UInt32
    /// HIGHESTMODSEQ when the server has CONDSTORE, else nil.
    public var highestModSeq: UInt64?
    /// Whether the mailbox was opened read-only (EXAMINE, or the server refused writing).
    public var readOnly: Bool
    /// The keywords that may be set when the server allows only those (its
    /// PERMANENTFLAGS lack `\*`: Exchange, GNU Mailutils), or nil when any keyword
    /// can be created (PERMANENTFLAGS with `\*`, or none sent).
    public var allowedKeywords: Set<String>? = nil

    /// Creates a status.
    public init(name: String, uidValidity: UInt32, uidNext: UInt32, exists: UInt32,
                highestModSeq: UInt64? = nil, readOnly: Bool) {
        self.name = name
        self.uidValidity = uidValidity
        self.uidNext = uidNext
        self.exists = exists
        self.highestModSeq = highestModSeq
        self.readOnly = readOnly
    }
}
