/// What makes a reminder a follow-up (`follow up in 3 days`): the message the user
/// sent, when, to whom, and, once an answer closed it, that answer. Kept in the
/// reminder's record (`"follow_up"`), so `done`, snooze, CalDAV and the lists treat it
/// as the reminder it is; `FollowUpTracker` closes it.
public struct FollowUp: Hashable, Sendable, Decodable {
    /// The sent message's Message-ID, without angle brackets.
    public var messageID: String
    /// When it was sent: its Date header, else the server's arrival date.
    public var sent: Timestamp
    /// The recipient as the title names them (display name, else address; one line).
    public var recipient: String
    /// The message whose In-Reply-To or References named it, once one closed it.
    public var answer: MessageSummary?

    enum CodingKeys: String, CodingKey {
        case messageID = "message_id"
        case sent, recipient, answer
    }

    /// Creates the facts.
    public init(messageID: String, sent: Timestamp, recipient: String, answer: MessageSummary? = nil) {
        self.messageID = messageID
        self.sent = sent
        self.recipient = recipient
        self.answer = answer
    }

    /// Ordered JSON, the record's keys.
    public var json: JSONValue {
        .object([
            ("message_id", .string(messageID)),
            ("sent", .string(sent.rfc3339)),
            ("recipient", .string(recipient)),
            ("answer", answer?.json ?? .null),
        ])
    }
}
