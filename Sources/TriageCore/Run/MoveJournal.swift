import Foundation

/// The moves a batch is about to make, written before the first of them, like a
/// line of mbsync's journal.
///
/// A server without MOVE moves in three commands (COPY, STORE `\Deleted`,
/// EXPUNGE). A crash after the COPY leaves the message in both folders, and the
/// rerun, which finds it still here, would copy it a second time. With the
/// journal the rerun knows which UIDs it may already have copied and asks the
/// connection to check the target folder first (`MailConnection.resumeMove`).
/// The file (`state/ACCOUNT/MAILBOX+moves.json`) is removed when the mailbox's
/// run ends; a stale one is harmless, since a UID that was moved is gone.
public struct MoveJournal: Codable, Equatable, Sendable {
    /// The UIDVALIDITY the UIDs belong to.
    public var uidValidity: UInt32
    /// Target folder -> UIDs being moved there.
    public var moves: [String: [UInt32]]

    enum CodingKeys: String, CodingKey {
        case uidValidity = "uidvalidity"
        case moves
    }

    /// Creates a journal.
    public init(uidValidity: UInt32, moves: [String: [UInt32]] = [:]) {
        self.uidValidity = uidValidity
        self.moves = moves
    }

    /// The UIDs of `uids` that an earlier run may have started moving to `folder`.
    public func started(_ uids: [UInt32], to folder: String) -> [UInt32] {
        guard let listed = moves[folder] else { return [] }
        let set = Set(listed)
        return uids.filter(set.contains)
    }

    /// The journal file of a mailbox. `+` never occurs in an escaped mailbox name,
    /// so no mailbox's state file can have this name.
    public static func path(store: String, account: String, mailbox: String) -> String {
        store + "/state/" + MailboxState.escape(account) + "/" + MailboxState.escape(mailbox) + "+moves.json"
    }

    /// Reads the journal; nil when there is none or it cannot be read (then nothing
    /// is resumed: a lost journal can only mean a duplicate copy, never a lost message).
    public static func load(store: String, account: String, mailbox: String) -> MoveJournal? {
        guard let data = try? StoreFiles.read(path(store: store, account: account, mailbox: mailbox)) else { return nil }
        return try? JSONDecoder().decode(MoveJournal.self, from: data)
    }

    /// Writes the journal atomically and durably.
    public func save(store: String, account: String, mailbox: String) throws {
        let file = MoveJournal.path(store: store, account: account, mailbox: mailbox)
        let folder = (file as NSString).deletingLastPathComponent
        try StoreFiles.makeFolder(folder)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let temp = folder + "/" + StoreFiles.tempPrefix + "moves." + String(getpid())
        try? StoreFiles.remove(temp)
        try StoreFiles.writeNew(temp, try encoder.encode(self), sync: true)
        try StoreFiles.rename(temp, file)
        try StoreFiles.syncFolder(folder)
    }

    /// Removes the journal of a mailbox, if any.
    public static func remove(store: String, account: String, mailbox: String) throws {
        try StoreFiles.remove(path(store: store, account: account, mailbox: mailbox))
    }
}
