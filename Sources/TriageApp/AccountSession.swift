import Foundation
import TriageConfig
import TriageCore
import TriageIMAP
import TriageMaildir
import TriageMIME

/// The account session: connecting to an account (Maildir, or IMAP with verified TLS
/// after its credential command), looking up what its mailboxes share (folders,
/// archive, digest commands, Sieve-filed folders), and one pass of one mailbox
/// through `MailboxRunner`. `RunPipeline` strings these together for `run` and `watch`.
package enum AccountSession {
    /// The batch size when `--batch-size` is not given: `standard`, or 5,000 when
    /// the rules read only headers.
    package static func defaultBatchSize(parts: MessageParts, _ standard: Int) -> Int {
        // Every batch costs the server a fixed amount per STORE and MOVE (0.2-0.5 s
        // each on a 100,000-message maildir, whatever the UID count): fewer, larger
        // batches. Header-only messages are small and the batch is still fetched
        // 1,000 at a time, so 5,000 costs about 5 MB more than 1,000.
        parts.contains(.text) ? standard : 5000
    }

    /// What follows connecting to an account: with `verbose` the folders the
    /// configuration and the rules name (as the server spells them), and the check
    /// of the folders the rules cannot do without.
    package static func prepare(_ connection: MailConnection, account: AccountSection, mailboxes: [String], setup: RunSetup,
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
    package static func runMailbox(_ mailbox: String, account: AccountSection, on connection: MailConnection, setup: RunSetup,
                           options: RunOptions, shared: AccountShared, parts: MessageParts, printer: RunPrinter,
                           context: Context, checkpoint: @escaping @Sendable (String) -> Void) throws
        -> (status: ExitStatus, processed: Int, records: Int) {
        let headerNames = setup.rules?.headerNames ?? []
        // `in:` compares in the rules' folder names: the namespace maps the server's back.
        let folders = try FolderNames.namespace(for: mailbox, on: connection)
        // The account's Sent folder is `in:Sent` to the rules, whatever the server calls it.
        let isSent = shared.sent == mailbox
        var runner = MailboxRunner(
            account: account.name, mailbox: mailbox, store: setup.store, options: options, now: context.now,
            parse: { MessageParser.parse($0, keepingHeaders: headerNames) },
            classify: { message in
                guard isSent else { return setup.classify(message, now: context.now, folders: folders) }
                var sent = message
                sent.server.mailbox = "Sent"
                return setup.classify(sent, now: context.now, folders: .plain)
            },
            report: printer.report)
        runner.checkpoint = checkpoint
        runner.messageHook = CrashHook.messageHook(context.hooks.crashSubject, say: { [output = context.output] in output.err($0) })
        runner.parts = parts
        // TRIAGE_WHOLE_SNIPPET=1 fetches every record's text at full length (the tests
        // compare both ways).
        if !context.hooks.wholeSnippet {
            runner.parsePrefix = { MessageParser.parse(prefix: $0, keepingHeaders: headerNames) }
        }
        runner.commands = shared.commands
        if let archive = shared.archive { runner.archive = archive.target }
        runner.snoozedFolder = { [dryRun = options.dryRun] in try SnoozeService.folder(account, on: connection, dryRun: dryRun) }
        // TRIAGE_WHOLE_HEADER=1 fetches every header whole (a server whose
        // HEADER.FIELDS misbehaves; the tests compare both ways).
        if !context.hooks.wholeHeader {
            runner.headerFields = setup.rules?.neededHeaderFields
        }
        // Narrowing on the server (issue 14): fetch only what the server's SEARCH finds;
        // not with follow-ups, which look at every message for answers.
        let followsUp = setup.rules?.followsUp ?? false
        runner.narrowing = followsUp ? nil : setup.rules.map(ServerNarrowing.plan)
        if followsUp {
            runner.followUps = try FollowUpTracker(store: setup.store.root, identities: setup.config.triage.me)
        }
        runner.serverSearch = account.serverSearch
        runner.authservID = account.authservID
        let outcome = try runner.run(on: connection)
        for notice in connection.takeNotices() {
            context.err("triage: \(account.name)/\(mailbox): \(notice)\n")
        }
        return (outcome.failedActions.isEmpty ? .ok : .config, outcome.processed, outcome.recordsCreated)
    }

    /// What the mailboxes of one connected account share: where `archive` takes a
    /// message, the digest's command messages, and the folders a deployed Sieve
    /// script files into (their mail still needs its local actions).
    package struct AccountShared {
        package var archive: ArchiveFolder.Lookup?
        package var commands: DigestCommandInbox?
        package var filed: [String]
        /// The Sent folder, when a rule has `in:Sent` and `mailboxes =` and `filed` lack it
        /// (`sentFolder`); read after them.
        package var sent: String? = nil
        /// The folders read besides `mailboxes =`: the Sieve-filed ones, then Sent.
        package var extra: [String] { filed + (sent.map { [$0] } ?? []) }
    }

    /// Looks up `AccountShared` on `connection`; in a dry run says when the rules
    /// archive but the account has no archive folder.
    package static func accountSetup(_ account: AccountSection, on connection: MailConnection, setup: RunSetup,
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
        var sent: String?
        if setup.rules?.readsSent ?? false {
            sent = try sentFolder(account, on: connection)
            if sent == nil {
                context.err("triage: account \(account.name): a rule reads in:Sent, but \(connection.serverName) marks no folder "
                            + "\\Sent (SPECIAL-USE), has none named " + sentNames.joined(separator: ", ")
                            + ", and [account \(account.name)] sets no sent = FOLDER; no sent mail is read: set sent = FOLDER\n")
            }
        }
        return AccountShared(archive: archive, commands: commands, filed: filed, sent: sent)
    }

    /// The account's Sent folder (`in:Sent`, and whom `suggest` sees the user write to):
    /// `sent = FOLDER`, else the SPECIAL-USE `\Sent` folder (a Maildir's `Sent`), else the
    /// first folder of the server's list with one of the names mail clients give it
    /// (`sentNames`, without case; servers set up without SPECIAL-USE); nil when there is none.
    package static func sentFolder(_ account: AccountSection, on connection: MailConnection) throws -> String? {
        if let folder = account.sent { return folder }
        if let folder = try connection.specialUseFolder("\\Sent") { return folder }
        let folders = try connection.folderList() ?? []
        for name in sentNames {
            if let folder = folders.first(where: { $0.lowercased() == name.lowercased() }) { return folder }
        }
        return nil
    }

    /// The names mail clients give the Sent folder (Thunderbird, Apple Mail, Outlook, Gmail's).
    package static let sentNames = ["Sent", "Sent Messages", "Sent Items", "Sent Mail", "[Gmail]/Sent Mail"]

    /// After the mail: pending webhooks (after the mail actions, so a slow or failing
    /// endpoint never holds them up; bounded by webhook_budget, so they cannot hold
    /// up the digest either), then the day's digest when it is due. Under the store
    /// lock. Returns the digest's outcome; nil without a `[digest]`.
    package static func afterMail(setup: RunSetup, context: Context, digestPassword: Result<String, any Error>?,
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
    package static func connect(_ account: AccountSection, credential: Result<MailCredential, any Error>?, context: Context,
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
        if verbose && context.hooks.trace {
            settings.trace = { line in context.err("  " + line + "\n") }
        }
        return try IMAPConnection.connect(settings)
    }

    /// The IMAP login of an account: runs its `password_command` or `oauth2_token_command`
    /// (bounded by its `command_timeout`).
    package static func credential(for account: AccountSection) throws -> MailCredential {
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
