import Foundation
import TriageConfig
import TriageCore

/// The snooze's side of a run (docs/rules.md, "Snooze"): the due wakes of an account
/// before its mailboxes are read (so a woken message is classified in this pass, and
/// its snooze rule, whose record is woken, leaves it in INBOX), and the snoozed folder
/// a batch that snoozes moves to, made when missing.
package enum SnoozeService {
    /// Wakes the account's due snoozed messages on `connection` (none in a dry run,
    /// which only says which would wake). Returns how many came back.
    @discardableResult
    package static func wakeDue(_ account: AccountSection, on connection: MailConnection, store: Store, dryRun: Bool,
                                context: Context, printer: RunPrinter, checkpoint: @escaping @Sendable (String) -> Void) throws -> Int {
        var wake = SnoozeWake(account: account.name, folder: account.snoozedFolder, store: store, now: context.now,
                              report: printer.report)
        wake.checkpoint = checkpoint
        let due = wake.due()
        guard !due.isEmpty else { return 0 }
        if dryRun {
            for record in due {
                printer.report(.note(account: account.name, mailbox: account.snoozedFolder,
                                     "would wake \"\(record.message.subject ?? "(no subject)")\" (due \(record.wake))"))
            }
            return 0
        }
        return try wake.wake(due, on: connection).count
    }

    /// After the account's mailboxes (whose INBOX pass reads the digest's replies): puts
    /// away the messages a reply's `snooze ID until DAY` named. Nothing in a dry run.
    /// Returns whether it did anything (the connection then has another mailbox open).
    @discardableResult
    package static func putAwayPending(_ account: AccountSection, on connection: MailConnection, store: Store, dryRun: Bool,
                                       context: Context, printer: RunPrinter,
                                       checkpoint: @escaping @Sendable (String) -> Void) throws -> Bool {
        guard !dryRun else { return false }
        var wake = SnoozeWake(account: account.name, folder: account.snoozedFolder, store: store, now: context.now,
                              report: printer.report)
        wake.checkpoint = checkpoint
        let pending = wake.pending()
        guard !pending.isEmpty else { return false }
        try wake.putAway(pending, on: connection)
        return true
    }

    /// The account's snoozed folder, made unless `dryRun` (and already there).
    package static func folder(_ account: AccountSection, on connection: MailConnection, dryRun: Bool) throws -> String {
        if !dryRun { try connection.createFolder(account.snoozedFolder) }
        return account.snoozedFolder
    }
}

extension SnoozeService {
    /// `triage snooze wake ID...`: brings the named snoozed messages back now, whatever
    /// their time, account by account (credentials before the store lock, as `run`
    /// asks them; then the lock, waited for as `run` waits). Returns the woken records,
    /// and those that stayed snoozed (the server refused a STORE or MOVE, or the account's
    /// wake failed part way: each is still in the snoozed folder, its record snoozed),
    /// with why and the exit status that says it (75, or the failure's own).
    /// An unknown or ambiguous id is a data error (65) that changes nothing.
    package static func wakeNow(_ typed: [String], setup: RunSetup, context: Context) throws
        -> (woken: [SnoozeRecord], stayed: [(record: SnoozeRecord, reason: String, status: ExitStatus)]) {
        let store = setup.store
        let ids = try store.resolve(SnoozeRecord.self, typed)
        var records: [SnoozeRecord] = []
        for id in ids {
            guard let record = try store.record(SnoozeRecord.self, id: id) else { continue }
            guard record.woken == nil else {
                throw SimpleError(.dataError, "snooze wake: \(store.shortIDs(SnoozeRecord.self).short(id)) is back already "
                                  + "(woke \(record.woken.map(\.rfc3339) ?? "")); nothing to do")
            }
            records.append(record)
        }
        let accounts = Dictionary(grouping: records) { $0.message.account ?? "" }
        var credentials: [String: Result<MailCredential, any Error>] = [:]
        var sections: [String: AccountSection] = [:]
        for name in accounts.keys.sorted() {
            guard let account = setup.config.accounts.first(where: { $0.name == name }) else {
                throw SimpleError(.config, "snooze wake: the message was snoozed in [account \(name)], which \(setup.config.path) no longer has")
            }
            sections[name] = account
            if case .imap = account.endpoint { credentials[name] = Result { try AccountSession.credential(for: account) } }
        }
        let printer = RunPrinter(context: context, verbose: false, dryRun: false)
        let hook = context.hooks.crashHook(context.output)
        let checkpoint: @Sendable (String) -> Void = { hook.checkpoint($0) }
        try LockWait.lock(store, seconds: LockWait.runSeconds)
        defer { store.unlock() }
        var woken: [SnoozeRecord] = []
        var stayed: [(record: SnoozeRecord, reason: String, status: ExitStatus)] = []
        for name in accounts.keys.sorted() {
            guard let account = sections[name], let due = accounts[name] else { continue }
            let connection = try AccountSession.connect(account, credential: credentials[name], context: context, verbose: false,
                                                        checkpoint: hook.isArmed ? checkpoint : nil)
            defer { connection.close() }
            let outcome = try wakeAccount(due, account: account, on: connection, store: store, now: context.now,
                                          report: printer.report, checkpoint: checkpoint)
            woken += outcome.woken
            stayed += outcome.stayed
        }
        return (woken, stayed)
    }

    /// Wakes `due` (records of `account`) on `connection` for `triage snooze wake`. A
    /// refusal of one message's STORE or MOVE is reported (a warning) and the others
    /// still wake; a failure that stops the account (a refused MOVE on IMAP, a mailbox
    /// the server opens read-only, a lost connection) leaves the rest as they were.
    /// Either way, what the store says afterwards decides: a record still snoozed
    /// stayed, with why and exit 75 (or the failure's own status).
    package static func wakeAccount(_ due: [SnoozeRecord], account: AccountSection, on connection: MailConnection, store: Store,
                                    now: Date, report: @escaping (RunEvent) -> Void,
                                    checkpoint: @escaping @Sendable (String) -> Void = { _ in })
        throws -> (woken: [SnoozeRecord], stayed: [(record: SnoozeRecord, reason: String, status: ExitStatus)]) {
        var wake = SnoozeWake(account: account.name, folder: account.snoozedFolder, store: store, now: now, report: report)
        wake.checkpoint = checkpoint
        var woken: [SnoozeRecord] = []
        var failure: (reason: String, status: ExitStatus)?
        do {
            woken = try wake.wake(due, on: connection)
        } catch let error as MailError {
            failure = (error.description, error.kind == .refused ? .tempFail : error.exitStatus)
        }
        var stayed: [(record: SnoozeRecord, reason: String, status: ExitStatus)] = []
        let done = Set(woken.map(\.id))
        for record in due where !done.contains(record.id) {
            if let current = try? store.record(SnoozeRecord.self, id: record.id), current.woken != nil {
                woken.append(current)
                continue
            }
            stayed.append((record, failure?.reason ?? "the server refused to bring it back (see the warning above)",
                           failure?.status ?? .tempFail))
        }
        return (woken, stayed)
    }
}
