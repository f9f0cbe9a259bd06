import Foundation

/// The moves a batch is about to make, written before the first of them, like a
/// line of mbsync's journal, and what the moves proved along the way.
///
/// A server without MOVE moves in three commands (COPY, STORE `\Deleted`,
/// EXPUNGE). A run killed (or cut off) between them leaves the message in both
/// folders, or only here with `\Deleted`. Each COPY is therefore journaled as a
/// `CopyAttempt`: the target's UIDNEXT before it is sent, its COPYUID right after
/// its answer, both before any original is marked `\Deleted`. The rerun resumes
/// from that proof (`CopyEvidence`, `MailConnection.resumeMove`) and copies again
/// whatever the journal cannot prove was copied.
///
/// The file (`state/ACCOUNT/MAILBOX+moves.json`) is removed when the mailbox's
/// run ends; a stale one is harmless, since a UID that was moved is gone.
/// Format: `uidvalidity`, `moves` (folder -> UIDs, as ever) and `attempts`
/// (added later; a journal without it proves nothing, so its moves are simply
/// made again: at worst a duplicate, never a loss).
public struct MoveJournal: Codable, Equatable, Sendable {
    /// The UIDVALIDITY the UIDs belong to.
    public var uidValidity: UInt32
    /// Target folder -> UIDs being moved there.
    public var moves: [String: [UInt32]]
    /// Every COPY begun, in order, with what it proved.
    public var attempts: [CopyAttempt]

    enum CodingKeys: String, CodingKey {
        case uidValidity = "uidvalidity"
        case moves, attempts
    }

    /// Creates a journal.
    public init(uidValidity: UInt32, moves: [String: [UInt32]] = [:], attempts: [CopyAttempt] = []) {
        self.uidValidity = uidValidity
        self.moves = moves
        self.attempts = attempts
    }

    /// Reads a journal of any version (one without `attempts` proves nothing).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uidValidity = try container.decode(UInt32.self, forKey: .uidValidity)
        moves = try container.decodeIfPresent([String: [UInt32]].self, forKey: .moves) ?? [:]
        attempts = try container.decodeIfPresent([CopyAttempt].self, forKey: .attempts) ?? []
    }

    /// The UIDs of `uids` that an earlier run may have started moving to `folder`
    /// (listed in `moves`, or in a journaled COPY): the ones to resume rather than
    /// simply move.
    public func started(_ uids: [UInt32], to folder: String) -> [UInt32] {
        let begun = Set((moves[folder] ?? []) + attempts.filter { $0.folder == folder }.flatMap(\.uids))
        return uids.filter(begun.contains)
    }

    /// The COPYs begun towards `folder`.
    public func attempts(to folder: String) -> [CopyAttempt] {
        attempts.filter { $0.folder == folder }
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
        try StoreFiles.writeJSON(self, to: MoveJournal.path(store: store, account: account, mailbox: mailbox), durable: true)
    }

    /// Removes the journal of a mailbox, if any.
    public static func remove(store: String, account: String, mailbox: String) throws {
        try StoreFiles.remove(path(store: store, account: account, mailbox: mailbox))
    }
}
