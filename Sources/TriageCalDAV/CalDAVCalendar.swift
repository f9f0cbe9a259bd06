/// A calendar collection found on the server.
public struct CalDAVCalendar: Sendable, Equatable {
    /// Its absolute URL.
    public var url: String
    /// DAV:displayname (the list's name on the phone).
    public var displayName: String?
    /// Whether it takes VTODOs (no supported-calendar-component-set: any).
    public var takesTodos: Bool
    /// DAV:sync-token, when the server has RFC 6578.
    public var syncToken: String?
    /// CS:getctag, when the server has it.
    public var ctag: String?
}
