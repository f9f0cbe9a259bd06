/// One thing a sync does, as `CalDAVSyncPlanner` decides it. The adapter performs
/// the store changes first, then the server writes, saving the state after each,
/// so a sync cut short anywhere is finished by the next one.
public enum CalDAVStep: Hashable, Sendable {
    /// PUT a new VTODO for the record with `If-None-Match: *`.
    case create(uid: String, recordID: String, fields: CalDAVFields)
    /// PUT the record's VTODO over the server's with `If-Match: etag` (none when unknown).
    case update(uid: String, recordID: String, href: String, etag: String?, fields: CalDAVFields)
    /// DELETE the server's item (`If-Match: etag` when known).
    case delete(uid: String, href: String, etag: String?)
    /// Change the record in the store: the fields that differ from it.
    case changeRecord(recordID: String, change: CalDAVRecordChange)
    /// Remember the server's item as synced with `fields` (nothing to write).
    case remember(uid: String, href: String, etag: String?, fields: CalDAVFields)
    /// Forget the item (gone from the server, or deleted there by triage).
    case forget(uid: String)
}

/// What a sync changes in a record; nil leaves a field as it is.
public struct CalDAVRecordChange: Hashable, Sendable {
    /// A new title.
    public var title: String?
    /// A new note ("" clears it).
    public var note: String?
    /// A new due day (and time): `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`.
    public var due: String?
    /// Done (true) or open again (false).
    public var done: Bool?

    /// Creates a change.
    public init(title: String? = nil, note: String? = nil, due: String? = nil, done: Bool? = nil) {
        self.title = title
        self.note = note
        self.due = due
        self.done = done
    }

    /// Whether it changes nothing.
    public var isEmpty: Bool { title == nil && note == nil && due == nil && done == nil }
}

/// A sync's decisions for one list, and what the verbose output says about them.
public struct CalDAVSyncPlan: Hashable, Sendable {
    /// The steps, per item: record changes before server writes.
    public var steps: [CalDAVStep] = []
    /// Changes on both sides to the same field, and how each was settled (one line each).
    public var conflicts: [String] = []
    /// Other things worth saying (an item deleted on the phone marked done).
    public var notes: [String] = []

    /// Creates an empty plan.
    public init() {}
}
