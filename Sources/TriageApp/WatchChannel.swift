import Foundation
import TriageConfig
import TriageCore

/// One connection `triage watch` holds to an account, and the mailboxes it watches
/// (`WatchPlan.Channel`): with NOTIFY every mailbox, with IDLE one, or a STATUS look
/// at several every `poll_interval`. The passes of its mailboxes run on it too, so
/// the account never has more connections than its plan.
package final class WatchChannel {
    /// What the connection does; nil for the account's first connection until it has
    /// said what the server can (the plan is made from that).
    package enum Role: Equatable { case notify, idle, poll }

    package let account: AccountSection
    package var role: Role?
    /// The mailboxes it watches, in order.
    package var mailboxes: [MailboxWatch] = []
    /// The open connection, nil while it is down.
    package var connection: MailConnection?
    /// What the account's mailboxes share on this connection (archive folder, digest
    /// commands, Sieve-filed folders), looked up when it is made.
    package var shared = AccountSession.AccountShared(archive: nil, commands: nil, filed: [])
    /// In IDLE since this instant, or nil.
    package var idleSince: Date?
    /// NOTIFY must be sent (again) with the mailboxes now watched.
    package var notifyPending = false
    /// When to try to connect again.
    package var nextAttempt = Date.distantPast
    /// The pauses between attempts, and what to say when (once per outage and cause).
    package var policy: ReconnectPolicy

    package init(account: AccountSection, role: Role?, policy: ReconnectPolicy) {
        self.account = account
        self.role = role
        self.policy = policy
    }

    /// `account/INBOX`, or `account/INBOX, Lists` for a connection watching several.
    package var name: String {
        "\(account.name)/" + (mailboxes.isEmpty ? account.mailboxes : mailboxes.map(\.mailbox)).joined(separator: ", ")
    }

    /// Whether it idles (NOTIFY or IDLE) between passes.
    package var idles: Bool {
        guard let connection, let role else { return false }
        return role != .poll && connection.canIdle
    }

    /// Drops the connection without a word to the server (it is gone or out of step).
    package func drop() {
        connection?.close()
        connection = nil
        idleSince = nil
    }
}
