import Foundation
import TriageCore
import TriageICS

/// One sync of a `[caldav NAME]`: for each list, read what changed on the server,
/// let `CalDAVSyncPlanner` decide, then change the store and write the server.
/// The caller holds the store's lock. Store changes go first and the state is saved
/// after every server write, so a sync cut short anywhere is finished by the next.
public struct CalDAVSync {
    /// The section.
    public var section: CalDAVSection
    /// The server.
    public var client: CalDAVClient
    /// The store (locked by the caller).
    public var store: Store
    /// Records ↔ VTODOs.
    public var codec: CalDAVTodoCodec
    /// Say what would be done, change nothing.
    public var dryRun = false
    /// The time of the sync.
    public var now: Date
    /// Receives the lines of the verbose output (already free of control characters).
    public var say: (String) -> Void = { _ in }

    /// Creates a sync.
    public init(section: CalDAVSection, client: CalDAVClient, store: Store, timeZone: TimeZone, now: Date) {
        self.section = section
        self.client = client
        self.store = store
        self.codec = CalDAVTodoCodec(timeZone: timeZone)
        self.now = now
    }

    /// What a sync did, counted.
    public struct Report: Sendable, Equatable {
        /// New items PUT.
        public var created = 0
        /// Items rewritten on the server.
        public var updated = 0
        /// Items deleted on the server.
        public var deleted = 0
        /// Records changed in the store.
        public var changedHere = 0
        /// Conflicts settled.
        public var conflicts = 0
        /// Items left for the next sync (a write raced twice).
        public var deferred = 0
    }

    /// Runs the sync. Throws `CalDAVError` for a server that cannot be used (75, 77, 78).
    public func run() throws -> Report {
        var report = Report()
        var state = try CalDAVStateFile(store: store, name: section.name)
        let home: String
        let calendars: [CalDAVCalendar]
        if let remembered = try rememberedCalendars(state) {
            (home, calendars) = remembered
        } else {
            home = try client.calendarHome(section.url)
            calendars = try client.calendars(in: home)
            (state.discoveredFrom, state.home) = (section.url, home)
        }
        for list in section.lists {
            try sync(list: list, calendars: calendars, home: home, state: &state, report: &report)
        }
        return report
    }

    private func clean(_ text: String) -> String { ControlCharacters.replaced(in: text) }

    /// The calendars of the home found by the last discovery (one PROPFIND, which a
    /// sync needs anyway for the lists' sync-tokens); nil when discovery must be done
    /// again: another `url`, no discovery yet, a home that is gone or moved (404, 301),
    /// or a list not (or no longer) at the collection remembered for it (a server may
    /// answer a home that is gone with an empty listing: Xandikos does).
    private func rememberedCalendars(_ state: CalDAVStateFile) throws -> (home: String, calendars: [CalDAVCalendar])? {
        // A list never synced yet may have to be found or made: discover.
        guard state.discoveredFrom == section.url, let home = state.home,
              section.lists.allSatisfy({ state.lists[$0.name] != nil }) else { return nil }
        let calendars = try client.calendars(inRemembered: home)
        let listed = Set((calendars ?? []).map { CalDAVURL.path(of: $0.url) })
        guard let calendars, section.lists.allSatisfy({ listed.contains(CalDAVURL.path(of: state.lists[$0.name]!.collection)) }) else {
            say("caldav \(section.name): the lists are not where they were; looking for them again")
            return nil
        }
        return (home, calendars)
    }

    /// The calendar a list of this name is: by display name, else by the last segment of
    /// its path (the slug a created list gets); nil when the server has none (`check
    /// --connect` says what a sync would use through this too).
    public static func calendar(named name: String, in calendars: [CalDAVCalendar]) -> CalDAVCalendar? {
        calendars.first { $0.displayName?.trimmedDAV == name }
            ?? calendars.first { CalDAVURL.path(of: $0.url).split(separator: "/").last.map(String.init) == CalDAVURL.slug(name) }
    }

    private func sync(list: (name: String, reminders: Bool, queues: Set<String>), calendars: [CalDAVCalendar], home: String,
                      state: inout CalDAVStateFile, report: inout Report) throws {
        let prefix = "caldav \(section.name): \"\(clean(list.name))\""
        var calendar = Self.calendar(named: list.name, in: calendars)
        if calendar == nil {
            guard section.createLists else {
                throw CalDAVError(.config, "\(prefix): no such list on the server; create it on the phone, or set create_lists = yes in [caldav \(section.name)]")
            }
            if dryRun {
                say("\(prefix): would create the list")
                return
            }
            let url = try client.makeCalendar(in: home, name: list.name)
            say("\(prefix): created the list")
            calendar = try client.collection(url) ?? CalDAVCalendar(url: url, displayName: list.name, takesTodos: true)
        }
        guard let calendar else { return }
        guard calendar.takesTodos else {
            throw CalDAVError(.config, "\(prefix): the list holds no tasks (VTODO); name a task list in [caldav \(section.name)]")
        }

        // The list's records, any status, by UID.
        var reminders: [String: Reminder] = [:]
        var entries: [String: QueueEntry] = [:]
        if list.reminders {
            for r in store.reminders().records { reminders[CalDAVTodoCodec.uid(of: r.id)] = r }
        }
        if !list.queues.isEmpty {
            for e in store.queueEntries().records where list.queues.contains(e.queue) { entries[CalDAVTodoCodec.uid(of: e.id)] = e }
        }

        var listState = state.lists[list.name] ?? CalDAVListState(collection: calendar.url)
        if listState.collection != calendar.url {
            // Another collection: the hrefs no longer hold; items are found again by UID.
            listState = CalDAVListState(collection: calendar.url)
        }

        let view = try serverView(calendar: calendar, listState: &listState, reminders: reminders, entries: entries)
        let locals = localItems(reminders: reminders, entries: entries)
        var plan = CalDAVSyncPlanner.plan(locals: locals, state: listState, server: view.view)
        var allDone = true
        var rounds = 0
        var reported: Set<String> = []
        let writesBefore = report.created + report.updated + report.deleted
        while true {
            for line in plan.notes { say("\(prefix): \(line)") }
            // Each conflict once, even when a 412 makes the item be merged again.
            for line in plan.conflicts where reported.insert(line).inserted {
                say("\(prefix): conflict: \(line)")
                report.conflicts += 1
            }
            var raced: [String] = []
            for step in plan.steps {
                if let uid = try perform(step, calendar: calendar, listState: &listState, state: &state,
                                         reminders: &reminders, entries: &entries, listName: list.name, prefix: prefix, report: &report) {
                    raced.append(uid)
                }
            }
            if raced.isEmpty { break }
            rounds += 1
            // 412: someone changed the item since it was read; read it again, merge, retry.
            var items: [String: CalDAVServerItem] = [:]
            var gone: Set<String> = []
            for uid in raced {
                let url = listState.items[uid].map { CalDAVURL.resolve($0.href, against: calendar.url) } ?? href(for: uid, calendar: calendar)
                if let resource = try client.get(url), let item = serverItem(resource, uid: uid, reminders: reminders, entries: entries) {
                    items[uid] = item
                } else if listState.items[uid] != nil {
                    gone.insert(uid)
                }
            }
            if rounds > 2 {
                say("\(prefix): \(Counted.of(raced.count, "item")) changed on the server during the sync again; left for the next sync")
                report.deferred += raced.count
                allDone = false
                break
            }
            let retry = localItems(reminders: reminders, entries: entries).filter { raced.contains($0.uid) }
            plan = CalDAVSyncPlanner.plan(locals: retry, state: listState, server: .init(items: items, gone: gone, complete: false))
        }
        if allDone && report.created + report.updated + report.deleted == writesBefore {
            // Nothing written: the token read before the listing holds. After a write it
            // stays cleared (see `perform`), and the next sync lists the whole collection.
            listState.syncToken = view.token
            listState.ctag = view.ctag
        }
        state.lists[list.name] = listState
        if !dryRun {
            try state.save()
            client.checkpoint?("caldav state")
        }
    }

    private func localItems(reminders: [String: Reminder], entries: [String: QueueEntry]) -> [CalDAVLocalItem] {
        reminders.map { uid, r in
            CalDAVLocalItem(recordID: r.id, uid: uid, fields: codec.fields(of: r), removed: r.status == .removed,
                            changed: (r.statusChanged ?? r.created).secondsSince1970)
        } + entries.map { uid, e in
            CalDAVLocalItem(recordID: e.id, uid: uid, fields: codec.fields(of: e), removed: e.status == .removed,
                            changed: e.lastChanged.secondsSince1970)
        }
    }

    private func href(for uid: String, calendar: CalDAVCalendar) -> String {
        CalDAVURL.child(calendar.url, (CalDAVTodoCodec.recordID(of: uid) ?? "item") + ".ics")
    }

    private func serverItem(_ resource: CalDAVClient.Resource, uid knownUID: String?, reminders: [String: Reminder],
                            entries: [String: QueueEntry]) -> CalDAVServerItem? {
        guard let todo = (try? ICSReader.todos(in: resource.text, strict: false))?.first else { return nil }
        let uid = todo.uid
        if let knownUID, uid != knownUID { return nil }
        let record: Reminder
        let isQueue: Bool
        if let r = reminders[uid] { (record, isQueue) = (r, false) } else if let e = entries[uid] {
            (record, isQueue) = (CalDAVTodoCodec.reminder(of: e), true)
        } else { return nil }
        guard let read = codec.fields(ofText: resource.text, record: record, isQueueEntry: isQueue) else { return nil }
        return CalDAVServerItem(uid: uid, href: CalDAVURL.path(of: resource.url), etag: resource.etag, fields: read.fields,
                                lastModified: read.lastModified)
    }

    /// What the server holds: by sync-token (RFC 6578), else ctag, else a full listing.
    private func serverView(calendar: CalDAVCalendar, listState: inout CalDAVListState, reminders: [String: Reminder],
                            entries: [String: QueueEntry]) throws -> (view: CalDAVSyncPlanner.ServerView, token: String?, ctag: String?) {
        let uidByPath = Dictionary(listState.items.map { (CalDAVURL.path(of: $0.value.href), $0.key) }, uniquingKeysWith: { a, _ in a })
        func items(_ resources: [CalDAVClient.Resource]) -> [String: CalDAVServerItem] {
            var out: [String: CalDAVServerItem] = [:]
            for resource in resources {
                guard let item = serverItem(resource, uid: nil, reminders: reminders, entries: entries) else { continue }
                // Two items with one UID (a copy made by a client): the one triage knows.
                if let existing = out[item.uid], listState.items[item.uid]?.href == existing.href { continue }
                out[item.uid] = item
            }
            return out
        }
        if let saved = listState.syncToken, let current = calendar.syncToken {
            if saved == current {
                return (.init(items: [:], complete: false), current, calendar.ctag)
            }
            if let changes = try client.changes(calendar.url, since: saved) {
                let read = items(try client.todos(calendar.url, hrefs: changes.changed))
                let gone = Set(changes.deleted.compactMap { uidByPath[CalDAVURL.path(of: $0)] })
                return (.init(items: read, gone: gone, complete: false), changes.token ?? current, calendar.ctag)
            }
        } else if calendar.syncToken == nil, let saved = listState.ctag, saved == calendar.ctag {
            return (.init(items: [:], complete: false), nil, calendar.ctag)
        }
        let resources = try client.allTodos(calendar.url)
        let read = items(resources)
        // A remembered item no longer listed was deleted; one listed but unreadable was not.
        let listedPaths = Set(resources.map { CalDAVURL.path(of: $0.url) })
        let gone = Set(listState.items.filter { !listedPaths.contains(CalDAVURL.path(of: $0.value.href)) && read[$0.key] == nil }.map(\.key))
        return (.init(items: read, gone: gone, complete: false), calendar.syncToken, calendar.ctag)
    }

    /// Performs one step; returns the UID when a write met 412 (to be read again and retried).
    private func perform(_ step: CalDAVStep, calendar: CalDAVCalendar, listState: inout CalDAVListState, state: inout CalDAVStateFile,
                         reminders: inout [String: Reminder], entries: inout [String: QueueEntry], listName: String, prefix: String,
                         report: inout Report) throws -> String? {
        func label(_ uid: String) -> String {
            if let r = reminders[uid] { return "\"\(clean(String(r.title.prefix(60))))\"" }
            if let e = entries[uid] { return "\"\(clean(String(e.taskTitle.prefix(60))))\"" }
            return clean(uid)
        }
        func saveState() throws {
            // A server that forgets what happened after a token (Xandikos does: an
            // item made after it and deleted since is not reported) would hide a
            // deletion of an item written now; with no token the next sync lists
            // everything (and, by the ETags saved here, writes nothing).
            listState.syncToken = nil
            listState.ctag = nil
            state.lists[listName] = listState
            if !dryRun {
                try state.save()
                client.checkpoint?("caldav state")
            }
        }
        switch step {
        case .changeRecord(let id, let change):
            let uid = CalDAVTodoCodec.uid(of: id)
            say("\(prefix): \(dryRun ? "would take" : "took") over from the server for \(label(uid)): \(describe(change))")
            report.changedHere += 1
            guard !dryRun else { return nil }
            let stamp = Timestamp(now, timeZone: store.timeZone)
            if reminders[uid] != nil {
                let updated = try store.update(Reminder.self, ids: [id]) { r in
                    if let t = change.title { r.title = t }
                    if let n = change.note { r.note = n.isEmpty ? nil : n }
                    if let d = change.due, let (day, at) = CalDAVTodoCodec.parseDue(d) { (r.due, r.at) = (day, at) }
                    if let done = change.done {
                        let status: WorkStatus = done ? .done : .open
                        if r.status != status { r.status = status; r.statusChanged = stamp }
                    }
                }
                if let r = updated.first { reminders[uid] = r }
            } else if entries[uid] != nil {
                let updated = try store.update(QueueEntry.self, ids: [id]) { e in
                    let before = (e.title, e.note, e.due)
                    if let t = change.title { e.title = t }
                    if let n = change.note { e.note = n.isEmpty ? nil : n }
                    if let d = change.due, let (day, _) = CalDAVTodoCodec.parseDue(d) { e.due = day }
                    // The record's own change time, so a later edit here is compared against it.
                    if before != (e.title, e.note, e.due) { e.changed = stamp }
                    if let done = change.done {
                        let status: WorkStatus = done ? .done : .open
                        if e.status != status { e.status = status; e.statusChanged = stamp }
                    }
                }
                if let e = updated.first { entries[uid] = e }
            }
        case .create(let uid, _, let fields), .update(let uid, _, _, _, let fields):
            let isNew: Bool
            let url: String
            var etag: String?
            if case .update(_, _, let href, let e, _) = step {
                (isNew, url, etag) = (false, CalDAVURL.resolve(href, against: calendar.url), e)
            } else {
                (isNew, url) = (true, href(for: uid, calendar: calendar))
            }
            say("\(prefix): \(dryRun ? "would " : "")\(isNew ? "add" : (fields.done ? "complete" : "update")) \(label(uid))")
            guard !dryRun else { return nil }
            let record: Reminder
            if let r = reminders[uid] { record = r } else if let e = entries[uid] { record = CalDAVTodoCodec.reminder(of: e) } else { return nil }
            let text = codec.text(of: record, fields: fields, now: now)
            switch try client.put(url, text: text, new: isNew, etag: etag) {
            case .preconditionFailed:
                say("\(prefix): \(label(uid)) changed on the server meanwhile (412); reading it again")
                return uid
            case .written(let newTag):
                etag = newTag
            }
            if isNew { report.created += 1 } else { report.updated += 1 }
            listState.items[uid] = CalDAVItemState(href: CalDAVURL.path(of: url), etag: etag, synced: fields.hashes)
            try saveState()
        case .delete(let uid, let href, let etag):
            say("\(prefix): \(dryRun ? "would delete" : "delete") \(label(uid)) (removed here)")
            guard !dryRun else { return nil }
            if case .preconditionFailed = try client.delete(CalDAVURL.resolve(href, against: calendar.url), etag: etag) {
                say("\(prefix): \(label(uid)) changed on the server meanwhile (412); reading it again")
                return uid
            }
            report.deleted += 1
            listState.items[uid] = nil
            try saveState()
        case .remember(let uid, let href, let etag, let fields):
            listState.items[uid] = CalDAVItemState(href: CalDAVURL.path(of: href), etag: etag, synced: fields.hashes)
        case .forget(let uid):
            listState.items[uid] = nil
        }
        return nil
    }

    private func describe(_ change: CalDAVRecordChange) -> String {
        var parts: [String] = []
        if let done = change.done { parts.append(done ? "done" : "open again") }
        if let t = change.title { parts.append("title \"\(clean(String(t.prefix(60))))\"") }
        if let d = change.due { parts.append("due \(clean(d))") }
        if change.note != nil { parts.append("note") }
        return parts.joined(separator: ", ")
    }
}
