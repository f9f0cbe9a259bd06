/// Decides what each day's digest holds. Pure: it gets the records and the
/// days, and reads neither the store nor the clock.
///
/// - Reminders and queue entries are cumulative: an open one due on or before
///   the day is in that day's digest, and in every later one while it stays
///   open, with its age in days. Done (or removed) ones drop out.
/// - Open follow-ups (reminders on sent mail, `Reminder.followUp`) are in "Waiting
///   for" in every digest from the day the message was sent until answered or
///   done, with the days since; not among the reminders, due or not.
/// - Digest entries appear once, in the first digest after they arrived: an
///   unreported entry created on or before the day. An entry already reported
///   on exactly that day is shown again too, so that previewing or re-sending
///   (`--force`) a day's digest shows what that day's digest held.
/// - Days are calendar dates; ages count dates, never 86,400-second steps.
public struct DigestPlanner: Sendable {
    /// Creates a planner.
    public init() {}

    /// The digest of `day`.
    public func plan(day: CivilDate, reminders: [Reminder], queueEntries: [QueueEntry],
                     digestEntries: [DigestEntry]) -> DigestPlan {
        let entries = digestEntries.filter { entry in
            if let reported = entry.reported { return reported == day }
            return entry.created.localDay <= day
        }
        return plan(day: day, reminders: reminders, queueEntries: queueEntries, selectedEntries: entries)
    }

    /// The digests of several days, as if each were sent in turn: reminders and
    /// queue entries are planned from what is open now; each unreported digest
    /// entry appears only in the first of the days (in date order) on or after
    /// the day it arrived. `triage digest --plan N` prints these.
    public func plan(days: [CivilDate], reminders: [Reminder], queueEntries: [QueueEntry],
                     digestEntries: [DigestEntry]) -> [DigestPlan] {
        var waiting = digestEntries.filter { $0.reported == nil }
        var plans: [DigestPlan] = []
        for day in days.sorted() {
            let now = waiting.filter { $0.created.localDay <= day }
            waiting.removeAll { $0.created.localDay <= day }
            plans.append(plan(day: day, reminders: reminders, queueEntries: queueEntries, selectedEntries: now))
        }
        return plans
    }

    private func plan(day: CivilDate, reminders: [Reminder], queueEntries: [QueueEntry],
                      selectedEntries: [DigestEntry]) -> DigestPlan {
        // Follow-ups are in "Waiting for" from the day the message was sent, due or not.
        let waiting = reminders.filter { $0.status == .open && $0.followUp != nil && $0.followUp!.sent.localDay <= day }
            .sorted { ($0.followUp!.sent, $0.id) < ($1.followUp!.sent, $1.id) }
            .map { DigestPlan.WaitingItem(reminder: $0, days: $0.followUp!.sent.localDay.days(until: day)) }
        let reminders = reminders.filter { $0.followUp == nil }
        let dueReminders = reminders
            .filter { $0.status == .open && $0.due <= day }
            .sorted { ($0.due, $0.at.map { $0.hour * 60 + $0.minute } ?? -1, $0.created, $0.id)
                    < ($1.due, $1.at.map { $0.hour * 60 + $0.minute } ?? -1, $1.created, $1.id) }
            .map { DigestPlan.ReminderItem(reminder: $0, overdueDays: $0.due.days(until: day)) }

        var byQueue: [String: [DigestPlan.QueueItem]] = [:]
        for entry in queueEntries where entry.status == .open && entry.due <= day {
            byQueue[entry.queue, default: []].append(DigestPlan.QueueItem(entry: entry, overdueDays: entry.due.days(until: day)))
        }
        let queues = byQueue.keys.sorted().map { name in
            DigestPlan.QueueGroup(name: name, items: byQueue[name]!.sorted {
                ($0.entry.due, $0.entry.created, $0.entry.id) < ($1.entry.due, $1.entry.created, $1.entry.id)
            })
        }

        var bySection: [String: [DigestEntry]] = [:]
        for entry in selectedEntries { bySection[entry.section, default: []].append(entry) }
        let sections = bySection.keys.sorted().map { name in
            DigestPlan.Section(name: name, entries: bySection[name]!.sorted { ($0.created, $0.id) < ($1.created, $1.id) })
        }
        var plan = DigestPlan(day: day, reminders: dueReminders, queues: queues, sections: sections)
        plan.waitingFor = waiting
        let tomorrow = day.adding(days: 1)
        plan.comingUp = reminders.filter { $0.status == .open && $0.due == tomorrow }
            .sorted { ($0.at.map { $0.hour * 60 + $0.minute } ?? -1, $0.created, $0.id) < ($1.at.map { $0.hour * 60 + $0.minute } ?? -1, $1.created, $1.id) }
        return plan
    }
}
