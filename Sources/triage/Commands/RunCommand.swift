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
        let parts = setup.rules?.neededParts ?? .all
        if a.value("--batch-size") == nil { options.batchSize = defaultBatchSize(parts: parts, options.batchSize) }
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
        // (`triage watch` holds it only for a batch: wait that long.)
        try LockWait.lock(store, seconds: LockWait.runSeconds)
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
        try LockWait.lock(store, seconds: LockWait.runSeconds)
        defer { store.unlock() }

        let hook = CrashHook(context.environment["TRIAGE_TEST_KILL_AT"])
        let crashHook: @Sendable (String) -> Void = { hook.checkpoint($0) }
        if hook.isArmed { store.checkpoint = crashHook }
        // A status change a crash cut short (a webhook delivered, an entry reported)
        // left an old copy behind: remove it before anything reads the store.
        if !options.dryRun { try store.finishInterruptedUpdates() }
        let printer = RunPrinter(context: context, verbose: verbose, dryRun: options.dryRun)
        var worst = ExitStatus.ok
        // What `triage status` shows and quiet_failures keeps (not touched by a dry run).
        var record = RunRecord.load(store: store.root)
        let quiet = QuietFailures(threshold: options.dryRun ? nil : setup.config.triage.quietFailures)  // a dry run says everything
        let stamp = Timestamp(context.now, timeZone: setup.timeZone)
        func settle(_ source: inout RunRecord.Source, _ label: String, _ failure: TriageError?, inDigest: Bool = true) {
            let said = quiet.settle(&source, label: label, failure: failure.map { ($0.exitStatus, $0.message) }, now: stamp)
            if let said { context.err("triage: \(said)\n") }
            // With quiet_failures, always in the digest's Problems (once a day), also when kept
            // quiet here; without it, standard error (cron's mail) says every failure already.
            guard inDigest, quiet.threshold != nil, let ongoing = source.failure else { return }
            var batch = StoreBatch()
            batch.add(RunRecord.problemEntry(label: label, failure: ongoing, now: stamp))
            do { _ = try store.write(batch) } catch {
                let why = (error as? TriageError)?.message ?? "\(error)"
                context.err("triage: warning: cannot note the failure for the digest: \(why)\n")
            }
        }
        for account in accounts {
            var source = record.accounts[account.name] ?? RunRecord.Source()
            do {
                let connection = try connect(account, credential: credentials[account.name], context: context,
                                             verbose: verbose, checkpoint: hook.isArmed ? crashHook : nil)
                defer { connection.close() }
                try prepare(connection, account: account, mailboxes: account.mailboxes, setup: setup, verbose: verbose,
                            context: context)
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
                // A Sieve folder that a run has read before (its state is saved) is taken without a LIST.
                let stateRoot = setup.store.root
                let shared = try accountSetup(account, on: connection, setup: setup, options: options, context: context,
                                              known: { FileManager.default.fileExists(
                                                  atPath: MailboxState.path(store: stateRoot, account: account.name, mailbox: $0)) })
                for mailbox in account.mailboxes + shared.filed {
                    let outcome: (status: ExitStatus, processed: Int)
                    do {
                        outcome = try runMailbox(mailbox, account: account, on: connection, setup: setup, options: options,
                                                     shared: shared, parts: parts, printer: printer, context: context,
                                                     checkpoint: crashHook)
                    } catch let error as MailError where error.kind == .missingFolder && !account.mailboxes.contains(mailbox) {
                        // A Sieve folder deleted since a run read it: skipped, as the LIST would have.
                        let existing = try FolderNames.existing(on: connection)
                        if try FolderNames.missing([mailbox], existing: existing, on: connection).isEmpty { throw error }
                        continue
                    }
                    source.mailboxes[mailbox] = RunRecord.MailboxRun(lastRun: stamp, messages: outcome.processed)
                    worst = max(worst, outcome.status)
                }
                settle(&source, "account \(account.name)", nil)
            } catch let error as TriageError {
                settle(&source, "account \(account.name)", error)
                worst = max(worst, error.exitStatus)
            }
            record.accounts[account.name] = source
        }
        if !options.dryRun {
            let digest = try afterMail(setup: setup, context: context, digestPassword: digestPassword, checkpoint: crashHook)
            if let digest {
                var source = record.digest ?? RunRecord.Source()
                switch digest {
                case .success(.notDue):
                    break
                case .success:
                    settle(&source, "digest", nil, inDigest: false)
                case .failure(let error):
                    // Not in the digest it is about: the digest's own failure is said on standard error.
                    settle(&source, "digest", error, inDigest: false)
                    worst = max(worst, error.exitStatus)
                }
                record.digest = source
            }
        }
        if !options.dryRun {
            do {
                try record.save(store: store.root, durable: store.synchronous)
            } catch let error as TriageError {
                // Only history is lost: say so, but the mail was handled.
                context.err("triage: warning: cannot record the run for triage status: \(error.message)\n")
            }
        }
        // CalDAV sync last (docs/caldav.md): the store is written, so the phone gets this
        // run's reminders; a failing server is reported and changes only the status.
        if !options.dryRun && !setup.config.caldav.isEmpty {
            worst = max(worst, CalDAVService.syncAll(setup: setup, context: context, dryRun: false, verbose: verbose,
                                                     checkpoint: hook.isArmed ? crashHook : nil))
        }
        return worst
    }

    // MARK: - The steps `watch` shares

    /// The batch size when `--batch-size` is not given: `standard`, or 5,000 when
    /// the rules read only headers.
    static func defaultBatchSize(parts: MessageParts, _ standard: Int) -> Int {
        // Every batch costs the server a fixed amount per STORE and MOVE (0.2-0.5 s
        // each on a 100,000-message maildir, whatever the UID count): fewer, larger
        // batches. Header-only messages are small and the batch is still fetched
        // 1,000 at a time, so 5,000 costs about 5 MB more than 1,000.
        parts.contains(.text) ? standard : 5000
    }

    /// What follows connecting to an account: with `verbose` the folders the
    /// configuration and the rules name (as the server spells them), and the check
    /// of the folders the rules cannot do without.
    static func prepare(_ connection: MailConnection, account: AccountSection, mailboxes: [String], setup: RunSetup,
                        verbose: Bool, context: Context) throws {
        if verbose {
            let names = FolderNames.named(mailboxes: mailboxes, rules: setup.rules)
            for pair in try FolderNames.resolved(names, on: connection) {
                context.out(FolderNames.line(account: account.name, pair, server: connection.serverName) + "\n")
            }
        }
        try FolderNames.checkImportant(setup.rules, on: connection)
    }

    /// One mailbox through `MailboxRunner` at `context.now`: what `run` does for each
    /// mailbox, and `watch` for each batch. Returns 78 when a rule asked what the
    /// server cannot do (a missing folder, a refused label; the rest was still
    /// applied), else 0. Throws what the runner throws.
    static func runMailbox(_ mailbox: String, account: AccountSection, on connection: MailConnection, setup: RunSetup,
                           options: RunOptions, shared: AccountShared, parts: MessageParts, printer: RunPrinter,
                           context: Context, checkpoint: @escaping @Sendable (String) -> Void) throws
        -> (status: ExitStatus, processed: Int) {
        let headerNames = setup.rules?.headerNames ?? []
        // `in:` compares in the rules' folder names: the namespace maps the server's back.
        let folders = try FolderNames.namespace(for: mailbox, on: connection)
        var runner = MailboxRunner(
            account: account.name, mailbox: mailbox, store: setup.store, options: options, now: context.now,
            parse: { MessageParser.parse($0, keepingHeaders: headerNames) },
            classify: { setup.classify($0, now: context.now, folders: folders) },
            report: printer.report)
        runner.checkpoint = checkpoint
        runner.messageHook = CrashHook.messageHook(context.environment["TRIAGE_TEST_CRASH_SUBJECT"])
        runner.parts = parts
        // TRIAGE_WHOLE_SNIPPET=1 fetches every record's text at full length (the tests
        // compare both ways).
        if context.environment["TRIAGE_WHOLE_SNIPPET"] != "1" {
            runner.parsePrefix = { MessageParser.parse(prefix: $0, keepingHeaders: headerNames) }
        }
        runner.commands = shared.commands
        if let archive = shared.archive { runner.archive = archive.target }
        // TRIAGE_WHOLE_HEADER=1 fetches every header whole (a server whose
        // HEADER.FIELDS misbehaves; the tests compare both ways).
        if context.environment["TRIAGE_WHOLE_HEADER"] != "1" {
            runner.headerFields = setup.rules?.neededHeaderFields
        }
        // Narrowing on the server (issue 14): fetch only what the server's SEARCH finds.
        runner.narrowing = setup.rules.map(ServerNarrowing.plan)
        runner.serverSearch = account.serverSearch
        let outcome = try runner.run(on: connection)
        for notice in (connection as? IMAPConnection)?.takeNotices() ?? [] {
            context.err("triage: \(account.name)/\(mailbox): \(notice)\n")
        }
        return (outcome.failedActions.isEmpty ? .ok : .config, outcome.processed)
    }

    /// What the mailboxes of one connected account share: where `archive` takes a
    /// message, the digest's command messages, and the folders a deployed Sieve
    /// script files into (their mail still needs its local actions).
    struct AccountShared {
        var archive: ArchiveFolder.Lookup?
        var commands: DigestCommandInbox?
        var filed: [String]
    }

    /// Looks up `AccountShared` on `connection`; in a dry run says when the rules
    /// archive but the account has no archive folder.
    static func accountSetup(_ account: AccountSection, on connection: MailConnection, setup: RunSetup,
                             options: RunOptions, context: Context,
                             known: (String) -> Bool = { _ in false }) throws -> AccountShared {
        let archive = ArchiveFolder.Lookup { try ArchiveFolder.target(for: account, on: connection, create: !options.dryRun) }
        if options.dryRun, ArchiveFolder.used(by: setup.rules), try archive.target() == nil {
            // As for a missing move target: say so rather than print "would archive".
            context.err("triage: account \(account.name): \(ArchiveFolder.missingLine(account: account, server: connection.serverName))\n")
        }
        let commands = try DigestCommands.inbox(setup: setup, connection: connection, dryRun: options.dryRun)
        let deployment = try SieveDeployment.load(store: setup.store.root, account: account.name)
        let filed = try SieveFolders.extra(for: account, deployment: deployment, on: connection, known: known)
        return AccountShared(archive: archive, commands: commands, filed: filed)
    }

    /// After the mail: pending webhooks (after the mail actions, so a slow or failing
    /// endpoint never holds them up; bounded by webhook_budget, so they cannot hold
    /// up the digest either), then the day's digest when it is due. Under the store
    /// lock. Returns the digest's outcome; nil without a `[digest]`.
    static func afterMail(setup: RunSetup, context: Context, digestPassword: Result<String, any Error>?,
                          checkpoint: @escaping @Sendable (String) -> Void) throws -> Result<DigestOutcome, SimpleError>? {
        for failure in try WebhookDispatcher.deliverPending(store: setup.store, policy: WebhookDispatcher.policy(setup.config),
                                                            context: context, checkpoint: checkpoint) {
            context.err("triage: \(failure)\n")
        }
        // The day's digest, after the accounts (even when some failed).
        guard setup.config.digest != nil else { return nil }
        return DigestService.sendDue(setup: setup, context: context, password: digestPassword, checkpoint: checkpoint)
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
