import Foundation
import TriageApp
import TriageConfig
import TriageCore
import TriageMIME
import TriageMaildir

/// `triage test [--config FILE] [--now RFC3339] [--mailbox NAME] [--json] MESSAGE...`: shows what
/// the rules would do to messages, without doing it.
enum TestCommand: Command {
    static let spec = CommandSpec(
        name: "test",
        summary: "show which rules match messages and what they would do",
        usage: ["test [--config FILE] [--now TIME] [--mailbox NAME] [--json] MESSAGE..."],
        about: """
        Runs the rules on each message file ('-' reads standard input) and shows which
        rules matched, why (the terms that matched), the planned actions, and any
        action dropped because an earlier rule already planned it or a conflicting
        one (a second move). Nothing is changed anywhere. A file that cannot be read
        (missing, unreadable, a directory) is reported and skipped; the exit status
        is then 66.
        """,
        options: [
            .config,
            .now("evaluate"),
            .value("--mailbox", "NAME", help: "evaluate as if the messages were in folder NAME (for in:)"),
            .flag("--json", help: #"one JSON object per message, one per line: {"file", "message_id", "#
                + #""matched": [{"rule", "actions": [...]}]}"#),
        ])

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        guard !a.positional.isEmpty else {
            throw SimpleError(.usage, "test: name at least one message file, or - for standard input")
        }
        let setup: RunSetup, now: Date
        do {
            let (loaded, moved) = try RunSetup.load(a, context: context, withRules: true)
            (setup, now) = (loaded, moved.now)
        } catch let errors as RuleErrors {
            context.err(errors.rendered)
            return .config
        }
        guard let rules = setup.rules else { return .config }
        if !setup.ruleWarnings.isEmpty { context.err(setup.ruleWarnings) }
        let today = rules.today(at: now)
        var status = ExitStatus.ok
        for file in a.positional {
            let data: Data
            do {
                data = try FileArgument.read(file)
            } catch let error as SimpleError {
                context.err("triage: \(error.message)\n")
                status = max(status, error.exitStatus)
                continue
            }
            var message = MessageParser.parse([UInt8](data), keepingHeaders: rules.headerNames)
            message.server.mailbox = a.value("--mailbox")
            // A file in a Maildir carries its flags and keywords in its name: use them,
            // so `is:unread` and `label:` answer as they will in `triage run`.
            if file != "-", let facts = MaildirConnection.serverFacts(ofFile: file) {
                message.server.flags = facts.flags
                message.server.labels = facts.labels
            }
            let evaluation = RuleEvaluator.evaluate(message, rules: rules, now: now, explain: true)
            if a.has("--json") {
                context.out(RuleTestReport.json(file: file, message: message, evaluation: evaluation, today: today).serialized + "\n")
            } else {
                context.out(RuleTestReport.text(file: file, message: message, evaluation: evaluation))
            }
        }
        return status
    }
}
