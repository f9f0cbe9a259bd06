import Foundation

/// What `triage suggest` learns from: the history of one or more accounts (INBOX,
/// the folders the user files into, and the Sent folder), the window it covers and
/// the moment it is read at. Pure data: `TriageApp` collects it, `RuleSuggester`
/// reads it.
public struct MailHistory: Sendable {
    /// Every message collected: received ones in the window, and the user's sent mail.
    public var messages: [HistoryMessage]
    /// How many days before `now` the window covers (`--days`).
    public var days: Int
    /// The moment the history is read at (`--now`).
    public var now: Date
    /// The user's own addresses besides `me =` (each account's login, for example).
    public var identities: [String]
    /// Folders that are no user's filing (archive, trash, junk, drafts, sent), as
    /// rules name them: mail ending up there says nothing about where a sender belongs.
    public var systemFolders: Set<String>
    /// Unsubscribes carried out (the store's `unsubscribe/done`): a list still sending
    /// after one (`still_sending` set) gets a rule that archives it.
    public var unsubscribes: [UnsubscribeRecord]

    /// Creates a history.
    public init(messages: [HistoryMessage], days: Int, now: Date, identities: [String] = [], systemFolders: Set<String> = [],
                unsubscribes: [UnsubscribeRecord] = []) {
        self.messages = messages
        self.days = days
        self.now = now
        self.identities = identities
        self.systemFolders = systemFolders
        self.unsubscribes = unsubscribes
    }

    /// The header fields suggest reads (upper-case, for an IMAP `HEADER.FIELDS` fetch).
    public static let headerFields = [
        "FROM", "SENDER", "REPLY-TO", "TO", "CC", "BCC", "SUBJECT", "DATE", "MESSAGE-ID", "IN-REPLY-TO", "REFERENCES",
        "LIST-ID", "LIST-POST", "LIST-UNSUBSCRIBE", "LIST-UNSUBSCRIBE-POST", "PRECEDENCE", "AUTO-SUBMITTED",
        "X-AUTO-RESPONSE-SUPPRESS", "DELIVERED-TO", "CONTENT-TYPE",
    ]

    /// The fields kept in `Message.headers` for the analysis (lower-case).
    public static let keptFields = ["list-post", "list-unsubscribe", "list-unsubscribe-post", "precedence",
                                    "auto-submitted", "x-auto-response-suppress"]

    /// The received messages dated within the window (a message without a date counts).
    public var received: [HistoryMessage] {
        let start = Int64(now.timeIntervalSince1970) - Int64(days) * 86_400
        return messages.filter { !$0.isSent && ($0.seconds.map { $0 >= start } ?? true) }
    }
}
