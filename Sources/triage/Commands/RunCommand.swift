import Foundation
import TriageConfig
import TriageCore
import TriageApp

/// `triage run`: the cron job. Fetches new mail of every account, applies the
/// rules, writes the store, then sends the day's digest when it is due.
enum RunCommand: Command {
    static let spec = CommandSpec(
        name: "run",
        summary: "process new mail of every account (the cron job)",
        usage: ["run [--config FILE] [--all | --since YYYY-MM-DD] [--dry-run] [--verbose] [--account NAME] "
            + "[--batch-size N] [--now TIME]"],
        about: """
        Connects to each account, classifies the mail that is new since the last
        run with the rules, applies server actions (labels, moves, read flags),
        writes queue entries, reminders and digest entries to the store, and
        records how far it got; then sends the day's digest once its hour has
        passed. Silent on success.

        The first run of a mailbox only remembers where the mailbox ends: mail that
        arrives from then on is processed, and the mail already there is left alone
        (said once on standard error, with how many messages). When the server renumbers a mailbox
        (UIDVALIDITY), only mail that arrived after the last run is processed. To
        apply the rules to older mail, use --all or --since.
        """,
        options: [
            .flag("--all", help: "walk the whole mailbox (safe to repeat: nothing doubles)"),
            .value("--since", "YYYY-MM-DD", help: "on a first run or after a renumbering, take mail that arrived "
                + "on or after that day"),
            .flag("-n", "--dry-run", help: "connect read-only (EXAMINE) and print what would happen; nothing changes "
                + "on the server, in the store or the state"),
            .flag("-v", "--verbose", help: "per-account counts and per-message decisions"),
            .value("--account", "NAME", help: "only this account"),
            .value("--batch-size", "N", help: "messages per store write and per round of server actions "
                + "(default 250; 5000 when the rules read only headers)"),
            .now("run"),
            .config,
        ],
        notes: """
        Exit status: 0 success; 64 usage error; 66 no configuration file; 75
        temporary failure (server unreachable, TLS, another run holds the lock for more than 10 s, a
        password_command that did not finish within its command_timeout); 77
        credentials refused (IMAP or the digest's SMTP); 78 configuration or rule
        errors (nothing is applied), a mailbox that does not exist, a URL whose TLS
        mode does not fit the port, or a rule asks what the server cannot do: a
        missing folder, a refused label, no keywords (the rest is applied). One
        failing account does not stop the others; the status is the worst of them.
        Pending webhooks are POSTed after the mail, within webhook_budget seconds
        (docs/run.md); they never change the status. With quiet_failures in
        [triage], a temporary failure (75) is said only once it has lasted that
        long, and when it ends; the status is the same (docs/status.md). 'triage
        status' shows each account's last run and failure.
        """)

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        try a.expectNoPositional()
        var options = RunOptions()
        options.all = a.has("--all")
        if options.all && a.value("--since") != nil {
            throw a.usage("give --all or --since, not both (--all walks the whole mailbox, --since from a day)")
        }
        options.dryRun = a.has("--dry-run")
        if let since = a.value("--since") {
            guard let day = CivilDate(iso: since) else { throw SimpleError(.usage, "run: --since wants a date as YYYY-MM-DD, not '\(since)'") }
            options.since = day
        }
        if let size = a.value("--batch-size") {
            guard let n = Int(size), n > 0 else { throw SimpleError(.usage, "run: --batch-size wants a positive number") }
            options.batchSize = n
        }
        let verbose = a.has("--verbose")

        let (setup, context) = try RunSetup.load(a, context: context, withRules: true)
        var accounts = setup.config.accounts
        if let only = a.value("--account") {
            accounts = accounts.filter { $0.name == only }
            guard !accounts.isEmpty else { throw SimpleError(.usage, "run: no [account \(only)] in \(setup.config.path)") }
        }
        if accounts.isEmpty && setup.config.digest == nil {
            throw SimpleError(.config, "\(setup.config.path): no [account NAME] section; add one (\(ShippedFiles.exampleHint))")
        }

        let pipeline = RunPipeline(setup: setup, context: context, options: options, verbose: verbose,
                                   batchSizeGiven: a.value("--batch-size") != nil)
        return try pipeline.batch(accounts, context: context)
    }
}
