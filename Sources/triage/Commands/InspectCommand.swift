import TriageCore
import TriageMIME

/// `triage inspect [--json] FILE...`: shows what triage reads from messages.
enum InspectCommand: Command {
    static let name = "inspect"
    static let summary = "show what triage reads from message files"
    static let help = """
    usage: triage inspect [--json] FILE...

    Parses each message file (RFC 5322 / MIME; '-' reads standard input) and
    prints what triage sees: addresses, subject, date, ids, attachments, snippet.

      --json   one JSON object per message, one per line

    """

    static func run(_ args: [String], context: Context) throws -> ExitStatus {
        let a = try Arguments(args, flags: ["--json"], command: name)
        guard !a.positional.isEmpty else { throw SimpleError(.usage, "inspect: name at least one message file, or - for standard input") }
        return .ok
    }
}
