import Foundation

/// One command from a Done link or a reply to the digest, resolved to a record:
/// close it, open it again, or make it due again in some days.
public struct DigestCommand: Sendable, Hashable {
    /// What to do.
    public enum Verb: Sendable, Hashable {
        /// Mark done.
        case done
        /// Open again.
        case reopen
        /// Due again in this many days from the day the command is read (and open).
        case snooze(days: Int)
        /// Unsubscribe from the list of a digest entry (`kind` is `digest`): recorded
        /// as pending here, carried out by the run after the mail (`UnsubscribeRecord`).
        case unsubscribe
        /// A digest entry's message out of its mailbox until then (`snooze ID until DAY`):
        /// a `SnoozeRecord` waiting to be put away (`SnoozeWake.putAway`).
        case snoozeMessage(SnoozeSpec)
    }

    /// What to do.
    public var verb: Verb
    /// `Reminder.kindFolder` or `QueueEntry.kindFolder`.
    public var kind: String
    /// The record's full id.
    public var id: String
    /// How an unsubscribe was asked for: `link`, or `command` (`triage unsubscribe`).
    public var via = "link"

    /// Creates a command.
    public init(verb: Verb, kind: String, id: String) {
        self.verb = verb
        self.kind = kind
        self.id = id
    }

    /// Applies `commands` to the store at `now` (`today` is its local day). Each is
    /// idempotent: done twice is done, a snooze sets the due day from `today`, so
    /// reading the same message again the same day changes nothing more.
    public static func apply(_ commands: [DigestCommand], to store: Store, now: Date, today: CivilDate) throws {
        let stamp = Timestamp(now, timeZone: store.timeZone)
        for command in commands {
            if command.verb == .unsubscribe {
                // Once: a second tap finds the record pending or done and changes nothing.
                guard !store.exists(UnsubscribeRecord.self, id: command.id),
                      let entry = try store.record(DigestEntry.self, id: command.id) else { continue }
                try store.put(UnsubscribeRecord(entry: entry, requested: stamp, via: command.via))
                continue
            }
            switch command.kind {
            case DigestEntry.kindFolder:
                guard case .snoozeMessage(let spec) = command.verb, let entry = try store.record(DigestEntry.self, id: command.id),
                      let messageID = entry.message.messageID else { continue }
                let account = entry.message.account ?? ""
                let id = RecordID.forMessage(account: account, messageKey: "digest-snooze:" + messageID, rule: SnoozeRecord.replyRule,
                                             actionKey: RecordID.actionKey(.snooze(spec)))
                let wake = spec.wake(now: now, timeZone: store.timeZone)
                if let existing = try store.record(SnoozeRecord.self, id: id) {
                    // Snoozed again from a later digest (or the same reply read again): the new time.
                    guard existing.wake != wake || existing.woken != nil else { continue }
                    try store.update(SnoozeRecord.self, ids: [id]) {
                        $0.wake = wake
                        $0.woken = nil
                        $0.wakeNote = nil
                        $0.pending = true
                    }
                } else {
                    var record = SnoozeRecord(id: id, created: stamp, wake: wake, rule: SnoozeRecord.replyRule, message: entry.message)
                    record.pending = true
                    try store.put(record)
                }
            case Reminder.kindFolder:
                try store.update(Reminder.self, ids: [command.id]) { r in
                    let (status, due) = command.target(status: r.status, due: r.due, today: today)
                    if r.status != status { r.status = status; r.statusChanged = stamp }
                    r.due = due
                }
            default:
                try store.update(QueueEntry.self, ids: [command.id]) { e in
                    let (status, due) = command.target(status: e.status, due: e.due, today: today)
                    if e.status != status { e.status = status; e.statusChanged = stamp }
                    e.due = due
                }
            }
        }
    }

    /// The status and due day a record gets.
    private func target(status: WorkStatus, due: CivilDate, today: CivilDate) -> (WorkStatus, CivilDate) {
        switch verb {
        case .done: return (status == .removed ? .removed : .done, due)
        case .reopen: return (status == .removed ? .removed : .open, due)
        case .snooze(let days): return (status == .removed ? .removed : .open, today.adding(days: days))
        case .unsubscribe: return (status, due)
        case .snoozeMessage: return (status, due)
        }
    }
}
