/// What the history says of one sender or list: the counts a suggested rule's
/// comment and `--json` show.
public struct SuggestionEvidence: Sendable, Equatable {
    /// Messages received in the window.
    public var messages = 0
    /// Of them, `\Seen`.
    public var opened = 0
    /// `\Answered`, or answered from the Sent folder (In-Reply-To/References).
    public var answered = 0
    /// `\Flagged`.
    public var flagged = 0
    /// Messages with a List-Unsubscribe field.
    public var listUnsubscribe = 0
    /// Messages with List-Unsubscribe-Post (RFC 8058 one-click).
    public var listUnsubscribePost = 0
    /// Messages with List-Post (a discussion list).
    public var listPost = 0
    /// Messages with `Precedence: bulk`, `list` or `junk`.
    public var precedence = 0
    /// Messages with `Auto-Submitted` other than `no`.
    public var autoSubmitted = 0
    /// Messages from a no-reply or notifications address.
    public var noReply = 0
    /// Messages from a person the user writes to.
    public var fromPeople = 0
    /// How many messages are in each folder now.
    public var folders: [String: Int] = [:]
    /// Keywords (labels) on its messages, with counts.
    public var labels: [String: Int] = [:]
    /// Messages whose subject reads like a receipt or an invoice.
    public var receiptSubjects = 0
    /// The From addresses (lower-case), with counts.
    public var senders: [String: Int] = [:]
    /// The Precedence values seen (`bulk`, `list`, `junk`), with counts.
    public var precedenceValues: [String: Int] = [:]

    /// Creates empty counts.
    public init() {}

    /// The one address all its mail comes from, if there is one.
    public var onlySender: String? { senders.count == 1 ? senders.first?.key : nil }

    /// The Precedence value most of its mail has.
    public var mainPrecedence: String? { precedenceValues.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key }

    /// The folder most of its messages are in, and how many are there.
    public var mainFolder: (name: String, count: Int)? {
        folders.max { ($0.value, $1.key) < ($1.value, $0.key) }.map { ($0.key, $0.value) }
    }
}
