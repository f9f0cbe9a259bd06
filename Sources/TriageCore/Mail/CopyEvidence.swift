/// What the move journal proves about a move that an interrupted run began on a
/// server without MOVE: which originals already have their copy in the target
/// folder, so that only those are expunged without copying again.
///
/// Two kinds of proof, both written before any original is marked `\Deleted`:
///
/// 1. **COPYUID** (RFC 4315), journaled right after the COPY's answer: the copy of
///    UID u is target UID t. UIDs are never reused within one UIDVALIDITY, so a t
///    that still exists is that copy.
/// 2. **UIDNEXT before the COPY**, journaled before the COPY is sent: covers a
///    run killed (or cut off) after the COPY but before its answer was journaled.
///    Any copy it made has a target UID at least that UIDNEXT, so only those are
///    candidates, and a candidate counts only when it is the same message: the
///    same RFC822.SIZE, the same INTERNALDATE (COPY preserves it) and a
///    byte-identical header (Message-ID, Date, every `Received` line). A decoy
///    with the same Message-ID that was already in the folder is below UIDNEXT; one
///    delivered later has its own `Received` lines and arrival time. Each candidate
///    stands for one original at most, so two identical originals need two copies.
///
/// Without either proof the message is copied again: a duplicate is acceptable,
/// a loss never. Proofs from another UIDVALIDITY of the target folder count for
/// nothing, and so do journals written before these fields existed.
public struct CopyEvidence: Equatable, Sendable {
    /// Original UID -> the UID of its copy, as COPYUID said.
    public private(set) var proven: [UInt32: UInt32] = [:]
    /// Original UID -> the lowest target UIDNEXT recorded before a COPY of it.
    public private(set) var floors: [UInt32: UInt32] = [:]
    /// Every pair COPYUID named in this folder's UIDVALIDITY, for any original:
    /// a copy of another message is never taken for one of these.
    private var named: [UInt32: UInt32] = [:]

    /// Gathers the proofs for `uids` moving to `folder` from the journal's
    /// `attempts`, given the target folder's UIDVALIDITY now.
    public init(uids: [UInt32], folder: String, attempts: [CopyAttempt], targetUIDValidity: UInt32) {
        let wanted = Set(uids)
        for attempt in attempts where attempt.folder == folder && attempt.targetUIDValidity == targetUIDValidity {
            for copy in attempt.copies ?? [] {
                named[copy.uid] = named[copy.uid] ?? copy.copy
                if wanted.contains(copy.uid) && proven[copy.uid] == nil { proven[copy.uid] = copy.copy }
            }
            guard attempt.targetUIDNext > 0 else { continue }
            for uid in attempt.uids where wanted.contains(uid) {
                floors[uid] = min(floors[uid] ?? .max, attempt.targetUIDNext)
            }
        }
    }

    /// Whether there is anything to look for in the target folder.
    public var isEmpty: Bool { proven.isEmpty && floors.isEmpty }

    /// The target UIDs named by COPYUID: only whether they still exist matters.
    public var provenCopies: [UInt32] { Set(proven.values).sorted() }

    /// The lowest target UID a copy without COPYUID proof can have (look at this
    /// one and above), or nil when every original has a COPYUID proof or none has
    /// a UIDNEXT mark.
    public var searchFloor: UInt32? {
        floors.filter { proven[$0.key] == nil }.values.min()
    }

    /// Original UID -> the UID of its copy, for the originals whose copy is proven.
    ///
    /// `originals` are the messages still here (UID, size, INTERNALDATE, header);
    /// `target` the target folder's messages at the proven UIDs and from
    /// `searchFloor` on (those without a header are checked for existence only).
    /// A COPYUID copy needs only to exist; a copy found above UIDNEXT must match
    /// its original in size, INTERNALDATE and header bytes, and stands for one
    /// original only (the lowest UIDs pair first, as COPY numbers its copies).
    public func copies(of originals: [FetchedMessage], in target: [FetchedMessage]) -> [UInt32: UInt32] {
        var found: [UInt32: UInt32] = [:]
        let here = Set(originals.map(\.uid))
        var taken = Set(named.filter { !here.contains($0.key) }.values)
        let existing = Set(target.map(\.uid))
        let sortedOriginals = originals.sorted { $0.uid < $1.uid }
        for original in sortedOriginals {
            guard let copy = proven[original.uid], existing.contains(copy), !taken.contains(copy) else { continue }
            found[original.uid] = copy
            taken.insert(copy)
        }
        let candidates = target.sorted { $0.uid < $1.uid }
        for original in sortedOriginals where found[original.uid] == nil {
            guard let floor = floors[original.uid], let arrived = original.internalDate, !original.header.isEmpty else { continue }
            let match = candidates.first { candidate in
                candidate.uid >= floor && !taken.contains(candidate.uid)
                    && candidate.size == original.size && candidate.internalDate == arrived
                    && candidate.header == original.header
            }
            if let match {
                found[original.uid] = match.uid
                taken.insert(match.uid)
            }
        }
        return found
    }
}
