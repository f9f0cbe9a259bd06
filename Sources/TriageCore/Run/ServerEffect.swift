/// What an action asks of the server for a message it applies to, before looking
/// at the message: `ServerPlan` leaves out what is already true of it.
public enum ServerEffect: Hashable, Sendable {
    /// Flags or labels to add or remove.
    case change(FlagChange)
    /// Move the message to `folder` (nothing when that is the mailbox it is in).
    case move(folder: String)
    /// Out of the inbox, the account's way (`ArchiveTarget`): a `\Inbox` label removed
    /// on Gmail, a move to the archive folder elsewhere.
    case archive
    /// Into the account's snoozed folder (`[account] snoozed`), the record of its
    /// wake written first.
    case snooze
}

extension Action {
    /// What this action asks of the server; nil for nothing (a store action, or
    /// `stop`). No `default:`: a new action does not compile until it says.
    public var serverEffect: ServerEffect? {
        switch self {
        case .label(let name): return .change(FlagChange(.add, labels: [name]))
        case .unlabel(let name): return .change(FlagChange(.remove, labels: [name]))
        case .markRead: return .change(FlagChange(.add, flags: ["\\Seen"]))
        case .markUnread: return .change(FlagChange(.remove, flags: ["\\Seen"]))
        case .flag: return .change(FlagChange(.add, flags: ["\\Flagged"]))
        case .move(let folder): return .move(folder: folder)
        case .archive: return .archive
        case .snooze: return .snooze
        case .queue, .remind, .followUp, .digest, .webhook, .stop: return nil
        }
    }
}
