import Foundation
import TriageConfig
import TriageCore

/// What `run`, `digest` and the store commands share: the configuration, the time
/// zone, the store, and the compiled rules.
struct RunSetup {
    var config: Configuration
    var timeZone: TimeZone
    var store: Store
    var rules: CompiledRules

    struct CompiledRules {
        var classify: (Message) -> [PlannedAction]
    }

    static func load(configOption: String?, context: Context) throws -> RunSetup {
        let config = try ConfigLoader.load(path: context.configPath(configOption))
        let zone = config.triage.timezone.flatMap(TimeZone.init(identifier:)) ?? TimeZone.current
        let store = Store(path: config.triage.store ?? context.defaultStorePath(), timeZone: zone)
        // INTEGRATION: replaced by the compiled rule set when the rule language lands.
        let rules = CompiledRules(classify: { _ in [] })
        return RunSetup(config: config, timeZone: zone, store: store, rules: rules)
    }
}
