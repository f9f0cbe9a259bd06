/// One `UID COPY` of a move on a server without MOVE, as the move journal
/// (`MoveJournal`) records it, so that a resumed move can prove what was copied.
///
/// Written twice, durably: before the COPY with the target folder's UIDVALIDITY and
/// UIDNEXT (every copy the COPY makes gets a UID at least that), and right after
/// its answer with the COPYUID pairs (RFC 4315). `CopyEvidence` reads it back.
public struct CopyAttempt: Codable, Equatable, Sendable {
    /// One message copied: its UID here and the UID of its copy in the target folder.
    public struct Copy: Codable, Equatable, Hashable, Sendable {
        /// The UID in the mailbox being processed.
        public var uid: UInt32
        /// The UID of the copy in the target folder.
        public var copy: UInt32

        /// Creates a pair.
        public init(uid: UInt32, copy: UInt32) {
            self.uid = uid
            self.copy = copy
        }
    }

    /// The target folder as the rule names it.
    public var folder: String
    /// The UIDs the COPY was sent for.
    public var uids: [UInt32]
    /// The target folder's UIDVALIDITY the other numbers belong to.
    public var targetUIDValidity: UInt32
    /// The target folder's UIDNEXT just before the COPY (0 when unknown).
    public var targetUIDNext: UInt32
    /// What COPYUID said, once the COPY was answered; nil before, and when the
    /// server's answer had no COPYUID.
    public var copies: [Copy]?

    enum CodingKeys: String, CodingKey {
        case folder, uids, copies
        case targetUIDValidity = "target_uidvalidity"
        case targetUIDNext = "target_uidnext"
    }

    /// Creates an attempt.
    public init(folder: String, uids: [UInt32], targetUIDValidity: UInt32, targetUIDNext: UInt32, copies: [Copy]? = nil) {
        self.folder = folder
        self.uids = uids
        self.targetUIDValidity = targetUIDValidity
        self.targetUIDNext = targetUIDNext
        self.copies = copies
    }
}
