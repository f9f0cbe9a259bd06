/// An action a later rule asked for that will not happen: the same action was
/// already planned, or it conflicts with one that was (a second `move`, the other
/// `mark`, a second `digest` section). The first rule wins, as in Sieve.
public struct DroppedAction: Hashable, Sendable {
    /// Why it was dropped.
    public enum Reason: String, Hashable, Sendable {
        /// The identical action was already planned; it happens once.
        case duplicate
        /// A conflicting action was already planned.
        case conflict
    }

    /// The dropped action.
    public var action: Action
    /// The rule that asked for it.
    public var rule: String
    /// The planned action that wins.
    public var kept: PlannedAction
    /// Duplicate or conflict.
    public var reason: Reason

    /// Creates a dropped action.
    public init(action: Action, rule: String, kept: PlannedAction, reason: Reason) {
        self.action = action
        self.rule = rule
        self.kept = kept
        self.reason = reason
    }
}
