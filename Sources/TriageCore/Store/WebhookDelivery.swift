/// A `webhook` action waiting to be POSTed, or done: the outbox that makes a failed
/// webhook retry on the next run without ever holding up the mail actions.
public struct WebhookDelivery: StoreRecord, Hashable {
    public static let kindFolder = "webhooks"
    /// `pending` until a POST succeeded, then `delivered`; `failed` once given up
    /// (`WebhookPolicy.maxAttempts` failed attempts).
    public static let statusFolders = ["pending", "delivered", "failed"]
    public static let activeFolder = "pending"
    public static let noun = "webhook"

    /// The full id (see `RecordID`): the same message through the same rule posts once.
    public var id: String
    /// Where to POST.
    public var url: String
    /// When the action was planned.
    public var created: Timestamp
    /// The rule that asked for it.
    public var rule: String
    /// What is posted.
    public var message: MessageSummary
    /// Failed attempts so far.
    public var attempts: Int = 0
    /// Why the last attempt failed (host and reason, never the URL's secret parts).
    public var lastError: String?
    /// When it was delivered, or nil while pending.
    public var delivered: Timestamp?
    /// Not to be tried before this (backoff after a failure); nil: at the next run.
    /// Optional in the file: records written before it existed have none.
    public var nextAttempt: Timestamp?
    /// When triage gave up on it (it is then in `failed`), or nil.
    public var gaveUp: Timestamp?

    enum CodingKeys: String, CodingKey {
        case id, url, created, rule, message, attempts
        case lastError = "last_error"
        case delivered
        case nextAttempt = "next_attempt"
        case gaveUp = "gave_up"
    }

    /// Creates a pending delivery.
    public init(id: String, url: String, created: Timestamp, rule: String, message: MessageSummary) {
        self.id = id
        self.url = url
        self.created = created
        self.rule = rule
        self.message = message
    }

    public var statusFolder: String { delivered != nil ? "delivered" : gaveUp != nil ? "failed" : "pending" }

    /// The JSON body: IFTTT's `value1`...`value3` (sender, subject, snippet) so a Maker
    /// webhook can use it as is, then the rule and the full message summary.
    public var payload: String {
        JSONValue.object([
            ("value1", .string(message.senderLabel)),
            ("value2", .string(message.subject ?? "")),
            ("value3", .string(message.snippet)),
            ("rule", .string(rule)),
            ("message", message.json),
        ]).serialized
    }

    public var json: JSONValue {
        .object([
            ("id", .string(id)),
            ("url", .string(url)),
            ("created", .string(created.rfc3339)),
            ("rule", .string(rule)),
            ("attempts", .int(Int64(attempts))),
            ("last_error", .optional(lastError)),
            ("delivered", .optional(delivered?.rfc3339)),
            ("next_attempt", .optional(nextAttempt?.rfc3339)),
            ("gave_up", .optional(gaveUp?.rfc3339)),
            ("message", message.json),
        ])
    }
}
