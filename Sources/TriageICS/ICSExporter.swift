import CICal
import Foundation
import TriageCore

/// Writes reminders as an iCalendar (RFC 5545) VCALENDAR of VTODOs through libical.
///
/// Each located reminder carries what Apple Reminders, Thunderbird and Nextcloud
/// Tasks read for a geofence: GEO and LOCATION, Apple's
/// `X-APPLE-STRUCTURED-LOCATION`, and a VALARM with RFC 9074 `PROXIMITY`
/// (plus Apple's `X-APPLE-PROXIMITY` and an RFC 9073 `VLOCATION`). LOCATION is the
/// place's name when it has one (`near "Office"`), else its coordinates. A reminder
/// with a time (`at 09:00`) also gets a VALARM that fires at that time (an absolute
/// UTC TRIGGER, which every client reads alike), so the phone alerts then.
public enum ICSExporter {
    /// The product id written in PRODID.
    public static let productID = "-//triage//triage \(TriageVersion.string)//EN"

    /// The trigger Apple and RFC 9074 examples give a proximity-only alarm: a
    /// time long past, so only the place fires it.
    static let proximityTrigger = (year: 1976, month: 4, day: 1, hour: 0, minute: 55, second: 45)

    /// The calendar text (CRLF lines, folded at 75 octets). `timeZone` is the
    /// zone of reminders' `at` times; `now` is DTSTAMP.
    public static func calendar(_ reminders: [Reminder], timeZone: TimeZone, now: Date) -> String {
        let calendar = icalcomponent_new(ICAL_VCALENDAR_COMPONENT)!
        defer { icalcomponent_free(calendar) }
        icalcomponent_add_property(calendar, icalproperty_new_version("2.0"))
        icalcomponent_add_property(calendar, icalproperty_new_prodid(productID))
        icalcomponent_add_property(calendar, icalproperty_new_calscale("GREGORIAN"))

        var zone = Zone(timeZone)
        let timedDays = reminders.filter { $0.at != nil }.map(\.due)
        if let first = timedDays.min(), !zone.isUTC {
            if let component = zone.vtimezone(from: first.year) {
                icalcomponent_add_component(calendar, component)
            } else {
                // A zone libical has no definition for: write times in UTC instead
                // of a TZID that no VTIMEZONE defines.
                zone.writeInUTC = true
            }
        }
        let stamp = utc(Int64(now.timeIntervalSince1970))
        for reminder in reminders {
            icalcomponent_add_component(calendar, todo(reminder, zone: zone, stamp: stamp))
        }
        guard let text = icalcomponent_as_ical_string_r(calendar) else { return "" }
        defer { free(text) }
        // libical 3.0 ends an X component with "END:X"; VLOCATION is the only one we make.
        return String(cString: text).replacingOccurrences(of: "\r\nEND:X\r\n", with: "\r\nEND:VLOCATION\r\n")
    }

    /// The stable UID of a reminder.
    public static func uid(of reminder: Reminder) -> String { reminder.id + "@triage" }

    private static func todo(_ r: Reminder, zone: Zone, stamp: icaltimetype) -> OpaquePointer {
        let todo = icalcomponent_new(ICAL_VTODO_COMPONENT)!
        icalcomponent_add_property(todo, icalproperty_new_uid(uid(of: r)))
        icalcomponent_add_property(todo, icalproperty_new_dtstamp(stamp))
        icalcomponent_add_property(todo, icalproperty_new_created(utc(r.created.secondsSince1970)))
        icalcomponent_add_property(todo, icalproperty_new_summary(line(r.title)))
        if let description = description(of: r) {
            icalcomponent_add_property(todo, icalproperty_new_description(description))
        }
        icalcomponent_add_property(todo, due(r, zone: zone))
        switch r.status {
        case .open:
            icalcomponent_add_property(todo, icalproperty_new_status(ICAL_STATUS_NEEDSACTION))
        case .done:
            icalcomponent_add_property(todo, icalproperty_new_status(ICAL_STATUS_COMPLETED))
            if let when = r.statusChanged { icalcomponent_add_property(todo, icalproperty_new_completed(utc(when.secondsSince1970))) }
        case .removed:
            icalcomponent_add_property(todo, icalproperty_new_status(ICAL_STATUS_CANCELLED))
        }
        if let place = r.place {
            icalcomponent_add_property(todo, icalproperty_new_geo(icalgeotype(lat: place.latitude, lon: place.longitude)))
            icalcomponent_add_property(todo, icalproperty_new_location(placeName(place)))
            icalcomponent_add_property(todo, appleLocation(place))
            icalcomponent_add_component(todo, alarm(r, place: place))
        }
        if let at = r.at {
            icalcomponent_add_component(todo, timeAlarm(r, at: at, zone: zone))
        }
        return todo
    }

    /// The note, then what the reminder came from (DESCRIPTION).
    public static func description(of r: Reminder) -> String? {
        var parts: [String] = []
        if let note = r.note, !note.isEmpty { parts.append(note) }
        if let m = r.message {
            var lines: [String] = []
            if let from = m.from { lines.append("From: " + from.displayString) }
            if let subject = m.subject { lines.append("Subject: " + subject) }
            if let date = m.date { lines.append("Date: " + date) }
            if let id = m.messageID { lines.append("Message-ID: <\(id)>") }
            let folder = [m.account, m.mailbox].compactMap { $0 }.joined(separator: "/")
            if !folder.isEmpty { lines.append("Mailbox: " + folder) }
            if let rule = r.rule { lines.append("Rule: " + rule) }
            if !lines.isEmpty { parts.append(lines.joined(separator: "\n")) }
        }
        guard !parts.isEmpty else { return nil }
        // Lines stay (libical writes them as \n); other controls, which RFC 5545
        // TEXT forbids, become spaces.
        let text = parts.joined(separator: "\n\n").replacing("\r\n", with: "\n")
        return ControlCharacters.replaced(in: text, keepingLineBreaks: true)
    }

    /// One-line TEXT (SUMMARY, LOCATION, a title): RFC 5545 allows no control
    /// characters but TAB, and a title may hold what a sender wrote.
    private static func line(_ text: String) -> String {
        ControlCharacters.replaced(in: text)
    }

    /// DUE as a date, or as a local date-time with TZID when the reminder has a time.
    private static func due(_ r: Reminder, zone: Zone) -> OpaquePointer {
        var t = icaltime_null_time()
        t.year = Int32(r.due.year)
        t.month = Int32(r.due.month)
        t.day = Int32(r.due.day)
        guard let at = r.at else {
            t.is_date = 1
            return icalproperty_new_due(t)
        }
        t.hour = Int32(at.hour)
        t.minute = Int32(at.minute)
        if zone.isUTC {
            t.zone = icaltimezone_get_utc_timezone()
            return icalproperty_new_due(t)
        }
        if zone.writeInUTC {
            return icalproperty_new_due(utc(instant(r.due, at, in: zone.timeZone)))
        }
        let property = icalproperty_new_due(t)!
        icalproperty_add_parameter(property, icalparameter_new_tzid(zone.identifier))
        return property
    }

    private static func placeName(_ place: Place) -> String {
        line(place.title ?? "\(coordinate(place.latitude)),\(coordinate(place.longitude))")
    }

    /// Up to six decimals (about 0.1 m), without trailing zeros.
    static func coordinate(_ value: Double) -> String {
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// `geo:LAT,LON` as a URI value, which libical writes without escaping the comma.
    private static func geoURI(_ place: Place, uncertainty: Bool = false) -> OpaquePointer {
        var text = "geo:\(coordinate(place.latitude)),\(coordinate(place.longitude))"
        if uncertainty { text += ";u=\(coordinate(place.radiusMeters))" }
        return icalvalue_new_uri(text)
    }

    /// `X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-APPLE-RADIUS=R;X-TITLE=T:geo:LAT,LON`.
    private static func appleLocation(_ place: Place) -> OpaquePointer {
        let property = icalproperty_new(ICAL_X_PROPERTY)!
        icalproperty_set_x_name(property, "X-APPLE-STRUCTURED-LOCATION")
        icalproperty_set_value(property, geoURI(place))
        icalproperty_add_parameter(property, icalparameter_new_value(ICAL_VALUE_URI))
        icalproperty_add_parameter(property, xParameter("X-APPLE-RADIUS", coordinate(place.radiusMeters)))
        icalproperty_add_parameter(property, xParameter("X-TITLE", placeName(place)))
        return property
    }

    /// The moment `at` on `day` in `timeZone`, in seconds since 1970.
    private static func instant(_ day: CivilDate, _ at: TimeOfDay, in timeZone: TimeZone) -> Int64 {
        var parts = DateComponents()
        (parts.year, parts.month, parts.day) = (day.year, day.month, day.day)
        (parts.hour, parts.minute) = (at.hour, at.minute)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return Int64((calendar.date(from: parts) ?? Date(timeIntervalSince1970: 0)).timeIntervalSince1970)
    }

    /// The time alarm: DISPLAY at the due time, as an absolute UTC TRIGGER (RFC 5545
    /// §3.8.6.3 requires UTC for an absolute trigger).
    private static func timeAlarm(_ r: Reminder, at: TimeOfDay, zone: Zone) -> OpaquePointer {
        let alarm = icalcomponent_new(ICAL_VALARM_COMPONENT)!
        icalcomponent_add_property(alarm, icalproperty_new_uid(r.id + "-time@triage"))
        icalcomponent_add_property(alarm, icalproperty_new_action(ICAL_ACTION_DISPLAY))
        icalcomponent_add_property(alarm, icalproperty_new_description(line(r.title)))
        let when = utc(instant(r.due, at, in: zone.timeZone))
        let trigger = icalproperty_new_trigger(icaltriggertype(time: when, duration: icaldurationtype_null_duration()))!
        icalproperty_add_parameter(trigger, icalparameter_new_value(ICAL_VALUE_DATETIME))
        icalcomponent_add_property(alarm, trigger)
        return alarm
    }

    /// The geofence alarm: RFC 9074 PROXIMITY and VLOCATION, Apple's X-APPLE-PROXIMITY.
    private static func alarm(_ r: Reminder, place: Place) -> OpaquePointer {
        let alarm = icalcomponent_new(ICAL_VALARM_COMPONENT)!
        icalcomponent_add_property(alarm, icalproperty_new_uid(r.id + "-proximity@triage"))
        icalcomponent_add_property(alarm, icalproperty_new_action(ICAL_ACTION_DISPLAY))
        icalcomponent_add_property(alarm, icalproperty_new_description(line(r.title)))
        var when = icaltime_null_time()
        let p = proximityTrigger
        (when.year, when.month, when.day) = (Int32(p.year), Int32(p.month), Int32(p.day))
        (when.hour, when.minute, when.second) = (Int32(p.hour), Int32(p.minute), Int32(p.second))
        when.zone = icaltimezone_get_utc_timezone()
        let trigger = icalproperty_new_trigger(icaltriggertype(time: when, duration: icaldurationtype_null_duration()))!
        icalproperty_add_parameter(trigger, icalparameter_new_value(ICAL_VALUE_DATETIME))
        icalcomponent_add_property(alarm, trigger)
        let value = place.proximity == .arriving ? "ARRIVE" : "DEPART"
        icalcomponent_add_property(alarm, xProperty("PROXIMITY", value))
        icalcomponent_add_property(alarm, xProperty("X-APPLE-PROXIMITY", value))
        icalcomponent_add_property(alarm, appleLocation(place))
        let location = icalcomponent_new_x("VLOCATION")!
        icalcomponent_add_property(location, icalproperty_new_uid(r.id + "-place@triage"))
        icalcomponent_add_property(location, icalproperty_new_name(placeName(place)))
        let url = icalproperty_new(ICAL_URL_PROPERTY)!
        icalproperty_set_value(url, geoURI(place, uncertainty: true))
        icalcomponent_add_property(location, url)
        icalcomponent_add_component(alarm, location)
        return alarm
    }

    /// A property libical does not know by name (PROXIMITY is newer than libical 3.0).
    private static func xProperty(_ name: String, _ value: String) -> OpaquePointer {
        let property = icalproperty_new_x(value)!
        icalproperty_set_x_name(property, name)
        return property
    }

    private static func xParameter(_ name: String, _ value: String) -> OpaquePointer {
        let parameter = icalparameter_new_x(value)!
        icalparameter_set_xname(parameter, name)
        return parameter
    }

    private static func utc(_ seconds: Int64) -> icaltimetype {
        icaltime_from_timet_with_zone(time_t(seconds), 0, icaltimezone_get_utc_timezone())
    }

    /// The reminders' time zone and its VTIMEZONE, named by its plain IANA id.
    private struct Zone {
        let timeZone: TimeZone
        let identifier: String
        let isUTC: Bool
        /// Set when libical has no VTIMEZONE for the zone.
        var writeInUTC = false

        init(_ timeZone: TimeZone) {
            self.timeZone = timeZone
            identifier = timeZone.identifier
            isUTC = timeZone.secondsFromGMT() == 0 && ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Z"].contains(timeZone.identifier)
        }

        /// libical's VTIMEZONE for the zone (from the system zoneinfo) from January of
        /// `year` on, with TZID set to the IANA name so that DUE's TZID matches it and
        /// other readers know the zone.
        func vtimezone(from year: Int) -> OpaquePointer? {
            guard !isUTC, let builtin = icaltimezone_get_builtin_timezone(identifier),
                  let component = icaltimezone_get_component(builtin),
                  let copy = icalcomponent_new_clone(component) else { return nil }
            var start = icaltime_null_time()
            (start.year, start.month, start.day) = (Int32(year), 1, 1)
            start.zone = icaltimezone_get_utc_timezone()
            icaltimezone_truncate_vtimezone(copy, start, icaltime_null_time(), 0)
            if let tzid = icalcomponent_get_first_property(copy, ICAL_TZID_PROPERTY) {
                icalproperty_set_tzid(tzid, identifier)
            }
            return copy
        }
    }
}
