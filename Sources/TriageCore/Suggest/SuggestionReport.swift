/// What `RuleSuggester` found: the rules it is sure of, and the patterns it left out
/// and why (for `--json` and the tests).
public struct SuggestionReport: Sendable {
    /// A pattern not suggested.
    public struct LeftOut: Sendable, Equatable {
        /// The sender address or List-Id.
        public var subject: String
        /// Why: `"you answered or flagged its mail"`, `"your rules already cover it"`, ...
        public var reason: String
    }

    /// The suggestions, in the order they are printed.
    public var rules: [SuggestedRule] = []
    /// Patterns found but not suggested.
    public var leftOut: [LeftOut] = []
    /// Received messages in the window.
    public var received = 0
    /// Messages of the user's own (Sent) read.
    public var sent = 0
    /// Addresses the user writes to or answered (kept out of every rule).
    public var people = 0
    /// Received messages the user answered or flagged (never touched).
    public var protected = 0

    /// Creates an empty report.
    public init() {}
}
