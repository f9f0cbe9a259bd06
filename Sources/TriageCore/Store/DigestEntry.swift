/// A message to report once in the daily digest, under a section heading.
public struct DigestEntry: StoreRecord, Hashable {
    public static let kindFolder = "digest"
    /// `pending` until a digest has reported it, then `reported`.
    public static let statusFolders = ["pending", "reported"]
    public static let activeFolder = "pending"
    public static let noun = "digest entry"

    /// The full id (see `RecordID`).
    public var id: String
    /// The digest section (`newsletters`).
    public var section: String
    /// When it was made.
    public var created: Timestamp
    /// The digest day it was reported in, or nil while it waits.
    public var reported: CivilDate?
    /// The rule that made it.
    public var rule: String
    /// The message.
    public var message: MessageSummary

    /// Creates an entry.
    public init(id: String, section: String, created: Timestamp, reported: CivilDate? = nil,
                rule: String, message: MessageSummary) {
        self.id = id
        self.section = section
        self.created = created
        self.reported = reported
        self.rule = rule
        self.message = message
    }

    public var statusFolder: String { reported == nil ? "pending" : "reported" }

    public var candidateLabel: String { "\(section): \(message.subject ?? "(no subject)")" }

    public var json: JSONValue {
        .object([
            ("id", .string(id)),
            ("section", .string(section)),
            ("created", .string(created.rfc3339)),
            ("reported", .optional(reported?.iso)),
            ("rule", .string(rule)),
            ("message", message.json),
        ])
    }
}
