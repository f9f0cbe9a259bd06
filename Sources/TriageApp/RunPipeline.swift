import Foundation
import TriageConfig
import TriageCore

/// The one pipeline `run` and `watch` both drive (ARCHITECTURE.md, "One run"):
/// a mailbox pass (`AccountSession.runMailbox`: fetch, parse, rules, store, server,
/// state), then after the mail the webhooks, the digest when due, the run record
/// (through `QuietFailures`) and the CalDAV sync. The policies differ only in what
/// they pass and when: `run` takes every account in one batch under the lock it holds
/// throughout; `watch` takes the mailboxes a server announced, under the lock for that
/// pass only, and syncs CalDAV after mail and every `[caldav NAME] interval`.
package struct RunPipeline {
    package let setup: RunSetup
    package let options: RunOptions
    package let verbose: Bool
    /// The parts of a message the rules read.
    package let parts: MessageParts
    /// Run events to the output (warnings always; decisions with `--verbose` or `--dry-run`).
    package let printer: RunPrinter
    /// `TRIAGE_TEST_KILL_AT`'s hook, and its checkpoint (nil when not armed).
    let hook: CrashHook
    package let checkpoint: @Sendable (String) -> Void
    package var armedCheckpoint: (@Sendable (String) -> Void)? { hook.isArmed ? checkpoint : nil }

    /// The pipeline of `setup`; `options.batchSize` is the rules' default unless `batchSizeGiven`.
    package init(setup: RunSetup, context: Context, options: RunOptions, verbose: Bool, batchSizeGiven: Bool = false) {
        self.setup = setup
        parts = setup.rules?.neededParts ?? .all
        var options = options
        if !batchSizeGiven { options.batchSize = AccountSession.defaultBatchSize(parts: parts, options.batchSize) }
        self.options = options
        self.verbose = verbose
        printer = RunPrinter(context: context, verbose: verbose, dryRun: options.dryRun)
        let hook = context.hooks.crashHook(context.output)
        self.hook = hook
        checkpoint = { hook.checkpoint($0) }
    }

    // MARK: - run's policy: every account, one batch

    /// `triage run`: the whole pipeline once for `accounts`, under the store lock
    /// (waited for up to `LockWait.runSeconds`). Returns the worst status.
    package func batch(_ accounts: [AccountSection], context: Context) throws -> ExitStatus {
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
            credentials[account.name] = Result { try AccountSession.credential(for: account) }
        }
        let digestPassword = options.dryRun ? nil : DigestService.prefetchPassword(setup: setup, now: context.now)

        // The store lock doubles as the run lock: two overlapping cron runs never interleave.
        try LockWait.lock(store, seconds: LockWait.runSeconds)
        defer { store.unlock() }

        if hook.isArmed { store.checkpoint = checkpoint }
        // A status change a crash cut short (a webhook delivered, an entry reported)
        // left an old copy behind: remove it before anything reads the store.
        if !options.dryRun { try store.finishInterruptedUpdates() }
        var worst = ExitStatus.ok
        let book = RunBook(setup: setup, context: context, dryRun: options.dryRun)
        for account in accounts {
            worst = max(worst, try runAccount(account, credential: credentials[account.name], book: book, context: context))
        }
        if !options.dryRun {
            worst = max(worst, try afterMail(book: book, context: context, digest: true, digestPassword: digestPassword).status)
        }
        if !options.dryRun {
            book.save()
        }
        // CalDAV sync last (docs/caldav.md): the store is written, so the phone gets this
        // run's reminders; a failing server is reported and changes only the status.
        if !options.dryRun && !setup.config.caldav.isEmpty {
            worst = max(worst, syncCalDAV(context: context))
        }
        return worst
    }

    /// One account of a batch: connect, prepare, every mailbox and Sieve-filed folder. A
    /// `TriageError` is the account's failure; anything else ends the run.
    private func runAccount(_ account: AccountSection, credential: Result<MailCredential, any Error>?, book: RunBook,
                            context: Context) throws -> ExitStatus {
        var worst = ExitStatus.ok
        var source = book.record.accounts[account.name] ?? RunRecord.Source()
        let printer = self.printer
        do {
            let connection = try AccountSession.connect(account, credential: credential, context: context,
                                                        verbose: verbose, checkpoint: armedCheckpoint)
            defer { connection.close() }
            try AccountSession.prepare(connection, account: account, mailboxes: account.mailboxes, setup: setup,
                                       verbose: verbose, context: context)
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
            let shared = try AccountSession.accountSetup(account, on: connection, setup: setup, options: options, context: context,
                                                         known: { FileManager.default.fileExists(
                                                             atPath: MailboxState.path(store: stateRoot, account: account.name, mailbox: $0)) })
            // Snoozed mail whose time has come, back in INBOX before INBOX is read.
            try SnoozeService.wakeDue(account, on: connection, store: setup.store, dryRun: options.dryRun, context: context,
                                      printer: printer, checkpoint: checkpoint)
            // The Sent folder once, even when `mailboxes =` names it (`in:Sent` holds there too).
            let read = (account.mailboxes + shared.extra).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            for mailbox in read {
                let outcome: (status: ExitStatus, processed: Int, records: Int)
                do {
                    outcome = try AccountSession.runMailbox(mailbox, account: account, on: connection, setup: setup, options: options,
                                                            shared: shared, parts: parts, printer: printer, context: context,
                                                            checkpoint: checkpoint)
                } catch let error as MailError where error.kind == .missingFolder && !account.mailboxes.contains(mailbox) {
                    // A Sieve folder deleted since a run read it: skipped, as the LIST would have.
                    let existing = try FolderNames.existing(on: connection)
                    if try FolderNames.missing([mailbox], existing: existing, on: connection).isEmpty { throw error }
                    if mailbox == shared.sent {
                        // `sent = FOLDER` naming a folder that is not there: said, not skipped silently.
                        context.err("triage: account \(account.name): \(try FolderNames.missingLine((mailbox, nil), on: connection)); "
                                    + "a rule reads in:Sent, but no sent mail is read: create it or fix sent = in [account \(account.name)]\n")
                        worst = max(worst, .config)
                    }
                    continue
                }
                source.mailboxes[mailbox] = RunRecord.MailboxRun(lastRun: book.stamp, messages: outcome.processed)
                worst = max(worst, outcome.status)
            }
            // What a digest reply read just now snoozed: out of its mailbox.
            try SnoozeService.putAwayPending(account, on: connection, store: setup.store, dryRun: options.dryRun, context: context,
                                             printer: printer, checkpoint: checkpoint)
            book.settle(&source, "account \(account.name)", nil)
        } catch let error as TriageError {
            book.settle(&source, "account \(account.name)", error)
            worst = max(worst, error.exitStatus)
        }
        book.record.accounts[account.name] = source
        return worst
    }

    // MARK: - The steps after the mail, for both

    /// After the mail: pending webhooks (after the mail actions, so a slow or failing
    /// endpoint never holds them up; bounded by webhook_budget, so they cannot hold
    /// up the digest either), then, with `digest`, the day's digest when it is due, its
    /// outcome settled in `book`. Under the store lock. Returns the worst status and
    /// whether a digest was sent or failed.
    package func afterMail(book: RunBook, context: Context, digest: Bool,
                           digestPassword: Result<String, any Error>?) throws -> (status: ExitStatus, sent: DigestOutcome?) {
        for failure in try WebhookDispatcher.deliverPending(store: setup.store, policy: WebhookDispatcher.policy(setup.config),
                                                            context: context, checkpoint: checkpoint) {
            context.err("triage: \(failure)\n")
        }
        // Unsubscribes the user asked for (issue 28), before the digest that says what became of them.
        for line in UnsubscribeService.afterMail(setup: setup, now: context.now) { context.err(line + "\n") }
        // The day's digest, after the accounts (even when some failed).
        guard digest, setup.config.digest != nil else { return (.ok, nil) }
        let outcome = DigestService.sendDue(setup: setup, context: context, password: digestPassword, checkpoint: checkpoint)
        var source = book.record.digest ?? RunRecord.Source()
        var status = ExitStatus.ok
        var sent: DigestOutcome?
        switch outcome {
        case .success(.notDue):
            sent = .notDue
        case .success(let done):
            sent = done
            book.settle(&source, "digest", nil, inDigest: false)
            switch done {
            case .sent(let draft):
                book.record.digestCheck = RunRecord.DigestCheck(day: draft.plan.day.iso, outcome: .sent, at: book.stamp)
            case .nothingToReport(let day, _):
                book.record.digestCheck = RunRecord.DigestCheck(day: day.iso, outcome: .empty, at: book.stamp)
            default:
                break
            }
        case .failure(let error):
            // Not in the digest it is about: the digest's own failure is said on standard error.
            book.settle(&source, "digest", error, inDigest: false)
            status = error.exitStatus
        }
        book.record.digest = source
        return (status, sent)
    }

    /// Syncs every `[caldav NAME]`, or those named in `only` (the caller holds the store
    /// lock); the worst status.
    package func syncCalDAV(context: Context, only: Set<String>? = nil) -> ExitStatus {
        CalDAVService.syncAll(setup: setup, context: context, dryRun: false, verbose: verbose, checkpoint: armedCheckpoint,
                              only: only)
    }
}
