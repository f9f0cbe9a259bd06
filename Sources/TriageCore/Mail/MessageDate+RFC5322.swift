extension MessageDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The RFC 5322 `Date` value in this date's own offset, e.g. `Mon, 30 Nov 2026 07:00:00 -0600`.
    public var rfc5322: String {
        let local = secondsSince1970 + Int64(utcOffsetSeconds)
        var days = local / 86_400
        var secs = local % 86_400
        if secs < 0 { secs += 86_400; days -= 1 }
        let date = CivilDate(daysSince1970: Int(days))
        let h = Int(secs / 3600), m = Int(secs % 3600 / 60), s = Int(secs % 60)
        let sign = utcOffsetSeconds < 0 ? "-" : "+"
        let offH = abs(utcOffsetSeconds) / 3600, offM = abs(utcOffsetSeconds) % 3600 / 60
        return "\(Self.weekdays[date.weekday]), \(date.day) \(Self.months[date.month - 1]) \(date.year) "
            + "\(pad2(h)):\(pad2(m)):\(pad2(s)) \(sign)\(pad2(offH))\(pad2(offM))"
    }
}
