/// What an action writes to the store for a message it applies to: the kind of
/// record and what the action says about it. `StoreBatch.add(_:rule:message:created:)`
/// makes the record.
public enum StoreEffect: Hashable, Sendable {
    /// A `QueueEntry` in queue `queue`, due in `inDays` days (nil: today).
    case queueEntry(queue: String, inDays: Int?)
    /// A `Reminder` made from `spec`.
    case reminder(ReminderSpec)
    /// A `Reminder` with `FollowUp` facts, due after `FollowUpSpec` from the message's sending.
    case followUp(FollowUpSpec)
    /// A `DigestEntry` in section `section`.
    case digestEntry(section: String)
    /// A `WebhookDelivery` to `url`, posted after the run.
    case webhookDelivery(url: String)
    /// A `SnoozeRecord`: when the message, moved to the snoozed folder, comes back.
    case snoozeRecord(SnoozeSpec)
}

extension Action {
    /// What this action writes to the store; nil for none (a server action, or
    /// `stop`). No `default:`: a new action does not compile until it says.
    public var storeEffect: StoreEffect? {
        switch self {
        case .queue(let name, let inDays): return .queueEntry(queue: name, inDays: inDays)
        case .remind(let spec): return .reminder(spec)
        case .followUp(let spec): return .followUp(spec)
        case .digest(let section): return .digestEntry(section: section)
        case .webhook(let url): return .webhookDelivery(url: url)
        case .snooze(let spec): return .snoozeRecord(spec)
        case .label, .unlabel, .move, .archive, .markRead, .markUnread, .flag, .stop: return nil
        }
    }
}
