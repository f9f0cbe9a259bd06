import Foundation

/// What rules are compiled against: who `me` is and the time zone in which
/// `after:`/`before:` days, `{date}` and due dates are counted.
public struct RuleEnvironment: Sendable {
    /// The user's own addresses (compared case-insensitively).
    public var identities: [String]
    /// The configured time zone.
    public var timeZone: TimeZone
    /// Named places (`[place NAME]`) by lower-cased name, for `near "NAME"` in reminders.
    public var places: [String: Place]
    /// When set (`triage check`), reminders due on a fixed day before it are warned about.
    public var today: CivilDate?

    /// Creates an environment.
    public init(identities: [String], timeZone: TimeZone, places: [String: Place] = [:], today: CivilDate? = nil) {
        self.identities = identities
        self.timeZone = timeZone
        self.places = places
        self.today = today
    }
}
