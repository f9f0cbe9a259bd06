import Foundation
import TriageConfig
import TriageCore
import TriageIMAP
import TriageMaildir
import TriageMIME

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
        arrives from then on is processed. When the server renumbers a mailbox
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
        temporary failure (server unreachable, TLS, another run holds the lock, a
        password_command that did not finish within its command_timeout); 77
        credentials refused (IMAP or the digest's SMTP); 78 configuration or rule
        errors (nothing is applied), a mailbox that does not exist, a URL whose TLS
        mode does not fit the port, or a rule asks what the server cannot do: a
        missing folder, a refused label, no keywords (the rest is applied). One
        failing account does not stop the others; the status is the worst of them.
        Pending webhooks are POSTed after the mail, within webhook_budget seconds
        (docs/run.md); they never change the status.
        """)

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        try a.expectNoPositional()
        var options = RunOptions()
        options.all = a.has("--all")
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
        let parts = setup.rules?.neededParts ?? .all
        if a.value("--batch-size") == nil && !parts.contains(.text) {
            // Every batch costs the server a fixed amount per STORE and MOVE (0.2-0.5 s
            // each on a 100,000-message maildir, whatever the UID count): fewer, larger
            // batches. Header-only messages are small and the batch is still fetched
            // 1,000 at a time, so 5,000 costs about 5 MB more than 1,000.
            options.batchSize = 5000
        }
        var accounts = setup.config.accounts
        if let only = a.value("--account") {
            accounts = accounts.filter { $0.name == only }
            guard !accounts.isEmpty else { throw SimpleError(.usage, "run: no [account \(only)] in \(setup.config.path)") }
        }
        if accounts.isEmpty && setup.config.digest == nil {
            throw SimpleError(.config, "\(setup.config.path): no [account NAME] section; add one (see Examples/triage.conf)")
        }

        let store = setup.store
        // Another run holds the lock: stop now, before running anyone's password_command.
        try store.lock()
        store.unlock()
        // The secret commands run before the lock is taken: one waiting for a passphrase
        // (up to command_timeout) must not hold up `triage queue done` and the like.
        var credentials: [String: Result<MailCredential, any Error>] = [:]
        for account in accounts {
            guard case .imap = account.endpoint else { continue }
            credentials[account.name] = Result { try credential(for: account) }
        }
        let digestPassword = options.dryRun ? nil : DigestService.prefetchPassword(setup: setup, now: context.now)

        // The store lock doubles as the run lock: two overlapping cron runs never interleave.
        try store.lock()
        defer { store.unlock() }

        let hook = CrashHook(context.environment["TRIAGE_TEST_KILL_AT"])
        let crashHook: @Sendable (String) -> Void = { hook.checkpoint($0) }
        if hook.isArmed { store.checkpoint = crashHook }
        // A status change a crash cut short (a webhook delivered, an entry reported)
        // left an old copy behind: remove it before anything reads the store.
        if !options.dryRun { try store.finishInterruptedUpdates() }
        let printer = RunPrinter(context: context, verbose: verbose, dryRun: options.dryRun)
        var worst = ExitStatus.ok
        for account in accounts {
            do {
                let connection = try connect(account, credential: credentials[account.name], context: context,
                                             verbose: verbose, checkpoint: hook.isArmed ? crashHook : nil)
                defer { connection.close() }
                if verbose {
                    let names = FolderNames.named(mailboxes: account.mailboxes, rules: setup.rules)
                    for pair in try FolderNames.resolved(names, on: connection) {
                        context.out(FolderNames.line(account: account.name, pair, server: connection.serverName) + "\n")
                    }
                }
                try FolderNames.checkImportant(setup.rules, on: connection)
                if options.dryRun {
                    // Say which move targets are missing (as check --connect does) rather
                    // than print "would move" to a folder that is not there.
                    let targets = FolderNames.named(mailboxes: [], rules: setup.rules)
                    let missing = try FolderNames.missing(targets, existing: try FolderNames.existing(on: connection), on: connection)
                    for folder in missing {
                        context.err("triage: account \(account.name): \(try FolderNames.missingLine(folder, on: connection)); "
                                    + "a run would leave the messages where they are: create it or fix the rule\n")
                    }
                    printer.missingFolders = Set(missing.map(\.name))
                }
                let headerNames = setup.rules?.headerNames ?? []
                for mailbox in account.mailboxes {
                    // `in:` compares in the rules' folder names: the namespace maps the server's back.
                    let folders = try FolderNames.namespace(for: mailbox, on: connection)
                    var runner = MailboxRunner(
                        account: account.name, mailbox: mailbox, store: store, options: options, now: context.now,
                        parse: { MessageParser.parse($0, keepingHeaders: headerNames) },
                        classify: { setup.classify($0, now: context.now, folders: folders) },
                        report: printer.report)
                    runner.checkpoint = crashHook
                    runner.parts = parts
                    // TRIAGE_WHOLE_HEADER=1 fetches every header whole (a server whose
                    // HEADER.FIELDS misbehaves; the tests compare both ways).
                    if context.environment["TRIAGE_WHOLE_HEADER"] != "1" {
                        runner.headerFields = setup.rules?.neededHeaderFields
                    }
                    let outcome = try runner.run(on: connection)
                    for notice in (connection as? IMAPConnection)?.takeNotices() ?? [] {
                        context.err("triage: \(account.name)/\(mailbox): \(notice)\n")
                    }
                    // A rule asking what the server cannot do (a missing folder, a refused
                    // label) is a configuration problem (78); the rest was still applied.
                    if !outcome.failedActions.isEmpty { worst = max(worst, .config) }
                }
            } catch let error as TriageError {
                context.err("triage: account \(account.name): \(error.message)\n")
                worst = max(worst, error.exitStatus)
            }
        }
        if !options.dryRun {
            // After the mail actions, so a slow or failing endpoint never holds them up.
            // Bounded by webhook_budget, so they cannot hold up the digest either.
            for failure in try WebhookDispatcher.deliverPending(store: store, policy: WebhookDispatcher.policy(setup.config),
                                                                context: context, checkpoint: crashHook) {
                context.err("triage: \(failure)\n")
            }
        }
        // The day's digest, after the accounts (even when some failed).
        if !options.dryRun && setup.config.digest != nil {
            worst = max(worst, DigestService.sendDue(setup: setup, context: context, password: digestPassword, checkpoint: crashHook))
        }
        return worst
    }

    /// Opens the account's connection: a local Maildir, or IMAP with verified TLS, logging
    /// in with `credential` (from `credential(for:)`).
    static func connect(_ account: AccountSection, credential: Result<MailCredential, any Error>?, context: Context,
                        verbose: Bool, checkpoint: (@Sendable (String) -> Void)? = nil) throws -> MailConnection {
        let url: MailServerURL
        switch account.endpoint {
        case .maildir(let path): return try MaildirConnection(root: path)
        case .imap(let imap): url = imap
        }
        let credential = try (credential ?? Result { try Self.credential(for: account) }).get()
        var settings = IMAPSettings(url: url, credential: credential, caFile: account.caFile, tlsOff: account.tlsOff)
        settings.setTimeout(account.timeout)
        settings.checkpoint = checkpoint
        if verbose && context.environment["TRIAGE_TRACE"] == "1" {
            settings.trace = { line in context.err("  " + line + "\n") }
        }
        return try IMAPConnection.connect(settings)
    }

    /// The IMAP login of an account: runs its `password_command` or `oauth2_token_command`
    /// (bounded by its `command_timeout`).
    static func credential(for account: AccountSection) throws -> MailCredential {
        let where_ = "[account \(account.name)]"
        let user = account.user ?? ""
        if let command = account.oauth2TokenCommand {
            let token = try SecretCommand.run(command, purpose: "oauth2_token_command of \(where_)", section: where_,
                                              timeout: account.commandTimeout)
            return MailCredential(user: user, method: .oauth2(token: token))
        } else if let command = account.passwordCommand {
            return .password(user: user, try SecretCommand.run(command, purpose: "password_command of \(where_)",
                                                               section: where_, timeout: account.commandTimeout))
        } else if let password = account.password {
            return .password(user: user, password)
        }
        throw SimpleError(.config, "\(where_) has no password_command, password or oauth2_token_command")
    }
}
