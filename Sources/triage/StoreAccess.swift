import Foundation
import TriageConfig
import TriageCore

/// The store and time zone a store command works with, from the configuration:
/// `store` in `[triage]` (else `$XDG_DATA_HOME/triage`), `timezone` (else the system's).
struct StoreAccess {
    /// The store.
    let store: Store
    /// The zone "today" and timestamps are in.
    let timeZone: TimeZone

    /// Loads the configuration named by `--config` (or the default one).
    init(configOption: String?, context: Context) throws {
        let config = try ConfigLoader.load(path: context.configPath(configOption))
        let zone = config.triage.timezone.flatMap(TimeZone.init(identifier:)) ?? TimeZone.current
        timeZone = zone
        store = Store(path: config.triage.store ?? context.defaultStorePath(), timeZone: zone)
    }

    /// Today in the configured zone.
    func today(_ context: Context) -> CivilDate {
        Timestamp.day(of: context.now, in: timeZone)
    }

    /// Reports records that could not be read, on standard error.
    func report(_ problems: [StoreProblem], _ context: Context) {
        for problem in problems { context.err("triage: warning: \(problem)\n") }
    }
}
