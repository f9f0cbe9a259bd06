import Foundation

/// What rules are compiled against: who `me` is and the time zone in which
/// `after:`/`before:` days, `{date}` and due dates are counted.
public struct RuleEnvironment: Sendable {
    /// The user's own addresses (compared case-insensitively).
    public var identities: [String]
    /// The configured time zone.
    public var timeZone: TimeZone

    /// Creates an environment.
    public init(identities: [String], timeZone: TimeZone) {
        self.identities = identities
        self.timeZone = timeZone
    }
}
