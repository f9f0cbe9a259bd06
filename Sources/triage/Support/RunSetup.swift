import Foundation
import TriageConfig
import TriageCore

/// What `run` and `digest` share: the configuration, the time zone, the store,
/// and the compiled rules. Rule errors stop everything here: nothing is applied.
struct RunSetup {
    var config: Configuration
    var timeZone: TimeZone
    var store: Store
    var rules: CompiledRules

    static func load(configOption: String?, context: Context) throws -> RunSetup {
        let config = try ConfigLoader.load(path: context.configPath(configOption))
        let zone = config.triage.timezone.flatMap(TimeZone.init(identifier:)) ?? TimeZone.current
        let store = Store(path: config.triage.store ?? context.defaultStorePath(), timeZone: zone)
        let loaded = RulesFolder.load(config)
        guard let rules = loaded.rules else {
            throw RuleErrors(rendered: loaded.rendered)
        }
        return RunSetup(config: config, timeZone: zone, store: store, rules: rules)
    }

    /// The planned actions for a message, at `now`.
    func classify(_ message: Message, now: Date) -> [PlannedAction] {
        RuleEvaluator.evaluate(message, rules: rules, now: now).planned
    }
}

/// Rule files with errors: the rendered diagnostics, exit 78.
struct RuleErrors: TriageError {
    var rendered: String
    var exitStatus: ExitStatus { .config }
    var message: String { "the rules have errors; nothing was applied:\n" + rendered }
}
