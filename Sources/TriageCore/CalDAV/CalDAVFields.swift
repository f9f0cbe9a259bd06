/// The parts of a task that travel both ways between the store and a CalDAV list.
/// A nil field is not compared (a server item without DUE keeps the store's).
public struct CalDAVFields: Hashable, Sendable {
    /// SUMMARY: the reminder's title.
    public var title: String?
    /// The note (the part of DESCRIPTION before what triage adds about the message).
    public var note: String?
    /// DUE: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM` in the configured zone.
    public var due: String?
    /// Done (STATUS:COMPLETED or a COMPLETED date on the server; done in the store).
    public var done: Bool

    /// Creates fields.
    public init(title: String? = nil, note: String? = nil, due: String? = nil, done: Bool = false) {
        self.title = title
        self.note = note
        self.due = due
        self.done = done
    }

    /// The fields of a queue entry: its task's title (`QueueEntry.taskTitle`), its
    /// note, due day and status; title and note edited on the phone come back too.
    public init(queueEntry e: QueueEntry) {
        self.init(title: e.taskTitle, note: e.note ?? "", due: e.due.iso, done: e.status == .done)
    }

    /// The hash of each field, as the sync state keeps it (no text of a note is
    /// stored twice, yet a change is still seen).
    public var hashes: CalDAVFieldHashes {
        CalDAVFieldHashes(title: Self.hash(title), note: Self.hash(note), due: Self.hash(due), done: done)
    }

    static func hash(_ value: String?) -> String {
        // "-" for no value: a hash is hex, so the two never meet.
        value.map { String(SHA256.hex($0).prefix(32)) } ?? "-"
    }
}
