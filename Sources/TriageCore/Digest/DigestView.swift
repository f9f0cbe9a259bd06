import Foundation

/// A plan turned into display text, shared by the text and HTML renderers so
/// that both parts say the same thing. All strings are plain (unescaped) text;
/// those that came from mail are flattened to one line.
public struct DigestView: Sendable, Hashable {
    /// One item: a reminder, a queue entry or a digest entry.
    public struct Item: Sendable, Hashable {
        /// The reminder title, else the message subject.
        public var title: String
        /// `due today` / `overdue 3 days`; nil for digest entries.
        public var status: String?
        /// Whether it is overdue (shown more prominently).
        public var overdue: Bool
        /// Reminder details: when, where, the note; for any item, a warning when the
        /// sender's name shows another domain than its address.
        public var details: [String]
        /// The sender's display name, if the message had one.
        public var senderName: String?
        /// The sender's address, if there is a message.
        public var senderAddress: String?
        /// `Name <address>`, or the bare address.
        public var sender: String? {
            guard let senderAddress else { return senderName }
            guard let senderName else { return senderAddress }
            return "\(senderName) <\(senderAddress)>"
        }
        /// The message date in the configured zone.
        public var date: String?
        /// The message subject when it is not already the title (reminders).
        public var subject: String?
        /// The start of the message text.
        public var snippet: String?
        /// The record's short id.
        public var shortID: String
        /// The command that closes it, e.g. `triage queue done 3f2a`; nil for digest entries.
        public var command: String?
    }

    /// A heading and its items.
    public struct Section: Sendable, Hashable {
        /// `Reminders`, `To reconcile`, `followup queue`, or the digest section's name.
        public var heading: String
        /// Its items.
        public var items: [Item]
    }

    /// The digest's day.
    public var day: CivilDate
    /// The Subject header.
    public var subject: String
    /// `Monday 30 November 2026`.
    public var title: String
    /// `2 reminders · 3 to reconcile · 14 FYI`, or `Nothing new today.`
    public var summary: String
    /// The parts of the summary (`2 reminders`, ...), empty when there is nothing.
    public var summaryParts: [String]
    /// The sections, in the order of the subject's counts.
    public var sections: [Section]

    /// The longest snippet shown, in characters.
    public static let snippetLimit = 180

    /// Builds the view of `plan`; message dates are shown in `timeZone`.
    public init(plan: DigestPlan, ids: DigestShortIDs, timeZone: TimeZone) {
        day = plan.day
        subject = DigestFormat.subject(plan)
        title = DigestFormat.longDay(plan.day)
        let parts = DigestFormat.countParts(plan)
        summaryParts = parts
        summary = parts.isEmpty ? "Nothing new today." : parts.joined(separator: " · ")

        func message(_ m: MessageSummary?) -> (name: String?, address: String?, date: String?, snippet: String?) {
            guard let m else { return (nil, nil, nil, nil) }
            let name = DigestFormat.oneLine(m.from?.name ?? "")
            let address = m.from.map { DigestFormat.oneLine($0.address) }
            let snippet = DigestFormat.oneLine(m.snippet, limit: Self.snippetLimit)
            return (name.isEmpty ? nil : name, address, DigestFormat.messageDate(m.date, in: timeZone, digestDay: plan.day),
                    snippet.isEmpty ? nil : snippet)
        }
        // A From name that shows another domain than the address (`is:impersonating`)
        // is said plainly: the receipt to reconcile may be phishing.
        func disguise(_ m: MessageSummary?) -> [String] {
            guard let from = m?.from, let shown = from.impersonatedDomain else { return [] }
            return ["warning: the sender's name shows \(DigestFormat.oneLine(shown)), but the address is "
                    + DigestFormat.oneLine(from.address)]
        }
        func subjectLine(_ m: MessageSummary) -> String {
            let s = DigestFormat.oneLine(m.subject ?? "")
            return s.isEmpty ? "(no subject)" : s
        }

        var sections: [Section] = []
        if !plan.reminders.isEmpty {
            sections.append(Section(heading: "Reminders", items: plan.reminders.map { item in
                let r = item.reminder
                var details: [String] = []
                var when = item.overdueDays > 0 ? "was due " + DigestFormat.shortDay(r.due) : "today"
                if let at = r.at { when += " at \(at)" }
                if item.overdueDays > 0 || r.at != nil { details.append(when) }
                if let place = r.place { details.append(DigestFormat.place(place)) }
                if let note = r.note.map({ DigestFormat.oneLine($0) }), !note.isEmpty { details.append("note: " + note) }
                details += disguise(r.message)
                let m = message(r.message)
                let short = ids.reminders.short(r.id)
                let title = DigestFormat.oneLine(r.title)
                return Item(title: title.isEmpty ? "(untitled reminder)" : title,
                            status: DigestFormat.age(overdueDays: item.overdueDays),
                            overdue: item.overdueDays > 0, details: details, senderName: m.name, senderAddress: m.address, date: m.date,
                            subject: r.message.map(subjectLine), snippet: m.snippet, shortID: short,
                            command: "triage remind done \(short)")
            }))
        }
        for queue in plan.queues where !queue.items.isEmpty {
            sections.append(Section(heading: DigestFormat.queueHeading(queue.name), items: queue.items.map { item in
                let e = item.entry
                let m = message(e.message)
                let short = ids.queue.short(e.id)
                return Item(title: subjectLine(e.message), status: DigestFormat.age(overdueDays: item.overdueDays),
                            overdue: item.overdueDays > 0, details: disguise(e.message), senderName: m.name, senderAddress: m.address, date: m.date, subject: nil,
                            snippet: m.snippet, shortID: short, command: "triage queue done \(short)")
            }))
        }
        for section in plan.sections where !section.entries.isEmpty {
            sections.append(Section(heading: section.name, items: section.entries.map { e in
                let m = message(e.message)
                return Item(title: subjectLine(e.message), status: nil, overdue: false, details: disguise(e.message), senderName: m.name, senderAddress: m.address,
                            date: m.date, subject: nil, snippet: m.snippet, shortID: ids.digest.short(e.id), command: nil)
            }))
        }
        self.sections = sections
    }
}
