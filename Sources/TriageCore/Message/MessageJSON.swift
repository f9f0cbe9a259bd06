/// The JSON shape of a message for `triage inspect --json`: exactly these keys,
/// in this order (scripts and tests depend on it).
public enum MessageJSON {
    /// The documented keys, in output order.
    public static let keys = [
        "from", "to", "cc", "bcc", "reply_to", "subject", "date", "message_id", "in_reply_to",
        "list_id", "delivered_to", "attachments", "snippet", "size",
    ]

    /// One message as an ordered JSON object.
    public static func object(_ message: Message) -> JSONValue {
        .object([
            ("from", addresses(message.from)),
            ("to", addresses(message.to)),
            ("cc", addresses(message.cc)),
            ("bcc", addresses(message.bcc)),
            ("reply_to", addresses(message.replyTo)),
            ("subject", .optional(message.subject)),
            ("date", .optional(message.date?.rfc3339)),
            ("message_id", .optional(message.messageID)),
            ("in_reply_to", .optional(message.inReplyTo)),
            ("list_id", .optional(message.listID)),
            ("delivered_to", .array(message.deliveredTo.map(JSONValue.string))),
            ("attachments", .array(message.attachments.map(JSONValue.string))),
            ("snippet", .string(message.snippet)),
            ("size", .int(Int64(message.size))),
        ])
    }

    private static func addresses(_ list: [Address]) -> JSONValue {
        .array(list.map { .object([("name", .optional($0.name)), ("address", .string($0.address))]) })
    }
}
