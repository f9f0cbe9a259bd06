/// Something to be reminded of on a day (optionally at a time) or at a place:
/// made by a `remind` action from mail, or by `triage remind add`.
public struct Reminder: StoreRecord, Hashable {
    public static let kindFolder = "reminders"
    public static let statusFolders = WorkStatus.allCases.map(\.rawValue)
    public static let activeFolder = WorkStatus.open.rawValue
    public static let noun = "reminder"

    /// The full id (see `RecordID`; random for a reminder added by hand).
    public var id: String
    /// What to do.
    public var title: String
    /// An optional note.
    public var note: String?
    /// The day it is due.
    public var due: CivilDate
    /// Open, done or removed.
    public var status: WorkStatus
    /// When it was made.
    public var created: Timestamp
    /// When the status last changed (nil while it has never changed).
    public var statusChanged: Timestamp?
    /// The rule that made it, when it came from mail.
    public var rule: String?
    /// The message it came from, if any.
    public var message: MessageSummary?

    /// Optional time of day on the due day.
    public var at: TimeOfDay?
    /// Optional geofence.
    public var place: Place?
    /// Set for a follow-up on a message the user sent (`follow up in 3 days`).
    public var followUp: FollowUp?

    enum CodingKeys: String, CodingKey {
        case id, title, note, due, at, place, status, created
        case statusChanged = "status_changed"
        case rule, message
        case followUp = "follow_up"
    }

    /// The stored form of a place, in the record's snake_case style.
    private struct StoredPlace: Decodable {
        var latitude: Double
        var longitude: Double
        var radius_m: Double
        var proximity: Proximity
        var title: String?
    }

    /// Creates a reminder.
    public init(id: String, title: String, note: String? = nil, due: CivilDate, at: TimeOfDay? = nil,
                place: Place? = nil, status: WorkStatus = .open, created: Timestamp,
                statusChanged: Timestamp? = nil, rule: String? = nil, message: MessageSummary? = nil,
                followUp: FollowUp? = nil) {
        self.id = id
        self.title = title
        self.note = note
        self.due = due
        self.at = at
        self.place = place
        self.status = status
        self.created = created
        self.statusChanged = statusChanged
        self.rule = rule
        self.message = message
        self.followUp = followUp
    }

    /// A reminder from a spec: due `spec.due` counted from `today` (today when absent).
    public init(id: String, spec: ReminderSpec, today: CivilDate, created: Timestamp,
                rule: String? = nil, message: MessageSummary? = nil) {
        self.init(id: id, title: spec.title, note: spec.note, due: spec.due?.resolve(today: today) ?? today,
                  at: spec.at, place: spec.place, created: created, rule: rule, message: message)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        title = try c.decode(String.self, forKey: .title)
        note = try c.decodeIfPresent(String.self, forKey: .note)
        due = try c.decode(CivilDate.self, forKey: .due)
        at = try c.decodeIfPresent(TimeOfDay.self, forKey: .at)
        place = try c.decodeIfPresent(StoredPlace.self, forKey: .place).map {
            Place(latitude: $0.latitude, longitude: $0.longitude, radiusMeters: $0.radius_m,
                  proximity: $0.proximity, title: $0.title)
        }
        status = try c.decode(WorkStatus.self, forKey: .status)
        created = try c.decode(Timestamp.self, forKey: .created)
        statusChanged = try c.decodeIfPresent(Timestamp.self, forKey: .statusChanged)
        rule = try c.decodeIfPresent(String.self, forKey: .rule)
        message = try c.decodeIfPresent(MessageSummary.self, forKey: .message)
        followUp = try c.decodeIfPresent(FollowUp.self, forKey: .followUp)
    }

    public var statusFolder: String { status.rawValue }

    public var candidateLabel: String { "due \(due.iso): \(title) [\(status.rawValue)]" }

    public var json: JSONValue {
        .object([
            ("id", .string(id)),
            ("title", .string(title)),
            ("note", .optional(note)),
            ("due", .string(due.iso)),
            ("at", .optional(at?.description)),
            ("place", place.map {
                .object([("latitude", .double($0.latitude)), ("longitude", .double($0.longitude)),
                         ("radius_m", .double($0.radiusMeters)), ("proximity", .string($0.proximity.rawValue)),
                         ("title", .optional($0.title))])
            } ?? .null),
            ("status", .string(status.rawValue)),
            ("created", .string(created.rfc3339)),
            ("status_changed", .optional(statusChanged?.rfc3339)),
            ("rule", .optional(rule)),
            ("message", message?.json ?? .null),
        ] + (followUp.map { [("follow_up", $0.json)] } ?? []))
    }
}
