import Foundation
import TriageCore

/// Where a `MailConnectionContract` runs: a fresh account with an empty INBOX and
/// an empty folder `Archive`, whose mailboxes are Maildir folders the test can
/// seed directly (Dovecot's own, or a local one).
public protocol ContractBackend {
    /// For failure messages: `IMAP`, `Maildir`.
    var name: String { get }
    /// A new connection to the account.
    func connect() throws -> MailConnection
    /// Puts a message into `mailbox` with Maildir info flags (`S`, `F`, `R`) and
    /// an arrival time. Messages get UIDs in the order they are seeded.
    func seed(_ message: String, mailbox: String, flags: String, date: Date) throws
}
