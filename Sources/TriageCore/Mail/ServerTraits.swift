/// What a mail connection's server can do, for what depends on the kind of server:
/// Gmail's labels, IDLE and NOTIFY for `watch`, MOVE and UIDPLUS for moves, SEARCH
/// narrowing, keywords, a shorter text. Read once per connection (`MailConnection.traits`),
/// so the callers never ask which concrete connection they hold.
public struct ServerTraits: Hashable, Sendable {
    /// The server's capabilities after login, upper-case (`MOVE`, `X-GM-EXT-1`); empty
    /// for a Maildir.
    public var capabilities: Set<String>
    /// Whether `MailConnection.search` asks a server (IMAP); false for a Maildir, which
    /// reads every file anyway.
    public var canSearch: Bool
    /// Whether a `FetchRequest.textPrefix` fetches fewer bytes (IMAP's partial
    /// `BODY.PEEK[TEXT]<0.N>`); false where the whole file is read anyway.
    public var fetchesTextPrefix: Bool
    /// Whether every mailbox takes any keyword (a Maildir); false when the mailbox's
    /// PERMANENTFLAGS decide, which only a read-write open tells
    /// (`MailboxStatus.allowedKeywords`).
    public var takesAnyKeyword: Bool
    /// Whether the default archive folder is made by the first run that archives
    /// (`MailConnection.archiveFolder(create:)`, a Maildir's `Archive`) rather than
    /// looked up on the server.
    public var makesArchiveFolder: Bool

    /// Creates traits.
    public init(capabilities: Set<String> = [], canSearch: Bool = false, fetchesTextPrefix: Bool = false,
                takesAnyKeyword: Bool = true, makesArchiveFolder: Bool = false) {
        self.capabilities = capabilities
        self.canSearch = canSearch
        self.fetchesTextPrefix = fetchesTextPrefix
        self.takesAnyKeyword = takesAnyKeyword
        self.makesArchiveFolder = makesArchiveFolder
    }

    /// A local store with no server behind it: no capabilities, no SEARCH, whole files.
    public static let local = ServerTraits()

    /// Gmail (`X-GM-EXT-1`): labels through X-GM-LABELS, `\Important`, no Sieve.
    public var isGmail: Bool { capabilities.contains("X-GM-EXT-1") }
    /// IMAP IDLE (RFC 2177): the server says when a mailbox changes.
    public var hasIdle: Bool { capabilities.contains("IDLE") }
    /// IMAP NOTIFY (RFC 5465): one connection hears of changes in every mailbox.
    public var hasNotify: Bool { capabilities.contains("NOTIFY") }
    /// IMAP MOVE (RFC 6851): moves are atomic.
    public var hasMove: Bool { capabilities.contains("MOVE") }
    /// IMAP UIDPLUS (RFC 4315): given UIDs can be expunged alone, copies are reported.
    public var hasUIDPlus: Bool { capabilities.contains("UIDPLUS") }
}
