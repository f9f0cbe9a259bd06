import Foundation

/// Records to write together: one lock, one fsync per file and one per folder
/// touched, however many records.
public struct StoreBatch: Sendable {
    /// The records, in the order they were added.
    public private(set) var records: [any StoreRecord] = []

    /// Creates an empty batch.
    public init() {}

    /// Adds a record.
    public mutating func add(_ record: some StoreRecord) {
        records.append(record)
    }

    /// Adds the record that a store action (`queue`, `remind`, `digest`, `webhook`)
    /// of rule `rule` makes from `message`, created at `created` (whose local day is
    /// "today"): what `action.storeEffect` says. Returns false for actions that make
    /// no record (label, move, ...).
    ///
    /// The id comes from `RecordID.forMessage(message, rule:, action:)`; pass the
    /// action as the rule wrote it, with any placeholders already expanded for
    /// this message, so the same message always gets the same id.
    /// `timeZone` places a follow-up's due time (default: `created`'s offset).
    @discardableResult
    public mutating func add(_ action: Action, rule: String, message: Message, created: Timestamp,
                             timeZone: TimeZone? = nil) -> Bool {
        guard let effect = action.storeEffect else { return false }
        let id = RecordID.forMessage(message, rule: rule, action: action)
        let today = created.localDay
        let summary = MessageSummary(message)
        switch effect {
        case .queueEntry(let name, let inDays):
            add(QueueEntry(id: id, queue: name, created: created, due: today.adding(days: inDays ?? 0),
                           rule: rule, message: summary))
        case .reminder(let spec):
            add(Reminder(id: id, spec: spec, today: today, created: created, rule: rule, message: summary))
        case .followUp(let spec):
            // Due after the message's sending (its Date header, else its arrival).
            let zone = timeZone ?? TimeZone(secondsFromGMT: created.utcOffsetSeconds) ?? .gmt
            let sentSeconds = message.date?.secondsSince1970 ?? message.server.internalDate ?? created.secondsSince1970
            let sent = Timestamp(secondsSince1970: sentSeconds, utcOffsetSeconds: message.date?.utcOffsetSeconds
                                     ?? zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(sentSeconds))))
            let due = spec.due(sent: sentSeconds, timeZone: zone)
            let title = FollowUpSpec.title(for: message)
            let recipient = FollowUpSpec.recipient(of: message)
            add(Reminder(id: id, title: title, due: due.day, at: due.at, created: created, rule: rule, message: summary,
                         followUp: FollowUp(messageID: message.messageID ?? "", sent: sent, recipient: recipient)))
        case .digestEntry(let section):
            add(DigestEntry(id: id, section: section, created: created, rule: rule, message: summary))
        case .webhookDelivery(let url):
            add(WebhookDelivery(id: id, url: url, created: created, rule: rule, message: summary))
        case .snoozeRecord(let spec):
            // The wake in the configured zone (a day's 08:00 is local); the offset of `created` without one.
            let zone = timeZone ?? TimeZone(secondsFromGMT: created.utcOffsetSeconds) ?? .gmt
            add(SnoozeRecord(id: id, created: created, wake: spec.wake(now: created.date, timeZone: zone), rule: rule,
                             message: summary))
        }
        return true
    }

    /// Whether there is nothing to write.
    public var isEmpty: Bool { records.isEmpty }
}
