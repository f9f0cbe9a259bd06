import Foundation
import TriageCore
import TriageICS

/// Between store records, the sync's fields and VTODO text: a record becomes the
/// same VTODO `export ics` writes (geofence, time alarm), and a server's VTODO
/// becomes fields to compare.
public struct CalDAVTodoCodec: Sendable {
    /// The zone of reminders' times and of DUE date-times.
    public var timeZone: TimeZone

    /// Creates a codec.
    public init(timeZone: TimeZone) { self.timeZone = timeZone }

    /// The UID of a record's VTODO (the same as `export ics`).
    public static func uid(of id: String) -> String { id + "@triage" }

    /// The record id of a triage UID, or nil for another client's item.
    public static func recordID(of uid: String) -> String? {
        guard uid.hasSuffix("@triage") else { return nil }
        let id = String(uid.dropLast(7))
        return RecordID.isValid(id) ? id : nil
    }

    /// A queue entry as the reminder its VTODO shows: `[queue] subject` (or the title
    /// set on the phone) as title.
    public static func reminder(of entry: QueueEntry) -> Reminder {
        Reminder(id: entry.id, title: entry.taskTitle, note: entry.note, due: entry.due,
                 status: entry.status, created: entry.created, statusChanged: entry.statusChanged,
                 rule: entry.rule, message: entry.message)
    }

    /// The fields the sync compares for a reminder.
    public func fields(of r: Reminder) -> CalDAVFields {
        CalDAVFields(title: r.title, note: r.note ?? "", due: Self.due(r.due, r.at), done: r.status == .done)
    }

    /// The fields of a queue entry: title, note, due day and status.
    public func fields(of e: QueueEntry) -> CalDAVFields { CalDAVFields(queueEntry: e) }

    static func due(_ day: CivilDate, _ at: TimeOfDay?) -> String {
        day.iso + (at.map { String(format: "T%02d:%02d", $0.hour, $0.minute) } ?? "")
    }

    /// A due text back as day and time; nil when malformed.
    public static func parseDue(_ text: String) -> (CivilDate, TimeOfDay?)? {
        let parts = text.split(separator: "T", maxSplits: 1)
        guard let first = parts.first, let day = CivilDate(iso: first) else { return nil }
        guard parts.count == 2 else { return (day, nil) }
        let hm = parts[1].split(separator: ":")
        guard hm.count == 2, let h = Int(hm[0]), let m = Int(hm[1]), (0..<24).contains(h), (0..<60).contains(m) else { return nil }
        return (day, TimeOfDay(hour: h, minute: m))
    }

    /// The VTODO of `reminder` with `fields` applied (the merged ones), as one VCALENDAR.
    public func text(of reminder: Reminder, fields: CalDAVFields, now: Date) -> String {
        var r = reminder
        if let t = fields.title { r.title = t }
        if let n = fields.note { r.note = n.isEmpty ? nil : n }
        if let d = fields.due, let (day, at) = Self.parseDue(d) { (r.due, r.at) = (day, at) }
        if fields.done { r.status = .done } else if r.status != .open { r.status = .open }
        return ICSExporter.calendar([r], timeZone: timeZone, now: now)
    }

    /// The fields of a server's VTODO, read against the record it belongs to (whose
    /// message details DESCRIPTION carries after the note); nil when it cannot be read.
    public func fields(ofText text: String, record: Reminder, isQueueEntry: Bool) -> (fields: CalDAVFields, lastModified: Int64?)? {
        guard let todo = (try? ICSReader.todos(in: text, strict: false))?.first else { return nil }
        let done = todo.status?.uppercased() == "COMPLETED" || todo.completed != nil
        let due = todo.due.flatMap { dueText($0, isDate: todo.dueIsDate) }
        // A queue entry has a due day only: a time set on the phone is dropped.
        return (CalDAVFields(title: todo.summary ?? "", note: note(in: todo.description, record: record),
                             due: isQueueEntry ? due.map { String($0.prefix(10)) } : due, done: done),
                todo.lastModified)
    }

    /// The note: DESCRIPTION without the message details triage appends.
    func note(in description: String?, record: Reminder) -> String {
        guard let description = description?.replacing("\r\n", with: "\n"), !description.isEmpty else { return "" }
        var bare = record
        bare.note = nil
        guard let details = ICSExporter.description(of: bare) else { return description }
        if description == details { return "" }
        if description.hasSuffix("\n\n" + details) { return String(description.dropLast(details.count + 2)) }
        return description
    }

    /// `20260304`, `20260304T093000` (local or TZID) or `20260304T083000Z` as the sync's due text;
    /// nil for a date that is not a real one (`20675633`, found by FuzzCalDAV: it became the due
    /// text `2067-56-33`, which `parseDue` and the store cannot take). A time that is not one
    /// (hour 24 or more, minute 60 or more, not digits) leaves the day alone.
    func dueText(_ value: String, isDate: Bool) -> String? {
        let u = Array(value.utf8)
        // Digits only: Int("+1") and Int("-1") would take a sign.
        func number(_ from: Int, _ count: Int) -> Int? {
            guard u.count >= from + count else { return nil }
            return u[from..<(from + count)].reduce(0) { n, b in
                guard let n, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) else { return nil }
                return n * 10 + Int(b - UInt8(ascii: "0"))
            }
        }
        guard let y = number(0, 4), let mo = number(4, 2), let d = number(6, 2), y >= 1, (1...12).contains(mo),
              (1...CivilDate.daysIn(month: mo, year: y)).contains(d) else { return nil }
        let day = CivilDate(year: y, month: mo, day: d)
        guard !isDate, u.count >= 13, let h = number(9, 2), let mi = number(11, 2), h < 24, mi < 60 else {
            return day.iso
        }
        if value.hasSuffix("Z") {
            var parts = DateComponents()
            (parts.year, parts.month, parts.day, parts.hour, parts.minute) = (y, mo, d, h, mi)
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(identifier: "UTC")!
            guard let instant = utc.date(from: parts) else { return day.iso }
            var local = Calendar(identifier: .gregorian)
            local.timeZone = timeZone
            let c = local.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
            guard let ly = c.year, let lm = c.month, let ld = c.day, let lh = c.hour, let lmi = c.minute,
                  (1...9999).contains(ly) else { return day.iso }
            return Self.due(CivilDate(year: ly, month: lm, day: ld), TimeOfDay(hour: lh, minute: lmi))
        }
        // A TZID other than ours is read as ours: the phone writes in the user's zone.
        return Self.due(day, TimeOfDay(hour: h, minute: mi))
    }
}
