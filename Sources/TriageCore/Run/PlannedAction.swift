/// One action the rules chose for a message, with the rule that chose it.
public struct PlannedAction: Hashable, Sendable {
    /// The rule's name.
    public var rule: String
    /// The action, placeholders already expanded for the message.
    public var action: Action

    /// Creates a planned action.
    public init(rule: String, action: Action) {
        self.rule = rule
        self.action = action
    }
}
