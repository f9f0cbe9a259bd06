import Foundation

/// Days in a time zone: the only place rules turn instants into dates and back.
enum ZonedTime {
    /// The calendar day of the instant `seconds` (since 1970) in `timeZone`.
    static func civilDate(at seconds: Int64, in timeZone: TimeZone) -> CivilDate {
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
        return Timestamp(secondsSince1970: seconds, utcOffsetSeconds: offset).localDay
    }

    /// The first instant of `day` in `timeZone`, in seconds since 1970.
    static func startOfDay(_ day: CivilDate, in timeZone: TimeZone) -> Int64 {
        let local = Int64(day.daysSince1970) * 86_400
        func offset(_ t: Int64) -> Int64 {
            Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t))))
        }
        // Two rounds settle the offset even when midnight is near a change.
        let guess = local - offset(local)
        return local - offset(guess)
    }
}
