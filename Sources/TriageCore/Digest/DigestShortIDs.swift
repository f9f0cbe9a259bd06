/// The short-id indexes the digest shows ids with (one per record kind), so
/// that `triage queue done 3f2a` in the digest names exactly one record.
public struct DigestShortIDs: Sendable {
    /// Queue entry ids.
    public var queue: ShortIDIndex
    /// Reminder ids.
    public var reminders: ShortIDIndex
    /// Digest entry ids.
    public var digest: ShortIDIndex

    /// Creates the indexes from explicit ids (tests inject these).
    public init(queue: ShortIDIndex, reminders: ShortIDIndex, digest: ShortIDIndex) {
        self.queue = queue
        self.reminders = reminders
        self.digest = digest
    }

    /// The indexes over every id in `store`, in any status.
    public init(store: Store) {
        self.init(queue: store.shortIDs(QueueEntry.self), reminders: store.shortIDs(Reminder.self),
                  digest: store.shortIDs(DigestEntry.self))
    }
}
