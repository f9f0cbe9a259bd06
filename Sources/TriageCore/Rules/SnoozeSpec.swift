import Foundation

/// When a `snooze` action brings a message back: `snooze until DAY [at TIME]` (the
/// day phrases `remind` takes) or `snooze for N hours|days|weeks`.
public enum SnoozeSpec: Hashable, Sendable {
    /// A day (`tomorrow`, `monday`, `next monday`, `2026-12-05`, `in 3 days`) at a
    /// time of day; without one at `defaultTime`.
    case until(DueSpec, at: TimeOfDay?)
    /// A span after the message is handled, in hours (days and weeks are 24 and 168).
    case hours(Int)

    /// The time of day a day without `at` wakes at: the start of a working morning.
    public static let defaultTime = TimeOfDay(hour: 8, minute: 0)

    /// The most hours `for` takes: 100 years, as `in N days` does.
    public static let maxHours = 36_500 * 24

    /// The instant the message wakes, for a message handled at `now` in `timeZone`.
    public func wake(now: Date, timeZone: TimeZone) -> Timestamp {
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        switch self {
        case .hours(let n):
            let at = seconds + Int64(n) * 3_600
            return Timestamp(Date(timeIntervalSince1970: TimeInterval(at)), timeZone: timeZone)
        case .until(let due, let time):
            let today = ZonedTime.civilDate(at: seconds, in: timeZone)
            let day = due.resolve(today: today)
            let time = time ?? Self.defaultTime
            // The local wall time, through the day's start so a change of offset that day counts.
            let start = ZonedTime.startOfDay(day, in: timeZone)
            let guess = start + Int64(time.hour * 3_600 + time.minute * 60)
            let fix = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(start))))
                - Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(guess))))
            return Timestamp(Date(timeIntervalSince1970: TimeInterval(guess + fix)), timeZone: timeZone)
        }
    }

    /// As written in a rule: `until tomorrow at 08:00`, `for 3 days`.
    public var text: String {
        switch self {
        case .hours(let n):
            if n % 168 == 0 { return "for \(n / 168) \(n == 168 ? "week" : "weeks")" }
            if n % 24 == 0 { return "for \(n / 24) \(n == 24 ? "day" : "days")" }
            return "for \(n) \(n == 1 ? "hour" : "hours")"
        case .until(let due, let time):
            var text = "until "
            switch due {
            case .inDays(1): text += "tomorrow"
            case .inDays(let n): text += "in \(n) \(n == 1 ? "day" : "days")"
            case .on(let day): text += day.iso
            case .next(let weekday): text += "next " + ReminderSyntax.weekdays[weekday]
            }
            return text + (time.map { " at \($0)" } ?? "")
        }
    }
}
