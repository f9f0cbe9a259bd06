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

    /// Creates an empty plan.
    public init() {}

    /// Adds what `actions` ask of the message `uid`, whose current flags and labels
    /// are in `facts`, open in `mailbox`.
    public mutating func add(_ actions: [PlannedAction], uid: UInt32, facts: ServerFacts, mailbox: String) {
        for planned in actions {
            switch planned.action {
            // Keywords are case-insensitive (Cyrus and Courier keep the case first set):
            // compare as the server does, so a rerun sends nothing.
            case .label(let name) where !facts.labels.contains(where: { LabelCodec.same($0, name) }):
                append(FlagChange(.add, labels: [name]), uid)
            case .unlabel(let name):
                // Removed in the spelling the message has, for servers that do compare case.
                if let present = facts.labels.first(where: { LabelCodec.same($0, name) }) {
                    append(FlagChange(.remove, labels: [present]), uid)
                }
            case .markRead where !facts.isSeen:
                append(FlagChange(.add, flags: ["\\Seen"]), uid)
            case .markUnread where facts.isSeen:
                append(FlagChange(.remove, flags: ["\\Seen"]), uid)
            case .flag where !facts.isFlagged:
                append(FlagChange(.add, flags: ["\\Flagged"]), uid)
            case .move(let folder) where !ServerPlan.sameMailbox(folder, mailbox):
                if let i = moves.firstIndex(where: { $0.folder == folder }) {
                    moves[i].uids.append(uid)
                } else {
                    moves.append((folder, [uid]))
                }
            default:
                break
            }
        }
    }

    /// Whether there is nothing to send.
    public var isEmpty: Bool { changes.isEmpty && moves.isEmpty }

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
