/// One rule that matched a message: why, and the actions it contributes after
/// duplicates and conflicts with earlier rules were set aside.
public struct RuleMatch: Hashable, Sendable {
    /// The rule's name.
    public var rule: String
    /// The file of the rule.
    public var path: String
    /// The line of the rule's name.
    public var line: Int
    /// The terms that matched, as written (`cc:me`, `-to:me`); empty unless explained.
    public var why: [String]
    /// Its actions with placeholders expanded, in order, ending with `.stop` if it stopped.
    public var actions: [Action]

    /// Creates a match.
    public init(rule: String, path: String, line: Int, why: [String] = [], actions: [Action] = []) {
        self.rule = rule
        self.path = path
        self.line = line
        self.why = why
        self.actions = actions
    }
}
