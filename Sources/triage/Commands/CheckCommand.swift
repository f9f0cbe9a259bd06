import TriageConfig
import TriageCore

/// `triage check [--config FILE]`: validates the configuration and every rule file.
enum CheckCommand: Command {
    static let name = "check"
    static let summary = "validate the configuration and every rule file"
    static let help = """
    usage: triage check [--config FILE]

    Reads the configuration and every *.rules file of its rules folder. Prints
    nothing and exits 0 when all is well; otherwise prints every problem to
    standard error, each with its file, line and column, and exits 78 (66 when
    the configuration file is missing or unreadable).

      --config FILE   the configuration (default: $XDG_CONFIG_HOME/triage/triage.conf)

    """

    static func run(_ args: [String], context: Context) throws -> ExitStatus {
        let a = try Arguments(args, options: ["--config"], command: name)
        guard a.positional.isEmpty else {
            throw SimpleError(.usage, "check: unexpected argument '\(a.positional[0])'; see 'triage check --help'")
        }
        let configuration: Configuration
        do {
            configuration = try ConfigLoader.load(path: context.configPath(a.value("--config")))
        } catch let error as ConfigError {
            context.err(error.problems.map { $0.rendered + "\n" }.joined())
            return error.exitStatus  // 66 when the file is missing or unreadable, as in every command
        }
        let loaded = RulesFolder.load(configuration)
        guard !loaded.diagnostics.isEmpty else { return .ok }
        context.err(loaded.rendered)
        return .config
    }
}
