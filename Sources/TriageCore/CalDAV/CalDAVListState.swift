/// What triage remembers of one CalDAV list between syncs: the collection, its
/// sync-token (RFC 6578) or ctag, and for each item triage put there its href,
/// ETag and the fields as last synced. Kept in `STORE/caldav/NAME.json`, replaced
/// by rename after every server write (`CalDAVStateFile`).
public struct CalDAVListState: Hashable, Sendable, Codable {
    /// The collection's URL.
    public var collection: String
    /// The last sync-token, when the server has them.
    public var syncToken: String?
    /// The last ctag (`getctag`), when the server has one.
    public var ctag: String?
    /// The items triage put on the server, by UID.
    public var items: [String: CalDAVItemState]

    /// Creates an empty state for `collection`.
    public init(collection: String, syncToken: String? = nil, ctag: String? = nil, items: [String: CalDAVItemState] = [:]) {
        self.collection = collection
        self.syncToken = syncToken
        self.ctag = ctag
        self.items = items
    }

    enum CodingKeys: String, CodingKey {
        case collection
        case syncToken = "sync_token"
        case ctag, items
    }
}
