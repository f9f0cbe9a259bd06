import TriageApp
import TriageCore

/// One `triage` subcommand. Each lives in its own file under `Commands/`.
protocol Command: Sendable {
    /// Its table: name, synopsis, options and help, in one place.
    static var spec: CommandSpec { get }
    /// Runs the command with its arguments, already parsed against `spec`.
    static func run(_ a: Arguments, context: Context) throws -> ExitStatus
}
