import Foundation

/// Plans, composes and sends a day's digest from the store, and records it:
/// the day is marked sent only after the delivery accepted the message, and
/// only then are its digest entries marked reported with that day. A failed
/// delivery marks nothing, so the next run tries again.
///
/// Reads no clock: `now` is passed in. The delivery is made on demand, so a
/// `password_command` only runs when there is something to send.
public struct DigestDispatcher {
    /// The store read and marked.
    public var store: Store
    /// The `[digest]` settings.
    public var settings: DigestSection
    /// The configured zone: days, the hour, and dates in the message.
    public var timeZone: TimeZone
    /// The short ids shown; nil reads them from the store when composing.
    public var ids: DigestShortIDs?
    /// The Done links' address and key, and the Gmail accounts; with a key, the
    /// Message-ID carries a MAC too (replies to it are then recognised).
    public var links = DigestLinks()

    /// Creates a dispatcher.
    public init(store: Store, settings: DigestSection, timeZone: TimeZone, ids: DigestShortIDs? = nil) {
        self.store = store
        self.settings = settings
        self.timeZone = timeZone
        self.ids = ids
    }

    /// The schedule from the settings.
    public var schedule: DigestSchedule { DigestSchedule(hour: settings.hour, timeZone: timeZone) }

    /// The plan of `day` from what the store holds now.
    public func plan(day: CivilDate) -> (DigestPlan, [StoreProblem]) {
        let reminders = store.openReminders()
        let queue = store.openQueueEntries()
        var entries = store.unreportedDigestEntries()
        if store.digestLedger.isSent(day) {
            // Show what that day's digest held when it is previewed or resent.
            let reported = store.records(DigestEntry.self, in: ["reported"])
            entries.records += reported.records.filter { $0.reported == day }
            entries.problems += reported.problems
        }
        let plan = DigestPlanner().plan(day: day, reminders: reminders.records, queueEntries: queue.records,
                                        digestEntries: entries.records)
        return (plan, reminders.problems + queue.problems + entries.problems)
    }

    /// The digest of `day`, composed as it would be sent at `now`.
    public func draft(day: CivilDate, now: Date, resend: Bool = false) throws -> DigestDraft {
        let (plan, problems) = plan(day: day)
        let rendered = DigestRenderer(timeZone: timeZone, ids: ids ?? DigestShortIDs(store: store), links: links,
                                      compact: settings.compact).render(plan)
        var builder = DigestMessageBuilder(from: settings.from, to: settings.to, timeZone: timeZone)
        builder.key = links.key
        let mail = builder.mail(rendered, day: day, now: now, resend: resend)
        return DigestDraft(plan: plan, rendered: rendered, message: try MIMEComposer().compose(mail), problems: problems)
    }

    /// Sends the digest due at `now` by the schedule, if any (what `triage run` does).
    public func sendDue(now: Date, delivery: () throws -> any MailDelivery) throws -> DigestOutcome {
        try store.withLock {
            try store.digestLedger.finishReporting()
            guard let day = schedule.dueDay(at: now, sent: try store.digestLedger.sentDays()) else { return .notDue }
            return try send(day: day, now: now, force: false, delivery: delivery)
        }
    }

    /// Sends `day`'s digest now: once per day unless `force`, and not when it is
    /// empty and `send_empty` is off (unless `force`). A forced resend of a day
    /// already sent gets its own Message-ID.
    public func send(day: CivilDate, now: Date, force: Bool, delivery: () throws -> any MailDelivery) throws -> DigestOutcome {
        try store.withLock {
            let sentBefore = store.digestLedger.isSent(day)
            if sentBefore && !force { return .alreadySent(day) }
            let draft = try draft(day: day, now: now, resend: sentBefore)
            if draft.plan.isEmpty && !settings.sendEmpty && !force {
                return .nothingToReport(day, problems: draft.problems)
            }
            try delivery().deliver(draft.message)
            do {
                let ids = draft.plan.digestEntryIDs
                // What a reply to this message may act on, and from when it counts: written
                // with the sent marker (one commit), so a digest on record as sent has it.
                let messageID = draft.message.messageID, shown = draft.plan.actionableIDs
                let snoozable = draft.plan.snoozableEntryIDs
                let file = store.digestShown.file(messageID: messageID, day: day, now: now, ids: shown, entries: snoozable)
                if !(try store.digestLedger.markSent(day, now: now, entries: ids, with: file.map { [$0] } ?? [])) {
                    // A forced resend of a day already sent: its own Message-ID, its own record.
                    try store.digestShown.record(messageID: messageID, day: day, now: now, ids: shown, entries: snoozable)
                }
                if !ids.isEmpty { try store.markReported(ids, day: day) }
                try store.digestShown.prune(now: now, days: settings.replyDays + 1)
            } catch let error as TriageError {
                throw SimpleError(error.exitStatus,
                    "the digest of \(day.iso) was sent (Message-ID <\(draft.message.messageID)>) but recording that in the store failed: \(error.message). The next run may send it again, with the same Message-ID.")
            }
            return .sent(draft)
        }
    }
}
