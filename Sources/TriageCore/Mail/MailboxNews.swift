/// What a connection watching with NOTIFY (RFC 5465) was told since it was last
/// asked: which mailboxes have news, for `triage watch` to run their passes.
public struct MailboxNews: Equatable, Sendable {
    /// Mailboxes (as the rules name them) with new mail or other changes: those the
    /// server sent a STATUS notice for, and the open one on EXISTS.
    public var mailboxes: Set<String> = []
    /// The server said something that could not be tied to a mailbox (a name
    /// sent as a literal, too many notices to keep): every watched mailbox may
    /// have news.
    public var unclear = false

    /// News of these mailboxes.
    public init(mailboxes: Set<String> = [], unclear: Bool = false) {
        self.mailboxes = mailboxes
        self.unclear = unclear
    }

    /// Whether nothing was said.
    public var isEmpty: Bool { mailboxes.isEmpty && !unclear }
}
