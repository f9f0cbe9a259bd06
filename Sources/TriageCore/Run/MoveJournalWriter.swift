/// Keeps a mailbox's `MoveJournal` on disk while its moves run: `MailboxRunner`
/// hands it to the connection, which reports each COPY before it is sent and
/// right after its answer. Each report is saved durably before the connection
/// goes on, and is a crash-test checkpoint (`journal copy`, `journal copied`).
final class MoveJournalWriter: MoveRecorder {
    private(set) var journal: MoveJournal
    private let store: String
    private let account: String
    private let mailbox: String
    private let checkpoint: (String) -> Void

    init(_ journal: MoveJournal, store: String, account: String, mailbox: String, checkpoint: @escaping (String) -> Void) {
        self.journal = journal
        self.store = store
        self.account = account
        self.mailbox = mailbox
        self.checkpoint = checkpoint
    }

    func willCopy(_ uids: [UInt32], to folder: String, targetUIDValidity: UInt32, targetUIDNext: UInt32) throws {
        journal.attempts.append(CopyAttempt(folder: folder, uids: uids, targetUIDValidity: targetUIDValidity,
                                            targetUIDNext: targetUIDNext))
        try journal.save(store: store, account: account, mailbox: mailbox)
        checkpoint("journal copy")
    }

    func didCopy(_ copies: [CopyAttempt.Copy], to folder: String, targetUIDValidity: UInt32) throws {
        // Without COPYUID there is nothing to add: the UIDNEXT mark is all the proof.
        guard !copies.isEmpty, let index = journal.attempts.lastIndex(where: { $0.folder == folder }) else { return }
        if journal.attempts[index].targetUIDValidity != targetUIDValidity {
            // The folder was renumbered between STATUS and COPY: the mark is void.
            journal.attempts[index].targetUIDValidity = targetUIDValidity
            journal.attempts[index].targetUIDNext = 0
        }
        journal.attempts[index].copies = copies
        try journal.save(store: store, account: account, mailbox: mailbox)
        checkpoint("journal copied")
    }
}
