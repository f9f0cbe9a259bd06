/// One rule as the evaluator runs it: its name and place, its actions, and the
/// root of its query in the shared `QueryProgram`.
public struct CompiledRule: Sendable {
    /// The rule's name.
    public let name: String
    /// The file it came from.
    public let path: String
    /// The line of its name.
    public let line: Int
    /// Its actions, placeholders not yet expanded.
    public let actions: [Action]
    /// The query as written, normalised (for listings).
    public let query: String
    /// The parsed query, for what translates it (`SieveExporter`).
    public var queryNode: QueryNode = .invalid
    let root: Int32
}
