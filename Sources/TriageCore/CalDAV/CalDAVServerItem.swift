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
