/// One item triage put on a CalDAV server.
public struct CalDAVItemState: Hashable, Sendable, Codable {
    /// The item's URL path on the server.
    public var href: String
    /// Its ETag when last seen (nil when the server gave none).
    public var etag: String?
    /// Its fields as last synced.
    public var synced: CalDAVFieldHashes

    /// Creates an item state.
    public init(href: String, etag: String?, synced: CalDAVFieldHashes) {
        self.href = href
        self.etag = etag
        self.synced = synced
    }
}
