/// A message put in a named queue by a `queue` action: something to act on by a day.
public struct QueueEntry: StoreRecord, Hashable {
    public static let kindFolder = "queue"
    public static let statusFolders = WorkStatus.allCases.map(\.rawValue)
    public static let activeFolder = WorkStatus.open.rawValue
    public static let noun = "queue entry"

    /// The full id (see `RecordID`).
    public var id: String
    /// The queue name (`rec`, `reply`).
    public var queue: String
    /// When it was made.
    public var created: Timestamp
    /// The day it is due.
    public var due: CivilDate
    /// Open, done or removed.
    public var status: WorkStatus
    /// When the status last changed (nil while it has never changed).
    public var statusChanged: Timestamp?
    /// The rule that made it.
    public var rule: String
    /// The message it was made from.
    public var message: MessageSummary
    /// A title set on the phone (CalDAV sync), shown instead of `[queue] subject`; nil: that default.
    public var title: String?
    /// A note set on the phone (CalDAV sync).
    public var note: String?
    /// When the title, note or due day last changed (nil while never): with
    /// `statusChanged`, the record's own change time that the sync's newer-wins rule compares.
    public var changed: Timestamp?

    enum CodingKeys: String, CodingKey {
        case id, queue, created, due, status
        case statusChanged = "status_changed"
        case rule, message, title, note, changed
    }

    /// Creates an entry.
    public init(id: String, queue: String, created: Timestamp, due: CivilDate, status: WorkStatus = .open,
                statusChanged: Timestamp? = nil, rule: String, message: MessageSummary) {
        self.id = id
        self.queue = queue
        self.created = created
        self.due = due
        self.status = status
        self.statusChanged = statusChanged
        self.rule = rule
        self.message = message
    }

    public var statusFolder: String { status.rawValue }

    /// The title its task shows: the one set on the phone, else `[queue] subject`.
    public var taskTitle: String { title ?? "[\(queue)] " + (message.subject ?? "(no subject)") }

    /// When the record last changed in any way: its fields, its status, else its making.
    public var lastChanged: Timestamp {
        [changed, statusChanged].compactMap { $0 }.max { $0.secondsSince1970 < $1.secondsSince1970 } ?? created
    }

    public var candidateLabel: String { "\(queue), due \(due.iso): \(message.subject ?? "(no subject)") [\(status.rawValue)]" }

    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("id", .string(id)),
            ("queue", .string(queue)),
            ("created", .string(created.rfc3339)),
            ("due", .string(due.iso)),
            ("status", .string(status.rawValue)),
            ("status_changed", .optional(statusChanged?.rfc3339)),
            ("rule", .string(rule)),
            ("message", message.json),
        ]
        // Only when set (by a CalDAV sync), so entries without them print as before.
        if let title { fields.append(("title", .string(title))) }
        if let note { fields.append(("note", .string(note))) }
        if let changed { fields.append(("changed", .string(changed.rfc3339))) }
        return .object(fields)
    }
}
