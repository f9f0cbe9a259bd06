/// One message of the mailbox's history as `triage suggest` reads it: its header
/// (parsed, with the fields suggest looks at kept in `Message.headers`), its flags and
/// keywords, and the folder it is in now, which says where the user filed it.
public struct HistoryMessage: Sendable {
    /// The parsed header; `server` carries the flags, keywords and folder.
    public var message: Message
    /// Whether it is the user's own mail (from the Sent folder): it says whom the user
    /// writes to and which messages were answered, and is never a rule's target.
    public var isSent: Bool

    /// Creates one; `message.server.mailbox` is the folder it is in (as rules name folders).
    public init(message: Message, isSent: Bool = false) {
        self.message = message
        self.isSent = isSent
    }

    /// The folder it is in, as rules name folders (`INBOX`, `Lists/dev`).
    public var folder: String { message.server.mailbox ?? "INBOX" }
    /// `\Seen`: the user opened it.
    public var isSeen: Bool { message.server.isSeen }
    /// `\Answered`.
    public var isAnswered: Bool { message.server.flags.contains("\\Answered") }
    /// `\Flagged`.
    public var isFlagged: Bool { message.server.isFlagged }

    /// Its date (the `Date:` header, else the arrival date), seconds since 1970.
    public var seconds: Int64? { message.date?.secondsSince1970 ?? message.server.internalDate }

    /// The first value of a header field kept in `message.headers`, by name without case.
    public func header(_ name: String) -> String? {
        message.headers.first { $0.name.lowercased() == name }?.value
    }
}
