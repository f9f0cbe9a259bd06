/// The short-id indexes the digest shows ids with (one per record kind), so
/// that `triage queue done 3f2a` in the digest names exactly one record.
/// `actionable` is what the digest shows: a command (`done 3f2a`) names a queue
/// entry or a reminder, so its short id is unique over both kinds.
public struct DigestShortIDs: Sendable {
    /// Queue entry ids.
    public var queue: ShortIDIndex
    /// Reminder ids.
    public var reminders: ShortIDIndex
    /// Digest entry ids.
    public var digest: ShortIDIndex
    /// Queue entry and reminder ids together: the short ids of the commands
    /// (`done 0162`), which name either kind, so each names exactly one record.
    public var actionable: ShortIDIndex

    /// Creates the indexes from explicit ids (tests inject these).
    public init(queue: ShortIDIndex, reminders: ShortIDIndex, digest: ShortIDIndex, actionable: ShortIDIndex? = nil) {
        self.queue = queue
        self.reminders = reminders
        self.digest = digest
        self.actionable = actionable ?? ShortIDIndex([])
    }

    /// The indexes over every id in `store`, in any status.
    public init(store: Store) {
        self.init(queue: store.shortIDs(QueueEntry.self), reminders: store.shortIDs(Reminder.self),
                  digest: store.shortIDs(DigestEntry.self),
                  actionable: ShortIDIndex(store.allIDs(QueueEntry.self) + store.allIDs(Reminder.self)))
    }
}
