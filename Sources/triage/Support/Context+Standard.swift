import Foundation
import TriageApp

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
