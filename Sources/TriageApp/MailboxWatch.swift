import Foundation
import TriageConfig
import TriageCore
import TriageIMAP

/// One mailbox `triage watch` keeps an eye on: its own connection (IDLE watches
/// only the selected mailbox), whether it is idling, and when to try again after
/// the connection was lost.
package final class MailboxWatch {
    package let account: AccountSection
    package let mailbox: String
    /// A folder the account's Sieve script files into, not one of its `mailboxes`.
    package let filed: Bool
    /// The open connection, nil while it is down.
    package var connection: MailConnection?
    /// What the account's mailboxes share on this connection (archive folder, digest
    /// commands), looked up when it is made.
    package var shared = AccountSession.AccountShared(archive: nil, commands: nil, filed: [])
    /// The connection as IMAP, when it is one with IDLE.
    package var idler: IMAPConnection? {
        guard let imap = connection as? IMAPConnection, imap.hasIdle else { return nil }
        return imap
    }
    /// In IDLE since this instant, or nil.
    package var idleSince: Date?
    /// The mailbox needs a pass of the runner (just connected, the server said something, poll time).
    package var dirty = true
    /// When to look again on a connection without IDLE.
    package var nextPoll = Date.distantPast
    /// When the last pass began: passes are at least `WatchLoop.passGap` apart.
    package var lastPass = Date.distantPast
    /// When to try to connect again.
    package var nextAttempt = Date.distantPast
    /// The pauses between attempts, and what to say when (once per outage and cause).
    package var policy: ReconnectPolicy

    package init(account: AccountSection, mailbox: String, filed: Bool = false, policy: ReconnectPolicy) {
        self.account = account
        self.mailbox = mailbox
        self.filed = filed
        self.policy = policy
    }

    /// Whether this mailbox's pass wakes the account's snoozed mail: the first of its `mailboxes`.
    package var wakes: Bool { !filed && account.mailboxes.first == mailbox }

    /// `account/mailbox`, for messages.
    package var name: String { "\(account.name)/\(mailbox)" }

    /// Drops the connection without a word to the server (it is gone or out of step).
    package func drop() {
        connection?.close()
        connection = nil
        idleSince = nil
    }
}
