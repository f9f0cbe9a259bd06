/// A store record (a reminder or a queue entry) as the sync sees it.
public struct CalDAVLocalItem: Hashable, Sendable {
    /// The record's full id.
    public var recordID: String
    /// The UID its VTODO has.
    public var uid: String
    /// Its fields (`done` for status done).
    public var fields: CalDAVFields
    /// Removed in the store (`remind remove`, `queue remove`): delete it on the server.
    public var removed: Bool
    /// When the record last changed, in seconds since 1970 (its status change, else its creation).
    public var changed: Int64

    /// Creates a local item.
    public init(recordID: String, uid: String, fields: CalDAVFields, removed: Bool = false, changed: Int64) {
        self.recordID = recordID
        self.uid = uid
        self.fields = fields
        self.removed = removed
        self.changed = changed
    }
}
