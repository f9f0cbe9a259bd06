/// What a VTODO of an iCalendar file says, as read back by `ICSReader`.
public struct ICSTodo: Equatable, Sendable {
    /// UID.
    public var uid: String = ""
    /// SUMMARY, unescaped.
    public var summary: String?
    /// DESCRIPTION, unescaped.
    public var description: String?
    /// STATUS (`NEEDS-ACTION`, `COMPLETED`).
    public var status: String?
    /// COMPLETED as written (a client may set it without STATUS).
    public var completed: String?
    /// LAST-MODIFIED in seconds since 1970.
    public var lastModified: Int64?
    /// DUE as written (`20260304` or `20260304T093000`).
    public var due: String?
    /// DUE's TZID parameter.
    public var dueTZID: String?
    /// Whether DUE is a date (no time).
    public var dueIsDate = false
    /// GEO latitude and longitude.
    public var geo: (latitude: Double, longitude: Double)?
    /// LOCATION.
    public var location: String?
    /// `X-APPLE-STRUCTURED-LOCATION` value and its X-APPLE-RADIUS and X-TITLE parameters.
    public var appleLocation: ICSAppleLocation?
    /// VALARMs.
    public var alarms: [ICSAlarm] = []
    /// Properties the reader did not know and dropped.
    public var unknownProperties: [String] = []

    /// An empty todo.
    public init() {}

    public static func == (a: ICSTodo, b: ICSTodo) -> Bool {
        a.uid == b.uid && a.completed == b.completed && a.lastModified == b.lastModified && a.summary == b.summary && a.description == b.description && a.status == b.status
            && a.due == b.due && a.dueTZID == b.dueTZID && a.dueIsDate == b.dueIsDate
            && a.geo?.latitude == b.geo?.latitude && a.geo?.longitude == b.geo?.longitude
            && a.location == b.location && a.appleLocation == b.appleLocation && a.alarms == b.alarms
            && a.unknownProperties == b.unknownProperties
    }
}

/// Apple's structured location: a `geo:` URI, a radius in metres and a title.
public struct ICSAppleLocation: Equatable, Sendable {
    /// `geo:LAT,LON`.
    public var uri: String
    /// X-APPLE-RADIUS.
    public var radius: String?
    /// X-TITLE.
    public var title: String?

    /// Creates a location.
    public init(uri: String, radius: String?, title: String?) {
        self.uri = uri
        self.radius = radius
        self.title = title
    }
}

/// A VALARM of a VTODO.
public struct ICSAlarm: Equatable, Sendable {
    /// ACTION.
    public var action: String?
    /// TRIGGER as written.
    public var trigger: String?
    /// RFC 9074 PROXIMITY (`ARRIVE`, `DEPART`).
    public var proximity: String?
    /// Apple's X-APPLE-PROXIMITY.
    public var appleProximity: String?
    /// Apple's structured location in the alarm.
    public var appleLocation: ICSAppleLocation?
    /// Properties the reader did not know and dropped: libical 3.0 does not know
    /// RFC 9074's PROXIMITY, so with it `proximity` is nil and this holds "PROXIMITY".
    /// (It also drops the alarm's RFC 9073 VLOCATION component without a word.)
    public var unknownProperties: [String] = []
}
