import CEtPan
import TriageCore
import TriageMIME

/// Moving messages: `UID MOVE` (RFC 6851), or without it `UID COPY`, `\Deleted` and
/// `UID EXPUNGE` (RFC 4315) with the copies journaled, and resuming such a move.
extension IMAPConnection {
    /// A new move (`attempts` nil), or the resumption of one an interrupted run began.
    @discardableResult
    public func move(_ uids: [UInt32], to folder: String, recorder: MoveRecorder?, resuming attempts: [CopyAttempt]?) throws -> MoveMethod {
        if let attempts { return try resumeMoving(uids, to: folder, attempts: attempts, recorder: recorder) }
        return try moving(uids, to: folder, recorder: recorder)
    }

    /// With MOVE one command. Without it (UIDPLUS needed): the target's UIDNEXT
    /// (`STATUS`) goes to `recorder` before `UID COPY`, the COPYUID pairs right after
    /// its answer, and only then `UID STORE +FLAGS (\Deleted)` and `UID EXPUNGE` of
    /// exactly these UIDs: whatever step a run dies after, the journal proves what
    /// was copied (see `CopyEvidence`).
    private func moving(_ uids: [UInt32], to folder: String, recorder: MoveRecorder?) throws -> MoveMethod {
        guard !uids.isEmpty else { return hasMove ? .move : .copyAndExpunge }
        _ = try liveSession()
        try requireWritable("MOVE")
        let name = ModifiedUTF7.encode(try serverFolder(folder))
        let set = IMAPSet.make(uids)
        defer { mailimap_set_free(set) }
        let failure = { self.moveFailure($0, folder: folder, wire: name) }
        if hasMove {
            try perform("UID MOVE", failure: failure) { mailimap_uid_move($0, set, name) }
            return .move
        }
        guard hasUIDPlus else {
            // Without UIDPLUS the only way to remove the originals is a bare EXPUNGE,
            // which would also remove messages someone else marked \Deleted.
            throw MailError(.configuration, server: serverName,
                            "the server has neither MOVE nor UIDPLUS, so triage cannot move messages safely; "
                            + "remove the move actions for this account")
        }
        if let recorder {
            let target = try targetStatus(folder, wire: name)
            try recorder.willCopy(uids, to: folder, targetUIDValidity: target.uidValidity, targetUIDNext: target.uidNext)
        }
        var copyValidity: UInt32 = 0
        var sources: UnsafeMutablePointer<mailimap_set>?
        var copies: UnsafeMutablePointer<mailimap_set>?
        defer {
            if let sources { mailimap_set_free(sources) }
            if let copies { mailimap_set_free(copies) }
        }
        try perform("UID COPY", failure: failure) {
            mailimap_uidplus_uid_copy($0, set, name, &copyValidity, &sources, &copies)
        }
        if let recorder, copyValidity != 0 {
            try recorder.didCopy(Self.copyPairs(sources, copies, asked: uids), to: folder, targetUIDValidity: copyValidity)
        }
        try deleteAndExpunge(uids)
        return .copyAndExpunge
    }

    /// Without MOVE: the originals whose copy the journal proves (`CopyEvidence`:
    /// the COPYUID of the interrupted COPY, or a copy above the UIDNEXT recorded
    /// before it that is the same message) are only marked `\Deleted` and expunged
    /// here; the others are copied (again) and moved as usual. A Message-ID alone
    /// proves nothing: another message with the same one may be in the folder.
    private func resumeMoving(_ uids: [UInt32], to folder: String, attempts: [CopyAttempt], recorder: MoveRecorder?) throws -> MoveMethod {
        guard !hasMove, hasUIDPlus, !uids.isEmpty, let source = selected else { return try moving(uids, to: folder, recorder: recorder) }
        try requireWritable("MOVE")
        // The originals as they are now (an expunged one is simply absent).
        let originals = try fetch(uids, parts: [])
        let copied = try journaledCopies(of: originals, in: folder, attempts: attempts, returningTo: source)
        let rest = originals.filter { copied[$0.uid] == nil }
        // A \Deleted mark (most likely the interrupted run's) would pass on to the new
        // copy: the moved message arrives unmarked, never marked for removal.
        let marked = rest.filter { $0.flags.contains("\\Deleted") }.map(\.uid)
        if !marked.isEmpty { try store(FlagChange(.remove, flags: ["\\Deleted"]), uids: marked) }
        if !rest.isEmpty { try move(rest.map(\.uid), to: folder, recorder: recorder) }
        if !copied.isEmpty {
            let done = copied.keys.sorted()
            tracer?.note("UID \(UIDRanges.sequenceSet(done)) already in \(folder) (an interrupted move; copies "
                         + "\(UIDRanges.sequenceSet(done.compactMap { copied[$0] })) proven by the journal): expunging only")
            try deleteAndExpunge(done)
        }
        return .copyAndExpunge
    }

    /// Marks exactly `uids` `\Deleted` and expunges exactly them (`UID EXPUNGE`): a
    /// message someone else marked stays.
    private func deleteAndExpunge(_ uids: [UInt32]) throws {
        try store(FlagChange(.add, flags: ["\\Deleted"]), uids: uids)
        let set = IMAPSet.make(uids)
        defer { mailimap_set_free(set) }
        try perform("UID EXPUNGE") { mailimap_uid_expunge($0, set) }
    }

    /// Original UID -> its copy in `folder`, for the originals whose copy the
    /// journal's `attempts` prove; `source` is opened again afterwards.
    private func journaledCopies(of originals: [FetchedMessage], in folder: String, attempts: [CopyAttempt],
                                 returningTo source: (name: String, uidValidity: UInt32)) throws -> [UInt32: UInt32] {
        let present = Set(originals.map(\.uid))
        // Without a journaled COPY of them (an older journal, or killed before the COPY) nothing can be proven.
        let begun = attempts.filter { $0.folder == folder && !present.isDisjoint(with: $0.uids) }
        guard !begun.isEmpty else { return [:] }
        var copied: [UInt32: UInt32] = [:]
        do {
            let target = try open(folder, readOnly: true)
            let evidence = CopyEvidence(uids: originals.map(\.uid), folder: folder, attempts: begun,
                                        targetUIDValidity: target.uidValidity)
            if !evidence.isEmpty {
                copied = evidence.copies(of: originals, in: try copyCandidates(evidence, originals: originals))
            }
        } catch let error as MailError where error.kind == .missingFolder {
            // A failed EXAMINE leaves no mailbox selected: come back before reporting it.
            try reselect(source)
            throw missingFolder(folder)
        }
        try reselect(source)
        return copied
    }

    /// Opens `mailbox` read-write again, refusing if the server renumbered it meanwhile.
    private func reselect(_ mailbox: (name: String, uidValidity: UInt32)) throws {
        let status = try open(mailbox.name, readOnly: false)
        guard status.uidValidity == mailbox.uidValidity else {
            throw MailError(.protocol, server: serverName,
                            "\(mailbox.name) was renumbered (UIDVALIDITY \(mailbox.uidValidity) -> \(status.uidValidity)) during the run; run again")
        }
    }

    /// `STATUS folder (UIDVALIDITY UIDNEXT)`: where the copies of a COPY will land.
    /// A UIDNEXT the server leaves out is 0 (no mark: only COPYUID can prove then).
    private func targetStatus(_ folder: String, wire: String) throws -> (uidValidity: UInt32, uidNext: UInt32) {
        let values = try status(wire, [MAILIMAP_STATUS_ATT_UIDVALIDITY, MAILIMAP_STATUS_ATT_UIDNEXT],
                                failure: { self.moveFailure($0, folder: folder, wire: wire) })
        let uidValidity = values[MAILIMAP_STATUS_ATT_UIDVALIDITY] ?? 0
        // Without the folder's UIDVALIDITY a UIDNEXT means nothing later.
        return (uidValidity, uidValidity == 0 ? 0 : values[MAILIMAP_STATUS_ATT_UIDNEXT] ?? 0)
    }

    /// The COPYUID answer as pairs; none unless it names exactly as many sources as
    /// copies, every source one of `asked` (anything else proves nothing).
    static func copyPairs(_ sources: UnsafeMutablePointer<mailimap_set>?, _ copies: UnsafeMutablePointer<mailimap_set>?,
                          asked: [UInt32]) -> [CopyAttempt.Copy] {
        let limit = asked.count
        guard let from = uidList(sources, limit: limit), let to = uidList(copies, limit: limit),
              from.count == to.count, Set(from).isSubset(of: Set(asked)) else { return [] }
        return zip(from, to).map { CopyAttempt.Copy(uid: $0, copy: $1) }
    }

    /// The UIDs of a set in the server's order (a range ascending), or nil when it
    /// holds more than `limit`, a `*`, or nothing.
    private static func uidList(_ set: UnsafeMutablePointer<mailimap_set>?, limit: Int) -> [UInt32]? {
        guard let set else { return nil }
        var uids: [UInt32] = []
        for item in CList.items(set.pointee.set_list, as: mailimap_set_item.self) {
            let first = item.pointee.set_first, last = item.pointee.set_last
            guard first != 0, last != 0 else { return nil }
            let low = min(first, last), high = max(first, last)
            guard Int(high - low) < limit - uids.count else { return nil }
            uids += Array(low...high)
        }
        return uids.isEmpty ? nil : uids
    }

    /// The open (target) mailbox's messages the evidence asks about: the COPYUID
    /// copies (whether they exist) and everything from the UIDNEXT mark on (size and
    /// INTERNALDATE first; the header only of those that could be a copy).
    private func copyCandidates(_ evidence: CopyEvidence, originals: [FetchedMessage]) throws -> [FetchedMessage] {
        let set = IMAPSet.make(evidence.provenCopies)
        defer { mailimap_set_free(set) }
        if let floor = evidence.searchFloor { mailimap_set_add_interval(set, floor, 0) }
        let found = try uidFetch(set, [mailimap_fetch_att_new_uid(), mailimap_fetch_att_new_rfc822_size(),
                                       mailimap_fetch_att_new_internaldate()])
        // Only a message with an original's size and arrival time can be its copy.
        struct Shape: Hashable { var size: Int, arrived: Int64 }
        let shapes = Set(originals.compactMap { original in original.internalDate.map { Shape(size: original.size, arrived: $0) } })
        let proven = Set(evidence.provenCopies)
        let alike = found.filter { candidate in
            guard !proven.contains(candidate.uid), let arrived = candidate.internalDate else { return false }
            return shapes.contains(Shape(size: candidate.size, arrived: arrived))
        }
        // UID n:* also answers the highest UID when it is below n: the evidence checks.
        let headers = try fetch(alike.map(\.uid), parts: [])
        var byUID: [UInt32: FetchedMessage] = [:]
        for message in found { byUID[message.uid] = message }
        for message in headers { byUID[message.uid] = message }
        return byUID.keys.sorted().compactMap { byUID[$0] }
    }
}
