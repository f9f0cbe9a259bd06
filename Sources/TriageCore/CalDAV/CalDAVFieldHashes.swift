/// The fields of a task as last synced, hashed (see `CalDAVFields.hashes`).
public struct CalDAVFieldHashes: Hashable, Sendable, Codable {
    /// Hash of the title.
    public var title: String
    /// Hash of the note.
    public var note: String
    /// Hash of the due day and time.
    public var due: String
    /// Whether it was done.
    public var done: Bool

    /// Creates hashes.
    public init(title: String, note: String, due: String, done: Bool) {
        self.title = title
        self.note = note
        self.due = due
        self.done = done
    }
}
