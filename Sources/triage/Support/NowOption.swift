import Foundation
import TriageCore

/// `--now TIME`: the moment a command acts as if it were, for trying rules and
/// digests at another time and for tests that must not depend on the real clock.
///
/// TIME is an ISO 8601 instant with its offset (`2026-03-02T09:00:00-06:00`,
/// `2026-03-02T15:00:00Z`), or a local date-time without one (`2026-03-02T09:00`,
/// `2026-03-02 09:00:00`) read in the configured time zone. Seconds and a
/// fraction of a second are optional.
struct NowOption: Equatable {
    /// The date and time as written.
    let day: CivilDate
    let hour: Int, minute: Int, second: Int
    /// Seconds east of UTC, when the text gives an offset.
    let utcOffset: Int?

    /// Parses TIME; nil when it is not one of the forms above.
    init?(_ text: String) {
        let c = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= c.count, range.allSatisfy({ c[$0] >= 0x30 && c[$0] <= 0x39 }) else { return nil }
            return range.reduce(0) { $0 * 10 + Int(c[$1] - 0x30) }
        }
        guard c.count >= 16, c[4] == 0x2D, c[7] == 0x2D, [0x54, 0x74, 0x20].contains(c[10]), c[13] == 0x3A,
              let day = CivilDate(iso: String(decoding: c[0..<10], as: UTF8.self)),
              let hour = number(11..<13), let minute = number(14..<16), hour < 24, minute < 60 else { return nil }
        var i = 16
        var second = 0
        if i < c.count, c[i] == 0x3A {
            guard let s = number(17..<19), s < 61 else { return nil }
            second = min(s, 59)  // a leap second is the last second of its minute
            i = 19
            if i < c.count, c[i] == 0x2E {
                i += 1
                let start = i
                while i < c.count, c[i] >= 0x30 && c[i] <= 0x39 { i += 1 }
                guard i > start else { return nil }
            }
        }
        let zone = Array(c[i...])
        switch zone.count {
        case 0:
            utcOffset = nil
        case 1 where zone[0] == 0x5A || zone[0] == 0x7A:
            utcOffset = 0
        case 5, 6:
            let digits = zone.count == 6 ? [1, 2, 4, 5] : [1, 2, 3, 4]
            guard zone[0] == 0x2B || zone[0] == 0x2D, zone.count == 5 || zone[3] == 0x3A,
                  digits.allSatisfy({ zone[$0] >= 0x30 && zone[$0] <= 0x39 }) else { return nil }
            let h = Int(zone[digits[0]] - 0x30) * 10 + Int(zone[digits[1]] - 0x30)
            let m = Int(zone[digits[2]] - 0x30) * 10 + Int(zone[digits[3]] - 0x30)
            guard h < 24, m < 60 else { return nil }
            utcOffset = (h * 3600 + m * 60) * (zone[0] == 0x2D ? -1 : 1)
        default:
            return nil
        }
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The instant: the offset's when given, else the local time in `zone` (in a
    /// daylight-saving gap, the instant the clocks jumped to).
    func date(in zone: TimeZone) -> Date {
        if let utcOffset {
            let instant = MessageDate(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute,
                                      second: second, utcOffsetSeconds: utcOffset)
            return Date(timeIntervalSince1970: TimeInterval(instant.secondsSince1970))
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute, second: second)
        return calendar.date(from: components) ?? Date(timeIntervalSince1970: 0)
    }

    /// The `--now` of `a`, if given; a usage error when it is not a time.
    static func parse(_ a: Arguments) throws -> NowOption? {
        guard let text = a.value("--now") else { return nil }
        guard let now = NowOption(text) else {
            throw a.usage("--now wants an ISO 8601 (RFC 3339) time such as 2026-03-02T09:00:00-06:00, "
                + "or a local date-time such as 2026-03-02T09:00, not '\(text)'")
        }
        return now
    }
}
