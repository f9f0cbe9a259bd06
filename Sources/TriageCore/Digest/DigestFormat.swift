import Foundation

/// The small pieces of wording the digest renderers share: day names, ages,
/// counts, queue labels and geofence descriptions. English and independent of
/// the process locale, so the output is the same on every machine.
public enum DigestFormat {
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let longWeekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let longMonths = ["January", "February", "March", "April", "May", "June", "July", "August",
                             "September", "October", "November", "December"]

    /// `Mon 30 Nov`.
    public static func shortDay(_ day: CivilDate) -> String {
        "\(weekdays[day.weekday]) \(day.day) \(months[day.month - 1])"
    }

    /// `Monday 30 November 2026`.
    public static func longDay(_ day: CivilDate) -> String {
        "\(longWeekdays[day.weekday]) \(day.day) \(longMonths[day.month - 1]) \(day.year)"
    }

    /// A message's RFC 3339 date shown in `timeZone`: `Fri 27 Nov 14:05`, with
    /// the year when it is not the digest's year. Unparseable dates are shown as stored.
    public static func messageDate(_ rfc3339: String?, in timeZone: TimeZone, digestDay: CivilDate) -> String? {
        guard let rfc3339 else { return nil }
        guard let stamp = Timestamp(rfc3339: rfc3339) else { return rfc3339 }
        let local = Timestamp(stamp.date, timeZone: timeZone).local
        let day = local.day
        let time = pad2(local.hour) + ":" + pad2(local.minute)
        let year = day.year == digestDay.year ? "" : " \(day.year)"
        return shortDay(day) + year + " " + time
    }

    /// `due today`, `overdue 1 day`, `overdue 12 days`.
    public static func age(overdueDays: Int) -> String {
        switch overdueDays {
        case ...0: return "due today"
        case 1: return "overdue 1 day"
        default: return "overdue \(overdueDays) days"
        }
    }

    /// How long a follow-up has waited: `sent today`, `1 day`, `3 days`.
    public static func waited(days: Int) -> String {
        days <= 0 ? "sent today" : count(days, "day", "days")
    }

    /// `1 reminder`, `3 reminders`.
    public static func count(_ n: Int, _ singular: String, _ plural: String) -> String {
        Counted.of(n, singular, plural: plural)
    }

    /// A queue's count as the subject and headings say it: the `rec` queue
    /// reads "3 to reconcile", any other "3 in followup".
    public static func queueCount(_ name: String, _ n: Int) -> String {
        name == "rec" ? "\(n) to reconcile" : "\(n) in \(name)"
    }

    /// A queue's heading: "To reconcile" for `rec`, else "followup queue".
    public static func queueHeading(_ name: String) -> String {
        name == "rec" ? "To reconcile" : "\(name) queue"
    }

    /// The summary parts of a plan: reminders, then queues, then digest
    /// sections by name; zero counts are left out.
    public static func countParts(_ plan: DigestPlan) -> [String] {
        var parts: [String] = []
        if !plan.reminders.isEmpty { parts.append(count(plan.reminders.count, "reminder", "reminders")) }
        if !plan.waitingFor.isEmpty { parts.append("\(plan.waitingFor.count) waiting for") }
        for queue in plan.queues where !queue.items.isEmpty { parts.append(queueCount(queue.name, queue.items.count)) }
        for section in plan.sections where !section.entries.isEmpty { parts.append(Counted.section(section.entries.count, section.name)) }
        return parts
    }

    /// The subject: `triage · Mon 30 Nov: 2 reminders, 3 to reconcile, 14 FYI`,
    /// or `triage · Mon 30 Nov: nothing new`.
    public static func subject(_ plan: DigestPlan) -> String {
        let parts = countParts(plan)
        return "triage · \(shortDay(plan.day)): " + (parts.isEmpty ? "nothing new" : parts.joined(separator: ", "))
    }

    /// The metres in one international mile.
    static let metresPerMile = 1609.344

    /// A radius in the unit it was most likely written in (the store keeps
    /// metres only): whole hundreds of metres from 1 km up read as km (`1.5 km`);
    /// a multiple of a quarter mile, to within a metre, reads as miles (`3 mi`,
    /// `0.25 mi`); anything else under 1 km as metres (`200 m`), and the rest as
    /// km with one decimal.
    public static func radius(_ metres: Double) -> String {
        if metres >= 1000, abs(metres / 100 - (metres / 100).rounded()) < 0.0001 {
            return number(metres / 1000, decimals: 1) + " km"
        }
        let quarters = metres / (metresPerMile / 4)
        if metres >= metresPerMile / 4 - 1, abs(quarters - quarters.rounded()) * (metresPerMile / 4) < 1 {
            return number(quarters.rounded() / 4, decimals: 2) + " mi"
        }
        if metres < 1000 { return "\(Int(metres.rounded())) m" }
        return number(metres / 1000, decimals: 1) + " km"
    }

    /// `near Office, within 200 m, on leaving`; without a name, `within 3 mi,
    /// on arrival` (the map link shows where).
    public static func place(_ place: Place) -> String {
        let when = place.proximity == .arriving ? "on arrival" : "on leaving"
        let name = place.title.map { oneLine($0, limit: 60) } ?? ""
        return (name.isEmpty ? "" : "near \(name), ") + "within \(radius(place.radiusMeters)), \(when)"
    }

    /// A message's time for a compact line: `14:05` on the digest's day,
    /// `Sun 14:05` within the week before it, else `Fri 27 Nov`.
    public static func shortTime(_ rfc3339: String?, in timeZone: TimeZone, digestDay: CivilDate) -> String? {
        guard let rfc3339, let stamp = Timestamp(rfc3339: rfc3339) else { return nil }
        let local = Timestamp(stamp.date, timeZone: timeZone).local
        let time = pad2(local.hour) + ":" + pad2(local.minute)
        let age = local.day.days(until: digestDay)
        if age == 0 { return time }
        if age > 0 && age < 7 { return weekdays[local.day.weekday] + " " + time }
        return shortDay(local.day)
    }

    /// `x` with at most `decimals` decimals and no trailing zeros, in plain ASCII
    /// whatever the locale (`38.9717`, `-95.2353`, `3`, `1.5`).
    static func number(_ x: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((abs(x) * scale).rounded())
        let whole = scaled / Int64(scale)
        let fraction = scaled % Int64(scale)
        var text = (x < 0 && scaled != 0 ? "-" : "") + String(whole)
        if fraction > 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: decimals - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text
    }

    /// Text from mail made fit for one paragraph: runs of white space and control
    /// characters become single spaces, and it is cut to `limit` characters with "…".
    public static func oneLine(_ text: String, limit: Int = .max) -> String {
        var out = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace || scalar.value < 32 || (scalar.value >= 127 && scalar.value < 160)
                || scalar == "\u{2028}" || scalar == "\u{2029}" {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.unicodeScalars.append(" "); pendingSpace = false }
            out.unicodeScalars.append(scalar)
        }
        if out.count > limit {
            var cut = String(out.prefix(limit - 1))
            if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > limit * 2 / 3 {
                cut = String(cut[..<space])
            }
            out = cut + "…"
        }
        return out
    }
}
