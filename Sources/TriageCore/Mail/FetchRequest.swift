/// What one fetch asks of the open mailbox: which messages, and how much of each.
///
/// The one fetch a `MailConnection` implements (`fetch(_:)`); the shorter call shapes
/// (`fetch(_:parts:)`, `fetch(_:textPrefix:)`, ...) in the protocol's extension build one.
/// A connection that cannot leave anything out (a Maildir reads the whole file anyway)
/// may bring more than asked, never less: the header, flags, size and arrival date
/// always come.
public struct FetchRequest: Hashable, Sendable {
    /// The UIDs to fetch; one that no longer exists is simply absent from the answer.
    public var uids: [UInt32]
    /// The parts beyond header, flags, size and arrival date (`.all`: the MIME structure
    /// and a prefix of the text).
    public var parts: MessageParts
    /// Only these header fields (upper-case, `CompiledRules.neededHeaderFields`) in
    /// `FetchedMessage.header` instead of the whole header block (IMAP `HEADER.FIELDS`);
    /// nil or empty for the whole header. With `.text` in `parts`, name the Content-*
    /// fields the text's MIME parse needs too.
    public var headerFields: [String]?
    /// At most this many bytes of each message's text, below the connection's own
    /// prefix length (for a record's snippet); nil for the connection's prefix length.
    /// Honoured where `ServerTraits.fetchesTextPrefix` says so.
    public var textPrefix: Int?

    /// Creates a request; by default everything of each message.
    public init(_ uids: [UInt32], parts: MessageParts = .all, headerFields: [String]? = nil, textPrefix: Int? = nil) {
        self.uids = uids
        self.parts = parts
        self.headerFields = headerFields
        self.textPrefix = textPrefix
    }
}
