/// A message's Date header: the instant plus the sender's own UTC offset.
///
/// The offset is kept so that `inspect` can print the date as the sender wrote it.
public struct MessageDate: Hashable, Sendable, Codable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Int64
    /// The sender's offset from UTC, in seconds east (e.g. -14400 for -04:00).
    public var utcOffsetSeconds: Int

    /// Creates a date from an instant and an offset.
    public init(secondsSince1970: Int64, utcOffsetSeconds: Int) {
        self.secondsSince1970 = secondsSince1970
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// Creates a date from the broken-down local time and the offset, as in a Date header.
    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
                utcOffsetSeconds: Int) {
        let days = CivilDate(year: year, month: month, day: day).daysSince1970
        let local = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        self.init(secondsSince1970: local - Int64(utcOffsetSeconds), utcOffsetSeconds: utcOffsetSeconds)
    }

    /// The local calendar day and time of day in the sender's own offset.
    var local: (day: CivilDate, hour: Int, minute: Int, second: Int) {
        let seconds = secondsSince1970 + Int64(utcOffsetSeconds)
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        return (CivilDate(daysSince1970: Int(days)), Int(rest / 3600), Int(rest % 3600 / 60), Int(rest % 60))
    }

    /// The offset as sign, hours and minutes, e.g. ("-", "04", "00").
    private var offsetParts: (sign: String, hours: String, minutes: String) {
        (utcOffsetSeconds < 0 ? "-" : "+", pad2(abs(utcOffsetSeconds) / 3600), pad2(abs(utcOffsetSeconds) % 3600 / 60))
    }

    /// RFC 3339 in the sender's own offset, e.g. `2001-04-20T19:35:02-04:00`.
    public var rfc3339: String {
        let (date, h, m, s) = local
        let (sign, offH, offM) = offsetParts
        return "\(date.iso)T\(pad2(h)):\(pad2(m)):\(pad2(s))\(sign)\(offH):\(offM)"
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The RFC 5322 `Date` value in this date's own offset, e.g. `Mon, 30 Nov 2026 07:00:00 -0600`.
    public var rfc5322: String {
        let (date, h, m, s) = local
        let (sign, offH, offM) = offsetParts
        return "\(Self.weekdays[date.weekday]), \(date.day) \(Self.months[date.month - 1]) \(date.year) "
            + "\(pad2(h)):\(pad2(m)):\(pad2(s)) \(sign)\(offH)\(offM)"
    }
}

@inline(__always) func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
