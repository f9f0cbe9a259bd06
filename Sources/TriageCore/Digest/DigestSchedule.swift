import Foundation

/// When a day's digest is due: from the configured local `hour` of that day.
///
/// Times are read as wall-clock time in the configured zone (the offset in
/// force at the instant), and days are calendar dates, so daylight-saving
/// changes need no special case: on a 23- or 25-hour day the digest is still
/// due from `hour` o'clock local time, and an hour skipped by the clock change
/// counts as passed once the clock shows a later hour.
public struct DigestSchedule: Sendable {
    /// The local hour (0...23) from which a day's digest is due.
    public var hour: Int
    /// The configured zone.
    public var timeZone: TimeZone

    /// Creates a schedule.
    public init(hour: Int, timeZone: TimeZone) {
        self.hour = hour
        self.timeZone = timeZone
    }

    /// The local calendar day and hour at `now`.
    public func localDayAndHour(at now: Date) -> (day: CivilDate, hour: Int) {
        let local = Timestamp(now, timeZone: timeZone).local
        return (local.day, local.hour)
    }

    /// The latest day whose digest hour has passed at `now`: today from `hour`
    /// on, yesterday before it.
    public func latestDay(at now: Date) -> CivilDate {
        let (today, localHour) = localDayAndHour(at: now)
        return localHour >= hour ? today : today.adding(days: -1)
    }

    /// The day whose digest should be sent at `now`, or nil when none is due.
    ///
    /// Only the latest day whose hour has passed is considered: a run that missed
    /// the hour (cron down, laptop asleep) catches up on the next run, even the
    /// next morning before the hour; older missed days are not sent one by one,
    /// since the latest digest holds everything still open. A day is never due
    /// twice, and neither is a day once a later day has been sent.
    public func dueDay(at now: Date, sent: Set<CivilDate>) -> CivilDate? {
        let day = latestDay(at: now)
        if sent.contains(where: { $0 >= day }) { return nil }
        return day
    }

    /// The days of the next `count` digests still to be sent, starting with the
    /// one due now if any, else the next one to come (today before the hour,
    /// tomorrow after it).
    public func upcomingDays(at now: Date, sent: Set<CivilDate>, count: Int) -> [CivilDate] {
        guard count > 0 else { return [] }
        var first: CivilDate
        if let due = dueDay(at: now, sent: sent) {
            first = due
        } else {
            first = latestDay(at: now).adding(days: 1)
            while sent.contains(first) { first = first.adding(days: 1) }
        }
        return (0..<count).map { first.adding(days: $0) }
    }
}
