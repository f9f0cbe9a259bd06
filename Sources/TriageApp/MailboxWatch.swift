import Foundation
import TriageConfig
import TriageCore

/// One mailbox `triage watch` keeps an eye on: the connection that watches it
/// (`WatchChannel`, shared with others under NOTIFY or a STATUS poll), whether it
/// needs a pass, and when it was last looked at.
package final class MailboxWatch {
    package let account: AccountSection
    package let mailbox: String
    /// A folder the account's Sieve script files into, not one of its `mailboxes`.
    package let filed: Bool
    /// The connection that watches it and runs its passes.
    package weak var channel: WatchChannel?
    /// The mailbox needs a pass of the runner (just connected, the server said something, poll time).
    package var dirty = true
    /// When to look again (on a connection that polls).
    package var nextPoll = Date.distantPast
    /// What the last STATUS look said: a pass only when it changes.
    package var counters: MailboxCounters?
    /// When the last pass began: passes are at least `WatchLoop.passGap` apart.
    package var lastPass = Date.distantPast

    package init(account: AccountSection, mailbox: String, filed: Bool = false) {
        self.account = account
        self.mailbox = mailbox
        self.filed = filed
    }

    /// Whether this mailbox's pass wakes the account's snoozed mail: the first of its `mailboxes`.
    package var wakes: Bool { !filed && account.mailboxes.first == mailbox }

    /// `account/mailbox`, for messages.
    package var name: String { "\(account.name)/\(mailbox)" }

    /// The open connection of its channel, nil while it is down.
    package var connection: MailConnection? { channel?.connection }
}
