import Foundation

/// How far `triage run` got in one mailbox of one account, like mbsync's state:
/// the UIDVALIDITY the UIDs belong to, the last UID fully processed, and when the
/// last complete run started.
///
/// Saved only after a batch's store records and server actions are done, by
/// writing a temporary file and renaming it, so a crash leaves the old state and
/// the rerun redoes (idempotently) the unfinished batch.
public struct MailboxState: Codable, Equatable, Sendable {
    /// The mailbox's UIDVALIDITY when `lastUID` was recorded; 0 (never a real one) for a
    /// folder `triage deploy sieve` found missing: its first run reads all of it.
    public var uidValidity: UInt32
    /// Every message with a UID up to this one has been processed.
    public var lastUID: UInt32
    /// When a run started that then went through the whole mailbox (to the end it
    /// found): every message that arrived before this time was processed, or
    /// deliberately left alone. After a UIDVALIDITY change, mail that arrived after
    /// it is the new mail. nil in states written before it was recorded (`last_run`).
    public var lastRun: Timestamp?
    /// Set while a walk after a UIDVALIDITY change is unfinished: messages that
    /// arrived before this time are left alone, also by a rerun after a crash.
    public var arrivedAfter: Timestamp?

    enum CodingKeys: String, CodingKey {
        case uidValidity = "uidvalidity"
        case lastUID = "last_uid"
        case lastRun = "last_run"
        case arrivedAfter = "arrived_after"
    }

    /// Creates a state.
    public init(uidValidity: UInt32, lastUID: UInt32, lastRun: Timestamp? = nil, arrivedAfter: Timestamp? = nil) {
        self.uidValidity = uidValidity
        self.lastUID = lastUID
        self.lastRun = lastRun
        self.arrivedAfter = arrivedAfter
    }

    /// The state file of a mailbox: `<store>/state/<account>/<mailbox>.json`, names escaped.
    public static func path(store: String, account: String, mailbox: String) -> String {
        store + "/state/" + escape(account) + "/" + escape(mailbox) + ".json"
    }

    /// Reads a state file; nil when there is none. A file that cannot be read is an error
    /// (exit 65) naming it: guessing would risk reprocessing or skipping mail.
    public static func load(store: String, account: String, mailbox: String) throws -> MailboxState? {
        let file = path(store: store, account: account, mailbox: mailbox)
        guard let data = try StoreFiles.read(file) else { return nil }
        do {
            return try JSONDecoder().decode(MailboxState.self, from: data)
        } catch {
            throw SimpleError(.dataError, "\(file): the run state cannot be read (\(error)); fix or delete it (deleting makes the next run start from new mail only)")
        }
    }

    /// Writes the state atomically and durably (temp file, fsync, rename, fsync folder).
    public func save(store: String, account: String, mailbox: String) throws {
        try StoreFiles.writeJSON(self, to: MailboxState.path(store: store, account: account, mailbox: mailbox), durable: true)
    }

    /// Escapes a name for use as a file name: bytes other than `A-Z a-z 0-9 . _ -` as `%XX`.
    static func escape(_ name: String) -> String {
        var out = ""
        for byte in name.utf8 {
            switch byte {
            case 48...57, 65...90, 97...122, 95, 45: out.unicodeScalars.append(UnicodeScalar(byte))
            case 46 where !out.isEmpty: out.append(".")
            default: out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}
