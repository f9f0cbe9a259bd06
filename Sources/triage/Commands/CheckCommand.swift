import TriageConfig
import TriageCore

/// `triage check [--config FILE]`: validates the configuration and every rule file.
enum CheckCommand: Command {
    static let spec = CommandSpec(
        name: "check",
        summary: "validate the configuration and every rule file",
        usage: ["check [--config FILE]"],
        about: """
        Reads the configuration and every *.rules file of its rules folder. Prints
        nothing and exits 0 when all is well; otherwise prints every problem to
        standard error, each with its file, line and column, and exits 78 (66 when
        the configuration file is missing, unreadable or a directory).
        """,
        options: [.config])

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        try a.expectNoPositional()
        let configuration: Configuration
        do {
            configuration = try RunSetup.configuration(a.value("--config"), context: context)
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
