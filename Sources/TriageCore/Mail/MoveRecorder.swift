/// Where a connection that moves in several steps (`UID COPY`, `UID STORE
/// +FLAGS (\Deleted)`, `UID EXPUNGE`) writes down its progress, durably, before
/// going on: a run killed or cut off between the steps is then resumed from
/// proof (`CopyEvidence`), neither losing nor doubling a message.
/// `MailboxRunner` keeps it in the `MoveJournal`. Connections that move
/// atomically (IMAP MOVE, a Maildir rename) never call it.
public protocol MoveRecorder: AnyObject {
    /// Before the COPY of `uids` to `folder`: the folder's UIDVALIDITY and UIDNEXT
    /// (0 when the server did not say). Throwing stops the move before the COPY.
    func willCopy(_ uids: [UInt32], to folder: String, targetUIDValidity: UInt32, targetUIDNext: UInt32) throws

    /// Right after the COPY's answer, before any original is marked `\Deleted`:
    /// the pairs its COPYUID named (empty when it named none), in the target
    /// folder's UIDVALIDITY `targetUIDValidity`.
    func didCopy(_ copies: [CopyAttempt.Copy], to folder: String, targetUIDValidity: UInt32) throws
}
