import Foundation
import TriageCore

/// What the app may take from the outside world: the clock, the test hooks, the
/// default paths and the standard streams, all made once by the executable's
/// `main`. The app reads these only through here: it reads no environment and
/// prints nothing itself (its output goes to `output`, the executable's streams).
package struct Context: Sendable {
    /// The current instant.
    package var now: Date
    /// The test hooks, read once from the environment by `main`.
    package var hooks: TestHooks
    /// Where `out` and `err` go.
    package var output: any OutputSink
    /// The configuration file when `--config` is not given (`$XDG_CONFIG_HOME/triage/triage.conf`).
    package var defaultConfigPath: String
    /// The store folder when `store` is not configured (`$XDG_DATA_HOME/triage`).
    package var defaultStore: String

    package init(now: Date, hooks: TestHooks = TestHooks(), output: any OutputSink,
                 defaultConfigPath: String, defaultStore: String) {
        self.now = now
        self.hooks = hooks
        self.output = output
        self.defaultConfigPath = defaultConfigPath
        self.defaultStore = defaultStore
    }

    /// Writes to standard output.
    ///
    /// Both streams are often a terminal, and what is written may hold text from a
    /// sender or a server (a subject, a server's error, a trace line): control
    /// characters other than TAB, LF and CR LF become spaces, so nothing written
    /// can act as a terminal command or overwrite a line.
    package func out(_ text: String) {
        output.out(ControlCharacters.replaced(in: text, keepingLineBreaks: true))
    }

    /// Writes to standard error, with controls replaced as `out` does.
    package func err(_ text: String) {
        output.err(ControlCharacters.replaced(in: text, keepingLineBreaks: true))
    }

    /// The configuration file path: `--config`, else the default.
    package func configPath(_ option: String?) -> String {
        option ?? defaultConfigPath
    }

    /// The default store folder.
    package func defaultStorePath() -> String { defaultStore }
}
