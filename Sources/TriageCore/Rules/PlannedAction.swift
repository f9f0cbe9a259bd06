/// An action to carry out, with the rule that asked for it.
public struct PlannedAction: Hashable, Sendable {
    /// The action, placeholders expanded.
    public var action: Action
    /// The name of the rule that produced it.
    public var rule: String

    /// Creates a planned action.
    public init(action: Action, rule: String) {
        self.action = action
        self.rule = rule
    }
}
