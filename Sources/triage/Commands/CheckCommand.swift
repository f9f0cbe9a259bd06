import Foundation
import TriageConfig
import TriageCore

/// `triage check [--config FILE]`: validates the configuration and every rule file.
enum CheckCommand: Command {
    static let spec = CommandSpec(
        name: "check",
        summary: "validate the configuration and every rule file",
        usage: ["check [--connect] [--config FILE]"],
        about: """
        Reads the configuration and every *.rules file of its rules folder. Prints
        nothing and exits 0 when all is well; otherwise prints every problem to
        standard error, each with its file, line and column, and exits 78 (66 when
        the configuration file is missing, unreadable or a directory). Warnings (a
        query that may not mean what it looks like) are printed too, and alone leave
        the exit status 0 (so does a reminder due on a day already past).
        """,
        options: [
            .flag("--connect", help: """
                also log in to each account and show what each folder of `mailboxes =` and \
                of the move actions is called on the server (`Lists/dev` is \
                `INBOX.Lists.dev` on Courier); a folder that does not exist there is a \
                problem (78)
                """),
            .config,
        ])

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        try a.expectNoPositional()
        let configuration: Configuration
        do {
            configuration = try RunSetup.configuration(a.value("--config"), context: context)
        } catch let error as ConfigError {
            context.err(error.problems.map { $0.rendered + "\n" }.joined())
            return error.exitStatus  // 66 when the file is missing or unreadable, as in every command
        }
        // Today, so that a reminder due on a day already past is a warning.
        let today = Timestamp.day(of: context.now, in: configuration.triage.timeZone ?? TimeZone.current)
        let loaded = RulesFolder.load(configuration, today: today)
        // Warnings (a rule that may not mean what it says) are shown; only errors fail.
        if !loaded.diagnostics.isEmpty { context.err(loaded.rendered) }
        if loaded.hasErrors { return .config }
        return a.has("--connect") ? try connect(configuration, rules: loaded.rules, context: context) : .ok
    }

    /// Logs in to each account and shows each folder's name on the server; a missing
    /// folder is a configuration problem, a failed connection its own exit status.
    private static func connect(_ configuration: Configuration, rules: CompiledRules?, context: Context) throws -> ExitStatus {
        var worst = ExitStatus.ok
        for account in configuration.accounts {
            do {
                let connection = try RunCommand.connect(account, credential: nil, context: context, verbose: false)
                defer { connection.close() }
                try FolderNames.checkImportant(rules, on: connection)
                let names = FolderNames.named(mailboxes: account.mailboxes, rules: rules)
                for pair in try FolderNames.resolved(names, on: connection) {
                    context.out(FolderNames.line(account: account.name, pair, server: connection.serverName) + "\n")
                    do {
                        _ = try connection.open(pair.0, readOnly: true)
                    } catch let error as MailError where error.kind == .missingFolder {
                        context.err("triage: account \(account.name): folder \(String(reflecting: pair.1)) does not exist on \(connection.serverName); create it or fix the rule\n")
                        worst = max(worst, .config)
                    }
                }
            } catch let error as TriageError {
                context.err("triage: account \(account.name): \(error.message)\n")
                worst = max(worst, error.exitStatus)
            }
        }
        return worst
    }
}
