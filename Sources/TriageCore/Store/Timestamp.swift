import Foundation

/// An instant with the UTC offset it was recorded in, stored as RFC 3339
/// (`2026-03-02T09:15:00+01:00`) so a person reading a record sees local time.
///
/// Made from an injected `now` and time zone; the store never reads the clock.
public struct Timestamp: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Int64
    /// The offset from UTC in seconds east at that instant.
    public var utcOffsetSeconds: Int

    /// Creates a timestamp from its parts.
    public init(secondsSince1970: Int64, utcOffsetSeconds: Int) {
        self.secondsSince1970 = secondsSince1970
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The instant `date` as seen in `timeZone`.
    public init(_ date: Date, timeZone: TimeZone) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        self.init(secondsSince1970: seconds, utcOffsetSeconds: timeZone.secondsFromGMT(for: date))
    }

    /// Parses RFC 3339 (`YYYY-MM-DDTHH:MM:SS` then `Z` or `±HH:MM`; fractional seconds are ignored).
    public init?(rfc3339 text: String) {
        let u = Array(text.utf8)
        func num(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= u.count else { return nil }
            var n = 0
            for b in u[from..<(from + count)] {
                guard b >= 48, b <= 57 else { return nil }
                n = n * 10 + Int(b - 48)
            }
            return n
        }
        guard u.count >= 20, u[4] == 45, u[7] == 45, u[10] == 84 || u[10] == 116 || u[10] == 32,
              u[13] == 58, u[16] == 58,
              let y = num(0, 4), let mo = num(5, 2), let d = num(8, 2),
              let h = num(11, 2), let mi = num(14, 2), let s = num(17, 2),
              (1...12).contains(mo), d >= 1, d <= CivilDate.daysIn(month: mo, year: y),
              h < 24, mi < 60, s < 61
        else { return nil }
        var i = 19
        if u[i] == 46 { // fractional seconds
            i += 1
            while i < u.count, u[i] >= 48, u[i] <= 57 { i += 1 }
        }
        guard i < u.count else { return nil }
        var offset = 0
        if u[i] == 90 || u[i] == 122 { // Z
            guard i + 1 == u.count else { return nil }
        } else if u[i] == 43 || u[i] == 45, i + 6 == u.count, u[i + 3] == 58,
                  let oh = num(i + 1, 2), let om = num(i + 4, 2), oh < 24, om < 60 {
            offset = (oh * 3600 + om * 60) * (u[i] == 45 ? -1 : 1)
        } else {
            return nil
        }
        let instant = MessageDate(year: y, month: mo, day: d, hour: h, minute: mi, second: s, utcOffsetSeconds: offset)
        self.init(secondsSince1970: instant.secondsSince1970, utcOffsetSeconds: offset)
    }

    /// The instant as a Foundation date.
    public var date: Date { Date(timeIntervalSince1970: TimeInterval(secondsSince1970)) }

    /// The calendar day at this instant in the recorded offset.
    public var localDay: CivilDate { messageDate.local.day }

    /// The calendar day and time of day at this instant in the recorded offset.
    var local: (day: CivilDate, hour: Int, minute: Int, second: Int) { messageDate.local }

    /// The calendar day of `date` in `timeZone`: "today" for an injected `now`.
    public static func day(of date: Date, in timeZone: TimeZone) -> CivilDate {
        Timestamp(date, timeZone: timeZone).localDay
    }

    /// RFC 3339 in the recorded offset.
    public var rfc3339: String { messageDate.rfc3339 }

    // The same instant-plus-offset as a MessageDate, whose calendar arithmetic this shares.
    private var messageDate: MessageDate {
        MessageDate(secondsSince1970: secondsSince1970, utcOffsetSeconds: utcOffsetSeconds)
    }

    public var description: String { rfc3339 }

    /// Orders by instant; equal instants order by offset so the order is total.
    public static func < (a: Timestamp, b: Timestamp) -> Bool {
        (a.secondsSince1970, a.utcOffsetSeconds) < (b.secondsSince1970, b.utcOffsetSeconds)
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let t = Timestamp(rfc3339: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "not an RFC 3339 time: \(text)"))
        }
        self = t
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rfc3339)
    }
}
