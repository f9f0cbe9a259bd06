import Foundation

/// A plan turned into display text, shared by the text and HTML renderers so
/// that both parts say the same thing. All strings are plain (unescaped) text;
/// those that came from mail are flattened to one line.
public struct DigestView: Sendable {
    /// A link that acts on an item by mail: `Done`, `Tomorrow`.
    public struct Action: Sendable, Hashable {
        /// The link text.
        public var label: String
        /// The `mailto:` URL.
        public var mailto: String
    }

    /// One item with its detail: a reminder, a queue entry, or a digest entry of a
    /// section that is not compact.
    public struct Item: Sendable, Hashable {
        /// The reminder title, else the message subject.
        public var title: String
        /// `overdue 3 days`; nil when due today (the section says that once) and for digest entries.
        public var status: String?
        /// Whether it is overdue (shown more prominently).
        public var overdue: Bool
        /// Reminder details: when, the note; for any item, a warning when the
        /// sender's name shows another domain than its address.
        public var details: [String]
        /// A reminder's place: `near Office, within 200 m, on arrival`.
        public var placeText: String?
        /// The place's `geo:` URI (RFC 5870), for a map link.
        public var placeGeo: String?
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
        /// The message subject when it is not already in the title (reminders).
        public var subject: String?
        /// The start of the message text.
        public var snippet: String?
        /// Where the message opens (`DigestLinks.messageLink`).
        public var link: String?
        /// The record's short id.
        public var shortID: String
        /// What to reply to act on it: `done 0162`; nil for digest entries.
        public var reply: String?
        /// The Done (and Tomorrow) links, or a digest entry's Unsubscribe link; empty without a key.
        public var actions: [Action] = []
        /// The Unsubscribe link's subject, spelled out in the text part (`triage: unsubscribe 1a2b TOKEN`).
        public var unsubscribe: String?
    }

    /// One line of a compact section: a message, or a thread of several.
    public struct Line: Sendable, Hashable {
        /// The (latest) sender's name, else address.
        public var sender: String
        /// The subject.
        public var subject: String
        /// `14:05`, or `Sun 14:05` for another day.
        public var time: String?
        /// Messages in the thread (1 for a single message).
        public var count: Int
        /// Where the (latest) message opens.
        public var link: String?
        /// A warning when the sender's name shows another domain than its address.
        public var warning: String?
        /// The (latest) message's Unsubscribe link, when it offers one (`UnsubscribeOffer`).
        public var unsubscribe: Action?
        /// Its subject, spelled out in the text part.
        public var unsubscribeSubject: String?
        /// The short id of the (latest) message's digest entry, which a reply's
        /// `snooze ID until DAY` names; nil when it has no Message-ID (nothing to find it by).
        public var shortID: String? = nil
        /// The Snooze link's `mailto:` (the message out of INBOX until tomorrow 08:00), or nil.
        public var snooze: String? = nil
    }

    /// A list's or a section's lines in a compact section.
    public struct Group: Sendable, Hashable {
        /// `[dev] 5 messages in 3 threads`; nil for messages from no list.
        public var heading: String?
        /// One per thread, newest first.
        public var lines: [Line]
    }

    /// A heading and its items.
    public struct Section: Sendable, Hashable {
        /// `Reminders`, `To reconcile`, `followup queue`, or the digest section's name.
        public var heading: String
        /// How many items or messages it holds.
        public var count: Int
        /// Said once under the heading: `due today`, when any item is.
        public var note: String?
        /// Problems: shown first, as a warning.
        public var warning: Bool = false
        /// Its items (empty when compact).
        public var items: [Item]
        /// Its lines, grouped (compact sections only).
        public var groups: [Group] = []
        /// Whether it is shown one line per message.
        public var compact: Bool { !groups.isEmpty }
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
    /// The sections: Problems first, then reminders, queues and digest sections.
    public var sections: [Section]
    /// `Coming up tomorrow: Call Joe at 09:00; Dentist`, or nil.
    public var comingUp: String?
    /// Whether any item has Done links.
    public var hasActions: Bool { sections.contains { $0.items.contains { !$0.actions.isEmpty } } }
    /// Whether any item can be acted on by a reply.
    public var hasReplies: Bool { sections.contains { $0.items.contains { $0.reply != nil } } }
    /// The short id of the first message a reply may snooze (`snooze ID until DAY`), or nil.
    public var firstSnoozable: String? { sections.lazy.flatMap(\.groups).flatMap(\.lines).compactMap(\.shortID).first }

    /// The longest snippet shown, in characters.
    public static let snippetLimit = 180

    /// Builds the view of `plan`; message dates are shown in `timeZone`. Digest
    /// sections named in `compact` (without case) are shown one line per message.
    public init(plan: DigestPlan, ids: DigestShortIDs, timeZone: TimeZone, links: DigestLinks = DigestLinks(),
                compact: [String] = DigestSection.defaultCompact) {
        day = plan.day
        subject = DigestFormat.subject(plan)
        title = DigestFormat.longDay(plan.day)
        let parts = DigestFormat.countParts(plan)
        summaryParts = parts
        summary = parts.isEmpty ? "Nothing new today." : parts.joined(separator: " · ")
        let compactNames = Set(compact.map { $0.lowercased() })

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
        func disguise(_ m: MessageSummary?) -> [String] { Self.disguise(m).map { [$0] } ?? [] }
        func subjectLine(_ m: MessageSummary) -> String {
            let s = DigestFormat.oneLine(m.subject ?? "")
            return s.isEmpty ? "(no subject)" : s
        }
        func short(_ id: String, fallback: ShortIDIndex) -> String {
            ids.actionable.count > 0 ? ids.actionable.short(id) : fallback.short(id)
        }
        func actions(kind: String, id: String, shortID: String, snooze: Bool) -> [Action] {
            var result: [Action] = []
            if let done = links.mailto(verb: "done", kind: kind, id: id, shortID: shortID) {
                result.append(Action(label: "Done", mailto: done))
            }
            if snooze, let later = links.mailto(verb: "tomorrow", kind: kind, id: id, shortID: shortID) {
                result.append(Action(label: "Tomorrow", mailto: later))
            }
            return result
        }

        var sections: [Section] = []
        if !plan.reminders.isEmpty {
            let items = plan.reminders.map { item in
                let r = item.reminder
                var details: [String] = []
                if item.overdueDays > 0 {
                    details.append("was due " + DigestFormat.shortDay(r.due) + (r.at.map { " at \($0)" } ?? ""))
                } else if let at = r.at {
                    details.append("at \(at)")
                }
                if let note = r.note.map({ DigestFormat.oneLine($0) }), !note.isEmpty { details.append("note: " + note) }
                details += disguise(r.message)
                let m = message(r.message)
                let shortID = short(r.id, fallback: ids.reminders)
                let title = DigestFormat.oneLine(r.title)
                // A reminder made from a message often has its subject in the title already.
                var subject = r.message.map(subjectLine)
                if let s = subject, title.lowercased().contains(s.lowercased()) || s == "(no subject)" { subject = nil }
                var view = Item(title: title.isEmpty ? "(untitled reminder)" : title,
                                status: item.overdueDays > 0 ? DigestFormat.age(overdueDays: item.overdueDays) : nil,
                                overdue: item.overdueDays > 0, details: details, senderName: m.name, senderAddress: m.address,
                                date: m.date, subject: subject, snippet: m.snippet, link: links.messageLink(r.message),
                                shortID: shortID, reply: "done \(shortID)",
                                actions: actions(kind: Reminder.kindFolder, id: r.id, shortID: shortID, snooze: true))
                if let place = r.place {
                    view.placeText = DigestFormat.place(place)
                    view.placeGeo = DigestLinks.geo(place)
                }
                return view
            }
            sections.append(Section(heading: "Reminders", count: items.count,
                                    note: plan.reminders.contains { $0.overdueDays == 0 } ? "due today" : nil, items: items))
        }
        if !plan.waitingFor.isEmpty {
            let items = plan.waitingFor.map { item in
                let r = item.reminder
                let due = r.due <= plan.day
                var details = [(due ? "no reply; follow up was due " : "follow up on ") + DigestFormat.shortDay(r.due)
                               + (r.at.map { " at \($0)" } ?? "")]
                if let note = r.note.map({ DigestFormat.oneLine($0) }), !note.isEmpty { details.append("note: " + note) }
                let shortID = short(r.id, fallback: ids.reminders)
                let subject = r.message.map(subjectLine) ?? "(no subject)"
                let recipient = DigestFormat.oneLine(r.followUp?.recipient ?? "")
                return Item(title: (recipient.isEmpty ? "" : recipient + ": ") + subject,
                            status: DigestFormat.waited(days: item.days), overdue: due, details: details,
                            date: r.message.flatMap { DigestFormat.messageDate($0.date, in: timeZone, digestDay: plan.day) },
                            subject: nil, snippet: nil, link: links.messageLink(r.message), shortID: shortID, reply: "done \(shortID)",
                            actions: actions(kind: Reminder.kindFolder, id: r.id, shortID: shortID, snooze: true))
            }
            sections.append(Section(heading: "Waiting for", count: items.count, note: nil, items: items))
        }
        for queue in plan.queues where !queue.items.isEmpty {
            let ordered = queue.items.sorted { Self.newer($0.entry.message, $0.entry.created, than: $1.entry.message, $1.entry.created) }
            let items = ordered.map { item in
                let e = item.entry
                let m = message(e.message)
                let shortID = short(e.id, fallback: ids.queue)
                return Item(title: subjectLine(e.message),
                            status: item.overdueDays > 0 ? DigestFormat.age(overdueDays: item.overdueDays) : nil,
                            overdue: item.overdueDays > 0, details: disguise(e.message), senderName: m.name,
                            senderAddress: m.address, date: m.date, subject: nil, snippet: m.snippet,
                            link: links.messageLink(e.message), shortID: shortID, reply: "done \(shortID)",
                            actions: actions(kind: QueueEntry.kindFolder, id: e.id, shortID: shortID, snooze: false))
            }
            sections.append(Section(heading: DigestFormat.queueHeading(queue.name), count: items.count,
                                    note: queue.items.contains { $0.overdueDays == 0 } ? "due today" : nil, items: items))
        }
        var problems: [Section] = []
        for section in plan.sections where !section.entries.isEmpty {
            let entries = section.entries.sorted { Self.newer($0.message, $0.created, than: $1.message, $1.created) }
            let isProblems = section.name == MailboxRunner.problemsSection
            if !isProblems && compactNames.contains(section.name.lowercased()) {
                sections.append(Section(heading: section.name, count: entries.count, items: [],
                                        groups: Self.groups(entries, timeZone: timeZone, day: plan.day, links: links,
                                                            ids: ids.digest)))
                continue
            }
            // Refused commands are anyone's to send: a few are shown, the rest counted.
            var refused = 0
            let shown = entries.filter { e in
                guard isProblems, e.rule == DigestCommandInbox.refusedKey else { return true }
                refused += 1
                return refused <= DigestCommandInbox.problemLimit
            }
            var items = shown.map { e in
                let m = message(e.message)
                var item = Item(title: subjectLine(e.message), status: nil, overdue: false, details: disguise(e.message),
                                senderName: m.name, senderAddress: m.address, date: m.date, subject: nil, snippet: m.snippet,
                                link: links.messageLink(e.message), shortID: ids.digest.short(e.id), reply: nil)
                // List mail (List-Unsubscribe) outside Problems: a one-tap unsubscribe.
                if !isProblems, e.message.unsubscribe != nil,
                   let link = links.unsubscribe(id: e.id, shortID: ids.digest.short(e.id)) {
                    item.actions = [Action(label: "Unsubscribe", mailto: link.mailto)]
                    item.unsubscribe = link.subject
                }
                return item
            }
            if refused > DigestCommandInbox.problemLimit {
                let more = refused - DigestCommandInbox.problemLimit
                items.append(Item(title: "and \(more) more refused digest command\(more == 1 ? "" : "s")", status: nil,
                                  overdue: false, details: [], shortID: "", reply: nil))
            }
            let view = Section(heading: section.name, count: entries.count, warning: isProblems, items: items)
            if isProblems { problems.append(view) } else { sections.append(view) }
        }
        self.sections = problems + sections
        if !plan.comingUp.isEmpty {
            comingUp = "Coming up tomorrow: " + plan.comingUp.map { r in
                DigestFormat.oneLine(r.title) + (r.at.map { " at \($0)" } ?? "")
            }.joined(separator: "; ")
        }
    }

    /// Newest first by the message's date, else when the record was made; then by id.
    static func newer(_ a: MessageSummary?, _ aCreated: Timestamp, than b: MessageSummary?, _ bCreated: Timestamp) -> Bool {
        let ta = a?.date.flatMap(Timestamp.init(rfc3339:))?.secondsSince1970 ?? aCreated.secondsSince1970
        let tb = b?.date.flatMap(Timestamp.init(rfc3339:))?.secondsSince1970 ?? bCreated.secondsSince1970
        return ta > tb
    }

    /// The compact lines of a section's entries (newest first): the messages of
    /// no list (or of a list with only one here), then one group per list
    /// (`[dev] 5 messages in 3 threads`); within
    /// each, one line per thread (same subject without `Re:`, `Fwd:`, `[tag]`).
    static func groups(_ entries: [DigestEntry], timeZone: TimeZone, day: CivilDate, links: DigestLinks,
                       ids: ShortIDIndex? = nil) -> [Group] {
        var counts: [String: Int] = [:]
        for entry in entries { if let list = entry.message.list.map(listName) { counts[list, default: 0] += 1 } }
        var order: [String?] = []
        var byList: [String?: [DigestEntry]] = [:]
        for entry in entries {
            // A list with one message here needs no heading of its own.
            let list = entry.message.list.map(listName).flatMap { counts[$0, default: 0] > 1 ? $0 : nil }
            if byList[list] == nil { order.append(list) }
            byList[list, default: []].append(entry)
        }
        // The single messages first, then each list under its heading.
        order = order.filter { $0 == nil } + order.filter { $0 != nil }
        return order.map { list in
            let members = byList[list] ?? []
            var threadOrder: [String] = []
            var threads: [String: [DigestEntry]] = [:]
            for entry in members {
                let key = threadKey(entry.message.subject ?? "")
                if threads[key] == nil { threadOrder.append(key) }
                threads[key, default: []].append(entry)
            }
            let lines = threadOrder.map { key -> Line in
                let thread = threads[key]!
                let latest = thread[0]
                let subject = DigestFormat.oneLine(latest.message.subject ?? "")
                var line = Line(sender: DigestFormat.oneLine(latest.message.senderLabel),
                                subject: subject.isEmpty ? "(no subject)" : subject,
                                time: DigestFormat.shortTime(latest.message.date, in: timeZone, digestDay: day),
                                count: thread.count, link: links.messageLink(latest.message),
                                warning: thread.lazy.compactMap { disguise($0.message) }.first)
                // The newest message of the thread that offers one: its list's Unsubscribe link.
                if let offering = thread.first(where: { $0.message.unsubscribe != nil }),
                   let link = links.unsubscribe(id: offering.id, shortID: (ids ?? ShortIDIndex([])).short(offering.id)) {
                    line.unsubscribe = Action(label: "Unsubscribe", mailto: link.mailto)
                    line.unsubscribeSubject = link.subject
                }
                // A message found again by its Message-ID: `snooze ID until DAY`, and its Snooze link.
                if latest.message.messageID != nil, let index = ids {
                    line.shortID = index.short(latest.id)
                    line.snooze = links.mailto(verb: DigestCommandReader.snoozeLinkVerb, kind: DigestEntry.kindFolder, id: latest.id,
                                               shortID: index.short(latest.id))
                }
                return line
            }
            let heading = list.map {
                "[\($0)] " + DigestFormat.count(members.count, "message", "messages")
                    + (threadOrder.count < members.count ? " in " + DigestFormat.count(threadOrder.count, "thread", "threads") : "")
            }
            return Group(heading: heading, lines: lines)
        }
    }

    /// The warning for a From name that shows another domain than the address.
    static func disguise(_ m: MessageSummary?) -> String? {
        guard let from = m?.from, let shown = from.impersonatedDomain else { return nil }
        return "warning: the sender's name shows \(DigestFormat.oneLine(shown)), but the address is "
            + DigestFormat.oneLine(from.address)
    }

    /// `dev` of the List-Id `dev.lists.example`: its first label, flattened.
    static func listName(_ listID: String) -> String {
        DigestFormat.oneLine(String(listID.split(separator: ".").first ?? Substring(listID)), limit: 40)
    }

    /// A subject without reply and forward prefixes and list tags, lower-cased.
    static func threadKey(_ subject: String) -> String {
        var s = Substring(DigestFormat.oneLine(subject).lowercased())
        var changed = true
        while changed {
            changed = false
            s = s.drop { $0 == " " }
            for prefix in ["re:", "fwd:", "fw:", "aw:", "wg:", "sv:"] where s.hasPrefix(prefix) {
                s = s.dropFirst(prefix.count); changed = true
            }
            if s.hasPrefix("["), let close = s.firstIndex(of: "]") { s = s[s.index(after: close)...]; changed = true }
        }
        return String(s)
    }
}
