/// Parses and compiles the rule files of a folder, given their contents (the
/// caller reads the folder), collecting every diagnostic of every file.
public enum RuleLoader {
    /// Loads `sources` (every `*.rules` file of `folder`, in name order). Returns the
    /// compiled rules when there is no error (warnings do not stop them), and the
    /// diagnostics in file order.
    public static func load(_ sources: [RuleSource], folder: String,
                            environment: RuleEnvironment) -> (CompiledRules?, [Diagnostic]) {
        guard !sources.isEmpty else {
            return (nil, [Diagnostic(path: folder, line: 0, column: 0,
                                     message: "no rule files in this folder; add a file whose name ends in .rules (Rules/default.rules is a start)")])
        }
        var definitions: [RuleDefinition] = []
        var diagnostics: [Diagnostic] = []
        for source in sources {
            let (rules, problems) = RuleParser.parse(source.text, path: source.path,
                                                           places: environment.places, today: environment.today)
            definitions += rules
            diagnostics += problems
        }
        let (compiled, problems) = RuleCompiler.compile(definitions, environment: environment)
        let order = Dictionary(sources.enumerated().map { ($0.element.path, $0.offset) }, uniquingKeysWith: { a, _ in a })
        let all = (diagnostics + problems).enumerated().sorted {
            let a = $0.element, b = $1.element
            return (order[a.path] ?? 0, a.line, a.column, $0.offset) < (order[b.path] ?? 0, b.line, b.column, $1.offset)
        }.map(\.element)
        return (all.contains(where: { $0.severity == .error }) ? nil : compiled, all)
    }
}
