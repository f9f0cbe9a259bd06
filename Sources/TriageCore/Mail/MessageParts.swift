/// The parts of a message a fetch brings beyond the always-needed header block,
/// flags, size and arrival date.
///
/// The text prefix is most of what a fetch costs (bytes on the wire, the server
/// reading the files, the client parsing MIME), and rules that only look at
/// headers never need it. The run fetches what the rules need for every message,
/// and the text only for messages whose actions keep a snippet (queue, remind,
/// digest, webhook).
public struct MessageParts: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    /// Creates a set from its raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The MIME structure (IMAP BODYSTRUCTURE): attachment names, for `has:attachment` and `filename:`.
    public static let structure = MessageParts(rawValue: 1)
    /// A prefix of the body text: the snippet, for bare words and for records.
    public static let text = MessageParts(rawValue: 2)
    /// Everything a message can be classified and summarised from.
    public static let all: MessageParts = [.structure, .text]

    /// What an action needs of the message beyond what classified it: the text,
    /// for the snippet of the record it writes.
    public static func needed(by action: Action) -> MessageParts {
        switch action {
        case .queue, .remind, .followUp, .digest, .webhook, .snooze: return .text
        case .label, .unlabel, .move, .archive, .markRead, .markUnread, .flag, .stop: return []
        }
    }
}
