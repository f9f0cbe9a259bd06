/// Parses the reminder grammar shared by the `remind` rule action and
/// `triage remind add`: `"TITLE" [in N days|weeks | tomorrow | next WEEKDAY |
/// on YYYY-MM-DD] [at HH:MM|9am|6:30pm] [near "PLACE" | near ["PLACE"] LAT,LON
/// radius N m|km|mi [arriving|leaving]] [note "TEXT"]`.
///
/// The clauses may come in any order, each at most once (one due clause). The title
/// is always a quoted string here; the command line quotes the user's words before
/// parsing. A named place (`near "Office"`) is one of `places`, the `[place NAME]`
/// sections of the configuration.
public enum ReminderSyntax {
    /// The words that start a clause (matched without regard to case).
    public static let clauses = ["in", "on", "at", "near", "note", "tomorrow", "next"]

    /// Weekday names for `next WEEKDAY`, in `CivilDate.weekday` order (Sunday first).
    public static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// The radius units and their length in metres.
    public static let units: [(names: [String], metres: Double)] = [
        (["m", "meter", "meters", "metre", "metres"], 1),
        (["km", "kilometer", "kilometers", "kilometre", "kilometres"], 1000),
        (["mi", "mile", "miles"], 1609.344),
    ]

    /// Metres in one `unit` (case ignored), nil for an unknown unit.
    public static func metres(per unit: String) -> Double? {
        let lower = unit.lowercased()
        return units.first { $0.names.contains(lower) }?.metres
    }

    /// Parses `source` (the text after `remind`); `path` names it in diagnostics;
    /// `places` are the named places (`[place NAME]`) by name, case ignored; with
    /// `today`, a fixed due date before it is a warning.
    /// Returns the spec, or nil with at least one diagnostic.
    public static func parse(_ source: String, path: String = "<command line>", places: [String: Place] = [:],
                             today: CivilDate? = nil) -> (ReminderSpec?, [Diagnostic]) {
        RuleParser.parseReminder(source, path: path, places: places, today: today)
    }

    /// A radius as written in the configuration: `200 m`, `3 miles`, `1.5km`; in metres.
    public static func radius(_ text: String) -> Double? {
        let trimmed = trim(text)
        let digits = trimmed.prefix { ($0.isASCII && $0.isNumber) || $0 == "." }
        guard let amount = decimal(String(digits)), amount > 0,
              let per = metres(per: trim(String(trimmed.dropFirst(digits.count)))) else { return nil }
        return amount * per
    }

    /// `LAT,LON` in decimal degrees, each in range, as written in the configuration.
    public static func coordinates(_ text: String) -> (latitude: Double, longitude: Double)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { trim(String($0)) }
        guard parts.count == 2, let lat = signedDecimal(parts[0]), let lon = signedDecimal(parts[1]),
              abs(lat) <= 90, abs(lon) <= 180 else { return nil }
        return (lat, lon)
    }

    /// A plain decimal number (`38.9717`, `3`), nil for anything else.
    static func decimal(_ text: String) -> Double? {
        guard !text.isEmpty, text.first != ".", text.last != ".",
              text.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "." }),
              text.filter({ $0 == "." }).count <= 1 else { return nil }
        return Double(text)
    }

    private static func trim(_ text: String) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    private static func signedDecimal(_ text: String) -> Double? {
        text.hasPrefix("-") ? decimal(String(text.dropFirst())).map { -$0 } : decimal(text)
    }
}
