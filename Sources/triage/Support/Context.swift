import Foundation
import TriageCore

/// What a command may take from the outside world: the clock, the environment and
/// the standard streams. Commands read these only through here, so the library
/// code below them stays pure and testable.
struct Context {
    /// The process environment.
    var environment: [String: String]
    /// The current instant.
    var now: Date

    /// This context with its clock set by `--now` (read in `zone` when it has no
    /// offset); unchanged without one.
    func at(_ now: NowOption?, in zone: TimeZone) -> Context {
        guard let now else { return self }
        var moved = self
        moved.now = now.date(in: zone)
        return moved
    }

    /// Writes to standard output.
    ///
    /// Both streams are often a terminal, and what is written may hold text from a
    /// sender or a server (a subject, a server's error, a trace line): control
    /// characters other than TAB, LF and CR LF become spaces, so nothing written
    /// can act as a terminal command or overwrite a line.
    func out(_ text: String) {
        FileHandle.standardOutput.write(Data(ControlCharacters.replaced(in: text, keepingLineBreaks: true).utf8))
    }

    /// Writes to standard error, with controls replaced as `out` does.
    func err(_ text: String) {
        FileHandle.standardError.write(Data(ControlCharacters.replaced(in: text, keepingLineBreaks: true).utf8))
    }

    /// The configuration file path: `--config`, else `$XDG_CONFIG_HOME/triage/triage.conf`.
    func configPath(_ option: String?) -> String {
        if let option { return option }
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty { return xdg + "/triage/triage.conf" }
        return (environment["HOME"] ?? "~") + "/.config/triage/triage.conf"
    }

    /// The default store folder: `$XDG_DATA_HOME/triage`.
    func defaultStorePath() -> String {
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/triage" }
        return (environment["HOME"] ?? "~") + "/.local/share/triage"
    }
}
