/// A snoozed message: when it wakes, and whether it has. Written (with the batch's
/// other records) before the message is moved to the snoozed folder, so a crash
/// never leaves a snoozed message that nobody will wake; named by Message-ID and
/// rule (`RecordID`), so a message that came back is never snoozed again by that rule.
public struct SnoozeRecord: StoreRecord, Hashable {
    public static let kindFolder = "snooze"
    /// `snoozed` until the message is back in INBOX, then `woken`.
    public static let statusFolders = ["snoozed", "woken"]
    public static let activeFolder = "snoozed"
    public static let noun = "snoozed message"
    /// The folder snoozed mail waits in when `[account] snoozed` names none.
    public static let defaultFolder = "Snoozed"
    /// The `rule` of a snooze a digest reply asked for.
    public static let replyRule = "digest reply"

    /// The full id (see `RecordID`).
    public var id: String
    /// When it was snoozed.
    public var created: Timestamp
    /// When it comes back.
    public var wake: Timestamp
    /// When it came back (nil while snoozed).
    public var woken: Timestamp?
    /// What the wake found: nil when it brought the message back, else why not
    /// (it was no longer in the snoozed folder).
    public var wakeNote: String?
    /// The rule that snoozed it (`replyRule` for a digest reply).
    public var rule: String
    /// True while a digest reply's snooze waits to be put away (the message still in its
    /// mailbox); nil once it is in the snoozed folder (a rule's snooze moves it at once).
    public var pending: Bool?
    /// The message; `account` and `messageID` find it again.
    public var message: MessageSummary

    enum CodingKeys: String, CodingKey {
        case id, created, wake, woken
        case wakeNote = "wake_note"
        case rule, message, pending
    }

    /// Creates a record of a message snoozed until `wake`.
    public init(id: String, created: Timestamp, wake: Timestamp, rule: String, message: MessageSummary) {
        self.id = id
        self.created = created
        self.wake = wake
        self.rule = rule
        self.message = message
    }

    public var statusFolder: String { woken == nil ? "snoozed" : "woken" }

    /// Whether it is due to wake at `now` (seconds since 1970).
    public func isDue(at seconds: Int64) -> Bool { woken == nil && pending != true && wake.secondsSince1970 <= seconds }

    public var candidateLabel: String { "until \(wake.rfc3339): \(message.subject ?? "(no subject)")" }

    public var json: JSONValue {
        .object([
            ("id", .string(id)),
            ("created", .string(created.rfc3339)),
            ("wake", .string(wake.rfc3339)),
            ("woken", .optional(woken?.rfc3339)),
            ("wake_note", .optional(wakeNote)),
            ("rule", .string(rule)),
            ("message", message.json),
        ] + (pending == true ? [("pending", .bool(true))] : []))
    }
}
