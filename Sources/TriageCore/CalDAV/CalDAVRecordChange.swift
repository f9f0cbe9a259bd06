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
