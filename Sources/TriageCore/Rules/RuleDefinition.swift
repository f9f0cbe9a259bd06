/// One parsed `rule NAME when QUERY then ACTIONS`.
public struct RuleDefinition: Hashable, Sendable {
    /// The rule's name.
    public var name: String
    /// Where the name stands.
    public var nameSpan: SourceSpan
    /// The file it is in.
    public var path: String
    /// The trigger.
    public var query: QueryNode
    /// The actions in order; strings may hold placeholders such as `{subject}`.
    public var actions: [Action]

    /// Creates a rule.
    public init(name: String, nameSpan: SourceSpan, path: String, query: QueryNode, actions: [Action]) {
        self.name = name
        self.nameSpan = nameSpan
        self.path = path
        self.query = query
        self.actions = actions
    }
}
