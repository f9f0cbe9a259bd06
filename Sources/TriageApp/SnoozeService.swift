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

    /// The account's snoozed folder, made unless `dryRun` (and already there).
    package static func folder(_ account: AccountSection, on connection: MailConnection, dryRun: Bool) throws -> String {
        if !dryRun { try connection.createFolder(account.snoozedFolder) }
        return account.snoozedFolder
    }
}
