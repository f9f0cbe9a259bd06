/// What a run reports as it goes; the CLI decides what to print (`--verbose`,
/// `--dry-run`) and what goes to standard error.
public enum RunEvent: Sendable {
    /// A one-line note for `--verbose` (e.g. "first run: only new mail from now on").
    case note(account: String, mailbox: String, String)
    /// A note that is always shown once, on standard error (e.g. a UIDVALIDITY change).
    case warning(account: String, mailbox: String, String)
    /// What the rules decided for one message.
    case decision(account: String, mailbox: String, uid: UInt32, subject: String?, actions: [PlannedAction])
    /// A server action failed but the run goes on (e.g. a missing move folder).
    case actionFailed(account: String, mailbox: String, uids: [UInt32], action: String, reason: String)
    /// One mailbox finished.
    case mailboxDone(account: String, mailbox: String, processed: Int, records: Int)
}
