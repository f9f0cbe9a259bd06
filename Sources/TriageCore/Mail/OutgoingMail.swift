/// Everything the composer needs to build one message; all values are plain
/// (decoded) text, and the caller injects the date and the Message-ID.
public struct OutgoingMail: Sendable, Hashable {
    /// The author (`From`) and envelope sender.
    public var from: Address
    /// The recipients (`To`) and envelope recipients.
    public var to: [Address]
    /// The subject, any Unicode; control characters are neutralised.
    public var subject: String
    /// The `Date` header: the instant and the UTC offset to show it in.
    public var date: MessageDate
    /// The Message-ID, with or without angle brackets, e.g. `digest-2026-11-30.a1b2@triage`.
    public var messageID: String
    /// The text/plain body; any line breaks (LF or CRLF).
    public var textBody: String
    /// The text/html body; when nil the message is a single text/plain part.
    public var htmlBody: String?
    /// Further header fields, written after the standard ones.
    public var extraHeaders: [HeaderField]
    /// `Reply-To`, where a reply goes instead of `From`; nil for none.
    public var replyTo: Address?

    /// Creates a message description.
    public init(from: Address, to: [Address], subject: String, date: MessageDate, messageID: String,
                textBody: String, htmlBody: String? = nil, extraHeaders: [HeaderField] = []) {
        self.from = from
        self.to = to
        self.subject = subject
        self.date = date
        self.messageID = messageID
        self.textBody = textBody
        self.htmlBody = htmlBody
        self.extraHeaders = extraHeaders
    }
}
