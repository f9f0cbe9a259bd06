import Foundation
import TriageApp
import TriageCore

extension RunSetup {
    /// Loads what `a`'s `--config` names, and returns it with `context` at `a`'s
    /// `--now` (read in the configured zone when it has no offset). A malformed
    /// `--now` is a usage error (64) before any file is read.
    static func load(_ a: Arguments, context: Context, withRules: Bool = false) throws -> (RunSetup, Context) {
        let now = try NowOption.parse(a)
        let setup = try load(configOption: a.value("--config"), context: context, withRules: withRules)
        return (setup, context.at(now, in: setup.timeZone))
    }
}

extension Context {
    /// The context of this process: its clock, the test hooks and default paths from
    /// `environment`, read here once, and the standard streams.
    static func standard(environment: [String: String], now: Date) -> Context {
        let home = environment["HOME"] ?? "~"
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 + "/triage/triage.conf" }
            ?? home + "/.config/triage/triage.conf"
        let store = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 + "/triage" }
            ?? home + "/.local/share/triage"
        return Context(now: now, hooks: TestHooks(environment: environment), output: StandardStreams(),
                       defaultConfigPath: config, defaultStore: store)
    }

    /// This context with its clock set by `--now` (read in `zone` when it has no
    /// offset); unchanged without one.
    func at(_ now: NowOption?, in zone: TimeZone) -> Context {
        guard let now else { return self }
        var moved = self
        moved.now = now.date(in: zone)
        return moved
    }
}
