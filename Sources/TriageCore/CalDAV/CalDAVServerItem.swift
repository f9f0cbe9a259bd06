/// A triage item as the server holds it now.
public struct CalDAVServerItem: Hashable, Sendable {
    /// The UID.
    public var uid: String
    /// Its URL path.
    public var href: String
    /// Its ETag.
    public var etag: String?
    /// Its fields.
    public var fields: CalDAVFields
    /// LAST-MODIFIED in seconds since 1970, when the item has it.
    public var lastModified: Int64?

    /// Creates an item.
    public init(uid: String, href: String, etag: String?, fields: CalDAVFields, lastModified: Int64? = nil) {
        self.uid = uid
        self.href = href
        self.etag = etag
        self.fields = fields
        self.lastModified = lastModified
    }
}

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
