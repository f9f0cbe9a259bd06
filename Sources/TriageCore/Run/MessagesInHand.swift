import Foundation

/// The messages a run has in hand in one mailbox, written before their batch is
/// fetched and removed when the mailbox is done, so that a message whose
/// processing kills the process (a trap, a crash in a parser) is not retried
/// forever: the next run finds the record of a process that never finished.
///
/// The policy (docs/run.md, "A message that crashes triage"): a batch found in
/// hand is processed again one message at a time, the record naming the single
/// message in hand; a message is skipped once the process died twice with it alone
/// in hand. One death is not enough: a SIGTERM, an OOM kill or a power cut while
/// one message is in hand says nothing about that message. A
/// skipped message stays on the server untouched; it is said on standard error
/// and in the digest's Problems, and its UID is kept here so `--all` skips it too.
///
/// The file (`state/ACCOUNT/MAILBOX+in-hand.json`) is written by the one atomic
/// writer; `+` never occurs in an escaped mailbox name. Only a run that holds the
/// store lock writes it, so a record found by the holder of the lock is stale.
public struct MessagesInHand: Codable, Equatable, Sendable {
    /// The UIDVALIDITY the UIDs belong to.
    public var uidValidity: UInt32
    /// The UIDs in hand: a batch, or one message alone.
    public var uids: [UInt32]
    /// How many processes died with these UIDs in hand before this one took them.
    public var deaths: Int
    /// The Subject of the one message in hand, one line, once parsed (only while a
    /// message is retried alone); for the report should it be skipped.
    public var subject: String?
    /// Its Message-ID, likewise.
    public var messageID: String?
    /// UIDs skipped as poison in this UIDVALIDITY.
    public var skipped: [UInt32]

    enum CodingKeys: String, CodingKey {
        case uidValidity = "uidvalidity"
        case uids, deaths, subject
        case messageID = "message_id"
        case skipped
    }

    /// How many deaths with a message alone in hand make it poison.
    public static let poisonDeaths = 2

    /// Creates a record.
    public init(uidValidity: UInt32, uids: [UInt32] = [], deaths: Int = 0, skipped: [UInt32] = []) {
        self.uidValidity = uidValidity
        self.uids = uids
        self.deaths = deaths
        self.skipped = skipped
    }

    /// Reads any version: fields added later default to empty.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        uidValidity = try c.decode(UInt32.self, forKey: .uidValidity)
        uids = try c.decodeIfPresent([UInt32].self, forKey: .uids) ?? []
        deaths = max(0, try c.decodeIfPresent(Int.self, forKey: .deaths) ?? 0)
        subject = try c.decodeIfPresent(String.self, forKey: .subject)
        messageID = try c.decodeIfPresent(String.self, forKey: .messageID)
        skipped = try c.decodeIfPresent([UInt32].self, forKey: .skipped) ?? []
    }

    /// The record file of a mailbox.
    public static func path(store: String, account: String, mailbox: String) -> String {
        store + "/state/" + MailboxState.escape(account) + "/" + MailboxState.escape(mailbox) + "+in-hand.json"
    }

    /// Reads the record; nil when there is none or it cannot be read (then nothing is
    /// skipped: at worst a crashing message is retried, never a good one left out).
    public static func load(store: String, account: String, mailbox: String) -> MessagesInHand? {
        guard let data = try? StoreFiles.read(path(store: store, account: account, mailbox: mailbox)) else { return nil }
        return try? JSONDecoder().decode(MessagesInHand.self, from: data)
    }

    /// Writes the record atomically and durably, before its messages are fetched.
    public func save(store: String, account: String, mailbox: String) throws {
        try StoreFiles.writeJSON(self, to: Self.path(store: store, account: account, mailbox: mailbox), durable: true)
    }

    /// Says that nothing is in hand: removes the record, or keeps only the skipped UIDs.
    public func clear(store: String, account: String, mailbox: String) throws {
        if skipped.isEmpty {
            try StoreFiles.remove(Self.path(store: store, account: account, mailbox: mailbox))
        } else {
            try MessagesInHand(uidValidity: uidValidity, skipped: skipped).save(store: store, account: account, mailbox: mailbox)
        }
    }

    /// What a run that found this stale record does with it, `done` being the last UID
    /// the saved state says is processed: the UIDs to process alone (with the deaths
    /// each carries), and the one to skip now, if any. UIDs at or below `done` were
    /// finished after the record was written.
    public func verdict(done: UInt32) -> (alone: [UInt32], deaths: Int, skip: UInt32?) {
        let pending = uids.filter { $0 > done }
        // A batch's death counts for none of its messages: each alone starts afresh, so
        // one more kill (a SIGTERM during the retry) never makes an innocent message poison.
        guard pending.count == 1 else { return (pending, 0, nil) }
        // A count from a file: never trusted to be small.
        let died = deaths >= Self.poisonDeaths ? Self.poisonDeaths : deaths + 1
        return died >= Self.poisonDeaths ? ([], died, pending[0]) : (pending, died, nil)
    }
}
