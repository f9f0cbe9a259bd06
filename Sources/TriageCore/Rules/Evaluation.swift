/// What the rules decide for one message: the rules that matched (in order),
/// the actions to carry out, and those set aside.
public struct Evaluation: Hashable, Sendable {
    /// Matching rules, in evaluation order, up to and including one that stopped.
    public var matches: [RuleMatch] = []
    /// The actions to carry out, in order, each with its rule; no duplicates, no `stop`.
    public var planned: [PlannedAction] = []
    /// Actions dropped as duplicates or conflicts.
    public var dropped: [DroppedAction] = []
    /// The rule whose `stop` ended evaluation, if any.
    public var stoppedBy: String?

    /// Creates an empty evaluation.
    public init() {}
}
