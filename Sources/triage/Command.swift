import TriageCore

/// One `triage` subcommand. Each lives in its own file under `Commands/`.
protocol Command: Sendable {
    /// The word after `triage`.
    static var name: String { get }
    /// One line for `triage --help`.
    static var summary: String { get }
    /// The full `--help` text.
    static var help: String { get }
    /// Runs the command with the arguments after its name.
    static func run(_ args: [String], context: Context) throws -> ExitStatus
}
