import Foundation
import TriageConfig
import TriageCore

/// What `run` and `digest` share: the configuration, the time zone, the store,
/// and the compiled rules. Rule errors stop everything here: nothing is applied.
struct RunSetup {
    var config: Configuration
    var timeZone: TimeZone
    var store: Store
    /// The compiled rules; nil when loaded without them (`digest` needs none).
    var rules: CompiledRules?

    static func load(configOption: String?, context: Context, withRules: Bool = false) throws -> RunSetup {
        let config = try ConfigLoader.load(path: context.configPath(configOption))
        let zone = config.triage.timezone.flatMap(TimeZone.init(identifier:)) ?? TimeZone.current
        let store = Store(path: config.triage.store ?? context.defaultStorePath(), timeZone: zone)
        var rules: CompiledRules?
        if withRules {
            let loaded = RulesFolder.load(config)
            guard let compiled = loaded.rules else { throw RuleErrors(rendered: loaded.rendered) }
            rules = compiled
        }
        return RunSetup(config: config, timeZone: zone, store: store, rules: rules)
    }

    /// The planned actions for a message, at `now`; `folders` is its server's namespace (for `in:`).
    func classify(_ message: Message, now: Date, folders: FolderNamespace = .plain) -> [PlannedAction] {
        guard let rules else { return [] }
        return RuleEvaluator.evaluate(message, rules: rules, now: now, folders: folders).planned
    }
}

/// Rule files with errors: the rendered diagnostics, exit 78.
struct RuleErrors: TriageError {
    var rendered: String
    var exitStatus: ExitStatus { .config }
    var message: String { "the rules have errors; nothing was applied:\n" + rendered }
}
