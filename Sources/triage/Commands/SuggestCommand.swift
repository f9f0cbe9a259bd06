import Foundation
import TriageApp
import TriageConfig
import TriageCore

/// `triage suggest [--account NAME] [--days N] [--output FILE] [--now TIME] [--all] [--json]`:
/// rules learned from the mailbox's history, with their evidence (docs/suggest.md).
enum SuggestCommand: Command {
    static let spec = CommandSpec(
        name: "suggest",
        summary: "suggest rules learned from your mailbox, with their evidence",
        usage: ["suggest [--account NAME] [--days N] [--output FILE] [--now TIME] [--all] [--json] [--config FILE]"],
        about: """
        Reads the headers and flags (no bodies; nothing is changed) of INBOX, of the
        folders you file mail into and of the Sent folder (SPECIAL-USE \\Sent, or
        sent = FOLDER in the [account] section), and prints a rules file: one rule
        per pattern it is sure of (newsletters, mailing lists you file, notifications,
        receipts you file, lists still sending after you unsubscribed: the store's
        unsubscribe/done records with still_sending set), each with comments giving
        its evidence and what it would
        have done to the history. No rule touches a message you answered or flagged,
        or mail from a person you write to: each is checked against the history
        before it is printed. Patterns your current rules already handle are left
        out (--all shows them too). Save the output in your rules folder as a
        .rules file after reading it.
        """,
        options: [
            .value("--account", "NAME", help: "only this account (default: every account)"),
            .value("--days", "N", help: "learn from the N days before now (default 90)"),
            .value("--output", "FILE", help: "write to FILE (mode 0600, replaced atomically) instead of standard output"),
            .now("read the history"),
            .flag("--all", help: "suggest patterns the current rules already handle too"),
            .flag("--json", help: #"the evidence as one JSON object: {"rules": [{"name", "kind", "query", "actions", "evidence", "#
                + #""effect", ...}], "left_out": [...]} (docs/suggest.md)"#),
            .config,
        ])

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        guard a.positional.isEmpty else { throw SimpleError(.usage, "suggest takes no arguments; usage: " + spec.usage[0]) }
        var days = 90
        if let text = a.value("--days") {
            guard let n = Int(text), n > 0, n <= 36_500 else {
                throw SimpleError(.usage, "suggest: --days wants a number of days (1-36500), not '\(text)'")
            }
            days = n
        }
        if let output = a.value("--output") { try FileArgument.checkWritableName(output) }
        let (setup, context) = try RunSetup.load(a, context: context)
        var accounts = setup.config.accounts
        if let only = a.value("--account") {
            accounts = accounts.filter { $0.name == only }
            guard !accounts.isEmpty else { throw SimpleError(.usage, "suggest: no [account \(only)] in \(setup.config.path)") }
        }
        guard !accounts.isEmpty else { throw SimpleError(.config, "suggest: \(setup.config.path) has no [account] to learn from") }
        // The current rules, to leave out what they handle; none yet is fine, errors are not.
        let loaded = RulesFolder.load(setup.config)
        if loaded.rules == nil {
            if loaded.diagnostics.contains(where: { $0.path.hasSuffix(".rules") }) {
                context.err(loaded.rendered)
                context.err("triage: suggest: fix the rules first: the suggestions leave out what your rules already do\n")
                return .config
            }
            context.err("triage: suggest: no rules read (\(loaded.diagnostics.first?.message ?? "none")); every pattern found is suggested\n")
        }
        let outcome = try SuggestService.suggest(accounts: accounts, setup: setup, rules: loaded.rules, days: days,
                                                 all: a.has("--all"), context: context)
        let text: String
        if a.has("--json") {
            text = SuggestionWriter.json(outcome.report, days: days, now: context.now, accounts: outcome.accounts).prettySerialized + "\n"
        } else {
            text = SuggestionWriter.rules(outcome.report, days: days, now: context.now, timeZone: setup.timeZone, accounts: outcome.accounts)
        }
        guard let output = a.value("--output") else {
            context.out(text)
            return .ok
        }
        try PrivateFile.write(Data(text.utf8), to: output)
        context.err("triage: suggest: \(outcome.report.rules.count) rules written to \(output)\n")
        return .ok
    }
}
