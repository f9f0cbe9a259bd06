/// What one day's digest holds: the open reminders and queue entries due on or
/// before the day (cumulative, each with how many days it is overdue), and the
/// digest entries reported for the first time, grouped by section.
public struct DigestPlan: Sendable, Hashable {
    /// A reminder in the digest.
    public struct ReminderItem: Sendable, Hashable {
        /// The record.
        public var reminder: Reminder
        /// Whole calendar days since it was due (0 when due on the digest's day).
        public var overdueDays: Int

        /// Creates an item.
        public init(reminder: Reminder, overdueDays: Int) {
            self.reminder = reminder
            self.overdueDays = overdueDays
        }
    }

    /// An open follow-up in the "Waiting for" section: a message the user sent that no
    /// one has answered yet.
    public struct WaitingItem: Sendable, Hashable {
        /// The follow-up reminder (`Reminder.followUp` is set).
        public var reminder: Reminder
        /// Whole calendar days since the message was sent, to the digest's day.
        public var days: Int

        /// Creates an item.
        public init(reminder: Reminder, days: Int) {
            self.reminder = reminder
            self.days = days
        }
    }

    /// A queue entry in the digest.
    public struct QueueItem: Sendable, Hashable {
        /// The record.
        public var entry: QueueEntry
        /// Whole calendar days since it was due (0 when due on the digest's day).
        public var overdueDays: Int

        /// Creates an item.
        public init(entry: QueueEntry, overdueDays: Int) {
            self.entry = entry
            self.overdueDays = overdueDays
        }
    }

    /// The items of one queue, e.g. `rec`.
    public struct QueueGroup: Sendable, Hashable {
        /// The queue name.
        public var name: String
        /// Its due entries, most overdue first.
        public var items: [QueueItem]

        /// Creates a group.
        public init(name: String, items: [QueueItem]) {
            self.name = name
            self.items = items
        }
    }

    /// The entries of one digest section, e.g. `FYI`.
    public struct Section: Sendable, Hashable {
        /// The section name as written in the rule.
        public var name: String
        /// Its entries, oldest first.
        public var entries: [DigestEntry]

        /// Creates a section.
        public init(name: String, entries: [DigestEntry]) {
            self.name = name
            self.entries = entries
        }
    }

    /// The digest's day.
    public var day: CivilDate
    /// Due reminders, most overdue first.
    public var reminders: [ReminderItem]
    /// Due queue entries, one group per queue, by queue name.
    public var queues: [QueueGroup]
    /// Digest entries, one group per section, by section name.
    public var sections: [Section]
    /// Open reminders due the day after (the "Coming up" line); not items of this digest.
    public var comingUp: [Reminder] = []
    /// Open follow-ups, waited for longest first (the "Waiting for" section); not in `reminders`.
    public var waitingFor: [WaitingItem] = []

    /// Creates a plan.
    public init(day: CivilDate, reminders: [ReminderItem] = [], queues: [QueueGroup] = [], sections: [Section] = []) {
        self.day = day
        self.reminders = reminders
        self.queues = queues
        self.sections = sections
    }

    /// Whether there is nothing to report.
    public var isEmpty: Bool { itemCount == 0 }

    /// All items: reminders, queue entries and digest entries.
    public var itemCount: Int {
        reminders.count + waitingFor.count + queues.reduce(0) { $0 + $1.items.count }
            + sections.reduce(0) { $0 + $1.entries.count }
    }

    /// The ids of the reminders and queue entries shown, which a reply to the digest may
    /// act on, and of the digest entries shown with an Unsubscribe link (`unsubscribableIDs`).
    public var actionableIDs: [String] {
        reminders.map(\.reminder.id) + waitingFor.map(\.reminder.id) + queues.flatMap { $0.items.map(\.entry.id) } + unsubscribableIDs
    }

    /// The digest entries shown with an Unsubscribe link: those of every section but
    /// Problems whose message offers a way to unsubscribe (`UnsubscribeOffer`).
    public var unsubscribableIDs: [String] {
        sections.filter { $0.name != MailboxRunner.problemsSection }
            .flatMap { $0.entries.filter { $0.message.unsubscribe != nil }.map(\.id) }
    }

    /// The ids of the digest entries a reply may snooze (`snooze ID until DAY`): those
    /// with a Message-ID, by which the message is found, outside Problems.
    public var snoozableEntryIDs: [String] {
        sections.filter { $0.name != MailboxRunner.problemsSection }
            .flatMap { $0.entries.filter { $0.message.messageID != nil }.map(\.id) }
    }

    /// The ids of the digest entries, to mark reported once the digest is sent.
    public var digestEntryIDs: [String] {
        sections.flatMap { $0.entries.map(\.id) }
    }
}
