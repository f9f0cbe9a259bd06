/// One mail message as every part of triage sees it: rules match on it, the store
/// summarises it, the digest shows it.
///
/// Header facts come from parsing the RFC 5322 / MIME bytes; server facts (flags,
/// keywords, mailbox, UID) are filled in by the IMAP or Maildir reader and stay
/// empty for a message read from a file.
public struct Message: Hashable, Sendable {
    /// `From:` mailboxes.
    public var from: [Address] = []
    /// `To:` mailboxes, groups flattened; of every `To:` field, in order (as for `cc`, `bcc`).
    public var to: [Address] = []
    /// `Cc:` mailboxes, of every `Cc:` field.
    public var cc: [Address] = []
    /// `Bcc:` mailboxes, of every `Bcc:` field.
    public var bcc: [Address] = []
    /// `Reply-To:` mailboxes.
    public var replyTo: [Address] = []
    /// The decoded, unfolded subject, or nil when there is no Subject header.
    public var subject: String?
    /// The Date header, or nil when absent or unreadable.
    public var date: MessageDate?
    /// Message-ID without angle brackets.
    public var messageID: String?
    /// The first In-Reply-To id, without angle brackets.
    public var inReplyTo: String?
    /// References ids, in order, without angle brackets.
    public var references: [String] = []
    /// The id inside the angle brackets of `List-Id:`.
    public var listID: String?
    /// Every `Delivered-To:` address, in header order.
    public var deliveredTo: [String] = []
    /// Header fields kept for `header:` terms: only those the parser was asked to keep
    /// (`CompiledRules.headerNames`), every occurrence, values decoded, in header order.
    public var headers: [HeaderField] = []
    /// File names of parts that are attachments (disposition attachment, or a file name).
    public var attachments: [String] = []
    /// About the first 200 characters of readable text, whitespace collapsed.
    public var snippet: String = ""
    /// The size of the raw message in bytes.
    public var size: Int = 0
    /// A stable hash of the header block, used as identity when Message-ID is missing.
    public var headerHash: String = ""
    /// `List-Unsubscribe` and what vouches for it, when the message has that field.
    public var unsubscribeHeaders: UnsubscribeHeaders?
    /// What the digest may offer to unsubscribe from: set by the run from
    /// `unsubscribeHeaders` and the account's `authserv_id`, kept in the summary.
    public var unsubscribe: UnsubscribeOffer?

    /// Server-side facts; empty for a message read from a file.
    public var server = ServerFacts()

    /// Creates an empty message (every field has a default).
    public init() {}

    /// The first From mailbox, if any.
    public var sender: Address? { from.first }

    /// Whether any part is an attachment.
    public var hasAttachment: Bool { !attachments.isEmpty }
}

/// What the server knows about a message and the message itself does not carry.
public struct ServerFacts: Hashable, Sendable {
    /// The account name from the configuration, or nil for a file.
    public var account: String?
    /// The mailbox (IMAP folder) the message is in.
    public var mailbox: String?
    /// The IMAP UID (or Maildir sequence) within the mailbox.
    public var uid: UInt32?
    /// System flags such as `\Seen`, `\Flagged`, as the server spells them.
    public var flags: Set<String> = []
    /// Keywords or Gmail labels, decoded to what the user wrote (`no push`).
    public var labels: Set<String> = []
    /// The server's INTERNALDATE, seconds since 1970.
    public var internalDate: Int64?

    /// Creates empty facts.
    public init() {}

    /// Whether the message has been read (`\Seen`).
    public var isSeen: Bool { flags.contains("\\Seen") }
    /// Whether the message is flagged (`\Flagged`, "starred").
    public var isFlagged: Bool { flags.contains("\\Flagged") }
}
