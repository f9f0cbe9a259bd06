/// One option of a command, as its table declares it: the parser accepts exactly
/// these names and `--help` lists exactly these lines, so the two cannot drift.
struct Option: Sendable {
    /// Every name it answers to, short ones first (`-v`, `--verbose`). The last is
    /// the canonical one: `Arguments.has` and `value` ask by it.
    let names: [String]
    /// The placeholder of its value (`FILE`); nil for a flag.
    let value: String?
    /// One line of help (wrapped when the help text is rendered).
    let help: String
    /// Listed indented under the option before it, which it modifies (`--force` under `--send`).
    var isSubOption = false

    /// A flag: `Option.flag("-v", "--verbose", help: "...")`.
    static func flag(_ names: String..., help: String, under: Bool = false) -> Option {
        Option(names: names, value: nil, help: help, isSubOption: under)
    }

    /// An option with a value: `Option.value("--config", "FILE", help: "...")`.
    static func value(_ name: String, _ placeholder: String, help: String, under: Bool = false) -> Option {
        Option(names: [name], value: placeholder, help: help, isSubOption: under)
    }

    /// The name the command asks for it by.
    var canonical: String { names[names.count - 1] }

    /// `-v, --verbose` or `--config FILE`, as the help text shows it.
    var label: String {
        names.joined(separator: ", ") + (value.map { " " + $0 } ?? "")
    }

    // Options several commands share, described once.

    /// `--config FILE`.
    static let config = Option.value("--config", "FILE", help: "the configuration (default: $XDG_CONFIG_HOME/triage/triage.conf, "
        + "else ~/.config/triage/triage.conf)")

    /// `--now TIME`: the clock, for trying what a command does at another moment.
    static func now(_ what: String) -> Option {
        Option.value("--now", "TIME", help: "\(what) as if it were TIME: an ISO 8601 instant (2026-03-02T09:00:00-06:00, "
            + "or ...Z) or a local date-time in the configured time zone (2026-03-02T09:00 or 2026-03-02 09:00:00)")
    }

    /// `-h, --help`: every command takes it (and `triage help COMMAND` prints the same).
    static let help = Option.flag("-h", "--help", help: "print this help and exit")
}
