import Foundation
import TriageConfig
import TriageCore

/// What the commands that read the configuration share: the configuration
/// (`--config`, else the default), the time zone (`timezone`, else the
/// system's), the store (`store`, else `$XDG_DATA_HOME/triage`), and for `run`
/// and `test` the compiled rules. Rule errors stop everything here: nothing is applied.
package struct RunSetup {
    package var config: Configuration
    package var timeZone: TimeZone
    package var store: Store
    /// The compiled rules; nil when loaded without them (only `run` and `test` need them).
    package var rules: CompiledRules?
    /// The rules' warnings, rendered for standard error (`test` shows them; `run`, from cron, does not).
    package var ruleWarnings = ""

    package static func load(configOption: String?, context: Context, withRules: Bool) throws -> RunSetup {
        let config = try configuration(configOption, context: context)
        let zone = config.triage.timeZone ?? TimeZone.current
        let storePath = config.triage.store ?? context.defaultStorePath()
        // As the configuration: a store others may write is refused before anything uses it.
        if let problem = FileTrust.storeProblem(Store(path: storePath, timeZone: zone)) {
            throw SimpleError(.config, problem)
        }
        let store = try Store.open(path: storePath, timeZone: zone)
        var rules: CompiledRules?
        var warnings = ""
        if withRules {
            let loaded = RulesFolder.load(config)
            guard let compiled = loaded.rules else { throw RuleErrors(rendered: loaded.rendered) }
            rules = compiled
            warnings = loaded.rendered
        }
        return RunSetup(config: config, timeZone: zone, store: store, rules: rules, ruleWarnings: warnings)
    }

    /// The configuration named by `--config` (or the default one). A directory
    /// there is refused as every file argument is (exit 66).
    package static func configuration(_ option: String?, context: Context) throws -> Configuration {
        let path = context.configPath(option)
        try FileArgument.checkNotDirectory(path)
        return try ConfigLoader.load(path: path)
    }

    /// The planned actions for a message, at `now`; `folders` is its server's namespace (for `in:`).
    package func classify(_ message: Message, now: Date, folders: FolderNamespace = .plain) -> [PlannedAction] {
        guard let rules else { return [] }
        return RuleEvaluator.evaluate(message, rules: rules, now: now, folders: folders).planned
    }

    /// Today in the configured zone.
    package func today(_ context: Context) -> CivilDate {
        Timestamp.day(of: context.now, in: timeZone)
    }

    /// Reports store records that could not be read, as warnings on standard error.
    package func report(_ problems: [StoreProblem], _ context: Context) {
        for problem in problems { context.err("triage: warning: \(problem)\n") }
    }
}

/// Rule files with errors: the rendered diagnostics, exit 78.
package struct RuleErrors: TriageError {
    package var rendered: String
    package var exitStatus: ExitStatus { .config }
    package var message: String { "the rules have errors; nothing was applied:\n" + rendered }
}
