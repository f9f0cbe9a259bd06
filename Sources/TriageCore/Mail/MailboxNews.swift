/// What a connection watching with NOTIFY (RFC 5465) was told since it was last
/// asked: which mailboxes have news, for `triage watch` to run their passes.
public struct MailboxNews: Equatable, Sendable {
    /// Mailboxes (as the rules name them) the server sent a STATUS notice for.
    public var mailboxes: Set<String> = []
    /// The selected mailbox changed while idling (EXISTS or EXPUNGE).
    public var selected = false
    /// The server said something that could not be tied to a mailbox (a name
    /// sent as a literal, too many notices to keep): every watched mailbox may
    /// have news.
    public var unclear = false

    /// No news.
    public init(mailboxes: Set<String> = [], selected: Bool = false, unclear: Bool = false) {
        self.mailboxes = mailboxes
        self.selected = selected
        self.unclear = unclear
    }

    /// Whether nothing was said.
    public var isEmpty: Bool { mailboxes.isEmpty && !selected && !unclear }
}
