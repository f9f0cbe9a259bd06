/// The server actions of one batch, grouped so that each distinct change is one
/// command for all the UIDs it applies to.
///
/// Actions already true of a message (a label it has, a flag it carries) are left
/// out, so a rerun over processed mail sends nothing.
public struct ServerPlan: Sendable {
    /// Flag and label changes with their UIDs, in a stable order.
    public private(set) var changes: [(change: FlagChange, uids: [UInt32])] = []
    /// Moves by target folder, in the order first planned.
    public private(set) var moves: [(folder: String, uids: [UInt32])] = []
    /// Messages to archive on an account without an archive folder: they stay where
    /// they are and are reported.
    public private(set) var unarchived: [UInt32] = []

    /// Creates an empty plan.
    public init() {}

    /// Adds what `actions` ask of the message `uid`, whose current flags and labels
    /// are in `facts`, open in `mailbox`. `archive` is where `archive` goes on this
    /// account (nil: nowhere, the message goes to `unarchived`); `snoozed` is the
    /// account's snoozed folder (`[account] snoozed`).
    public mutating func add(_ actions: [PlannedAction], uid: UInt32, facts: ServerFacts, mailbox: String,
                             archive: ArchiveTarget? = nil, snoozed: String = SnoozeRecord.defaultFolder) {
        for planned in actions {
            guard var effect = planned.action.serverEffect else { continue }
            if case .archive = effect {
                guard let archive else {
                    unarchived.append(uid)
                    continue
                }
                if archive == .removeInboxLabel {
                    // Sent whatever the facts say: Gmail leaves the open mailbox's own label
                    // (\Inbox in INBOX) out of X-GM-LABELS; removing it twice changes nothing.
                    append(FlagChange(.remove, labels: [ArchiveTarget.gmailInboxLabel]), uid)
                    continue
                }
                effect = archive.effect
            }
            // An ordinary move, journaled like any other; on Gmail it takes the \Inbox label
            // off and puts the snoozed folder's label on, and the wake does the reverse.
            if case .snooze = effect { effect = .move(folder: snoozed) }
            switch effect {
            case .change(let change):
                if let needed = ServerPlan.remaining(change, facts: facts) { append(needed, uid) }
            case .move(let folder) where !ServerPlan.sameMailbox(folder, mailbox):
                if let i = moves.firstIndex(where: { $0.folder == folder }) {
                    moves[i].uids.append(uid)
                } else {
                    moves.append((folder, [uid]))
                }
            case .move, .archive, .snooze:
                break
            }
        }
    }

    /// The part of `change` not yet true of the message, or nil when all of it is.
    static func remaining(_ change: FlagChange, facts: ServerFacts) -> FlagChange? {
        var rest = FlagChange(change.operation)
        switch change.operation {
        case .add:
            rest.flags = change.flags.filter { !facts.flags.contains($0) }
            // Keywords are case-insensitive (Cyrus and Courier keep the case first set):
            // compare as the server does, so a rerun sends nothing.
            rest.labels = change.labels.filter { name in !facts.labels.contains { LabelCodec.same($0, name) } }
        case .remove:
            rest.flags = change.flags.filter { facts.flags.contains($0) }
            // Removed in the spelling the message has, for servers that do compare case.
            rest.labels = Set(change.labels.compactMap { name in facts.labels.first { LabelCodec.same($0, name) } })
        }
        return rest.isEmpty ? nil : rest
    }

    /// Whether there is nothing to send.
    public var isEmpty: Bool { changes.isEmpty && moves.isEmpty && unarchived.isEmpty }

    private mutating func append(_ change: FlagChange, _ uid: UInt32) {
        if let i = changes.firstIndex(where: { $0.change == change }) {
            changes[i].uids.append(uid)
        } else {
            changes.append((change, [uid]))
        }
    }

    static func sameMailbox(_ a: String, _ b: String) -> Bool {
        a == b || (a.uppercased() == "INBOX" && b.uppercased() == "INBOX")
    }
}
