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

    /// RFC 3339 in the sender's own offset, e.g. `2001-04-20T19:35:02-04:00`.
    public var rfc3339: String {
        let local = secondsSince1970 + Int64(utcOffsetSeconds)
        var days = local / 86_400
        var secs = local % 86_400
        if secs < 0 { secs += 86_400; days -= 1 }
        let date = CivilDate(daysSince1970: Int(days))
        let h = Int(secs / 3600), m = Int(secs % 3600 / 60), s = Int(secs % 60)
        let off = utcOffsetSeconds
        let sign = off < 0 ? "-" : "+"
        let offH = abs(off) / 3600, offM = abs(off) % 3600 / 60
        return "\(date.iso)T\(pad2(h)):\(pad2(m)):\(pad2(s))\(sign)\(pad2(offH)):\(pad2(offM))"
    }
}

@inline(__always) func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
