/// What a record keeps of the message it was made from: enough to show it in a
/// list or digest and to find it again in the mailbox.
public struct MessageSummary: Hashable, Sendable, Decodable {
    /// The first From mailbox.
    public var from: Address?
    /// The subject.
    public var subject: String?
    /// The Date header, RFC 3339 in the sender's offset.
    public var date: String?
    /// Message-ID without angle brackets.
    public var messageID: String?
    /// The account name from the configuration.
    public var account: String?
    /// The mailbox the message was in when it was handled.
    public var mailbox: String?
    /// Its UID then (may change if the server renumbers; identity never uses it).
    public var uid: UInt32?
    /// About the first 200 characters of text.
    public var snippet: String
    /// The List-Id, when the message came from a mailing list (for the digest's
    /// groups; absent in records made before it was kept).
    public var list: String?
    /// What the message offers to unsubscribe with (List-Unsubscribe, one-click and
    /// whether the account's server vouched for it); absent for other mail and in
    /// records made before it was kept.
    public var unsubscribe: UnsubscribeOffer?

    enum CodingKeys: String, CodingKey {
        case from, subject, date
        case messageID = "message_id"
        case account, mailbox, uid, snippet, list, unsubscribe
    }

    /// Creates a summary from its fields.
    public init(from: Address? = nil, subject: String? = nil, date: String? = nil, messageID: String? = nil,
                account: String? = nil, mailbox: String? = nil, uid: UInt32? = nil, snippet: String = "", list: String? = nil) {
        self.from = from
        self.subject = subject
        self.date = date
        self.messageID = messageID
        self.account = account
        self.mailbox = mailbox
        self.uid = uid
        self.snippet = snippet
        self.list = list
    }

    /// The summary of a parsed message.
    public init(_ message: Message) {
        self.init(from: message.sender, subject: message.subject, date: message.date?.rfc3339,
                  messageID: message.messageID, account: message.server.account,
                  mailbox: message.server.mailbox, uid: message.server.uid, snippet: message.snippet, list: message.listID)
        unsubscribe = message.unsubscribe
    }

    /// The sender for a list column: the display name, else the address; the address
    /// also when the name shows another domain (`Address.impersonatedDomain`), so a
    /// name such as "statements@bank.example" never stands for the sender.
    public var senderLabel: String {
        guard let from else { return "" }
        if let name = from.name, !name.isEmpty, from.impersonatedDomain == nil { return name }
        return from.address
    }

    /// Ordered JSON, the same keys as the record file.
    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("from", from.map { .object([("name", .optional($0.name)), ("address", .string($0.address))]) } ?? .null),
            ("subject", .optional(subject)),
            ("date", .optional(date)),
            ("message_id", .optional(messageID)),
            ("account", .optional(account)),
            ("mailbox", .optional(mailbox)),
            ("uid", uid.map { .int(Int64($0)) } ?? .null),
            ("snippet", .string(snippet)),
        ]
        // Only when there is one, so records of other mail read as before.
        if let list { fields.append(("list", .string(list))) }
        if let unsubscribe { fields.append(("unsubscribe", unsubscribe.json)) }
        return .object(fields)
    }
}
