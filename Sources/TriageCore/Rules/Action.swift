/// What a rule does to a message it matches. Strings may hold `{subject}`-style
/// placeholders until the evaluator expands them for a given message.
///
/// How to add an action: add the case here, then build. Each concern is one
/// switch on the action without `default:`, so the compiler names every one:
/// `word` (its `ActionWord`), `storeEffect` (the record it writes), `serverEffect`
/// (what it asks of the server), `MessageParts.needed(by:)` (the parts it needs
/// fetched), `RuleEvaluator.expand` (its placeholders) and `.exclusiveGroup` (what
/// it conflicts with), `RecordID.actionKey` (its part of a record's identity) and
/// `ActionFormatter` (its text and JSON). A new word is an `ActionWord` entry, read by
/// `RuleParser.parseAction`; docs/rules.md and man/triage-rules.5 are checked against
/// that table (`OperatorTableTests`, `ManPageTests`); add a case to
/// `Tests/TriageCoreTests/RuleCases`. `StoreBatch`, `ServerPlan` and `MailboxRunner`
/// read the effects and need no change unless the action brings a new kind of effect.
public enum Action: Hashable, Sendable {
    /// Add a server label or keyword.
    case label(String)
    /// Remove a server label or keyword.
    case unlabel(String)
    /// Move to a folder.
    case move(String)
    /// Out of the inbox: on Gmail the `\Inbox` label is removed, elsewhere the
    /// message moves to the account's archive folder (`ArchiveTarget`).
    case archive
    /// Mark read (`\Seen`).
    case markRead
    /// Mark unread.
    case markUnread
    /// Flag (`\Flagged`, "star").
    case flag
    /// Put a queue entry in queue `name`, due in `inDays` days (nil: today).
    case queue(name: String, inDays: Int?)
    /// Make a reminder.
    case remind(ReminderSpec)
    /// Make a follow-up reminder for a message the user sent, due after `FollowUpSpec`
    /// counted from its sending, closed by an answer (`FollowUpTracker`).
    case followUp(FollowUpSpec)
    /// Report the message once in the digest, in `section`.
    case digest(section: String)
    /// POST the message summary as JSON to `url`.
    case webhook(url: String)
    /// Stop evaluating further rules for this message.
    case stop
    /// Out of the inbox into the account's `snoozed` folder until a time, then back
    /// into INBOX, unread (`SnoozeRecord`, `SnoozeWake`).
    case snooze(SnoozeSpec)
}

/// A reminder as written in a rule or on the command line, before it is made a record.
public struct ReminderSpec: Hashable, Sendable {
    /// The title (may contain placeholders in a rule).
    public var title: String
    /// When it is due; nil means today.
    public var due: DueSpec?
    /// Optional time of day.
    public var at: TimeOfDay?
    /// Optional place that triggers it.
    public var place: Place?
    /// Optional note.
    public var note: String?

    /// Creates a spec.
    public init(title: String, due: DueSpec? = nil, at: TimeOfDay? = nil, place: Place? = nil, note: String? = nil) {
        self.title = title
        self.due = due
        self.at = at
        self.place = place
        self.note = note
    }
}

/// `in N days` (`tomorrow`, `in N weeks`), `on YYYY-MM-DD` or `next WEEKDAY`.
public enum DueSpec: Hashable, Sendable {
    /// N calendar days after the day the message is handled (or the command runs).
    case inDays(Int)
    /// A fixed date.
    case on(CivilDate)
    /// The first such weekday after today (0 Sunday ... 6 Saturday): `next monday`
    /// on a Monday is a week later.
    case next(weekday: Int)

    /// The due day, given today's date.
    public func resolve(today: CivilDate) -> CivilDate {
        switch self {
        case .inDays(let n): return today.adding(days: n)
        case .on(let date): return date
        case .next(let weekday):
            let ahead = (weekday - today.weekday + 7) % 7
            return today.adding(days: ahead == 0 ? 7 : ahead)
        }
    }
}

/// A local time of day, `HH:MM`.
public struct TimeOfDay: Hashable, Sendable, Codable, CustomStringConvertible {
    /// 0...23.
    public var hour: Int
    /// 0...59.
    public var minute: Int

    /// Creates a time.
    public init(hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    /// Parses `H:MM` or `HH:MM`.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              let h = Int(parts[0]), let m = Int(parts[1]), (0...23).contains(h), (0...59).contains(m)
        else { return nil }
        self.init(hour: h, minute: m)
    }

    /// Parses what people write after `at`: `HH:MM`, or a 12-hour time with `am`/`pm`
    /// (`9am`, `6:30pm`, `12am` is midnight, `12pm` noon; case ignored).
    public init?(phrase text: some StringProtocol) {
        let lower = text.lowercased()
        guard lower.hasSuffix("am") || lower.hasSuffix("pm") else {
            self.init(lower)
            return
        }
        let clock = lower.dropLast(2)
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), (1...2).contains(parts[0].count), parts[0].allSatisfy(\.isASCII),
              let h = Int(parts[0]), (1...12).contains(h) else { return nil }
        var minute = 0
        if parts.count == 2 {
            guard parts[1].count == 2, parts[1].allSatisfy(\.isASCII), let m = Int(parts[1]), (0...59).contains(m) else { return nil }
            minute = m
        }
        self.init(hour: h % 12 + (lower.hasSuffix("pm") ? 12 : 0), minute: minute)
    }

    /// `HH:MM`.
    public var description: String { pad2(hour) + ":" + pad2(minute) }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let t = TimeOfDay(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not HH:MM: \(text)"))
        }
        self = t
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// A geofence: a circle and whether the reminder fires on arriving or leaving.
public struct Place: Hashable, Sendable, Codable {
    /// Latitude in degrees, -90...90.
    public var latitude: Double
    /// Longitude in degrees, -180...180.
    public var longitude: Double
    /// Radius in metres.
    public var radiusMeters: Double
    /// When it fires.
    public var proximity: Proximity
    /// An optional human title for the place.
    public var title: String?

    /// Creates a place.
    public init(latitude: Double, longitude: Double, radiusMeters: Double, proximity: Proximity = .arriving, title: String? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.radiusMeters = radiusMeters
        self.proximity = proximity
        self.title = title
    }
}

/// Whether a located reminder fires on arrival or on departure (RFC 9074 PROXIMITY).
public enum Proximity: String, Hashable, Sendable, Codable {
    /// On arrival (`PROXIMITY:ARRIVE`).
    case arriving
    /// On departure (`PROXIMITY:DEPART`).
    case leaving
}
