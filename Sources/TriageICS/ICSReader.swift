import CICal
import Foundation
import TriageCore

/// Reads an iCalendar file back with libical: to check an export, and to show
/// what an importing application will see.
public enum ICSReader {
    /// The VTODOs of `text`. Throws when libical cannot parse it, or reports
    /// errors in it (including RFC 5545 restriction violations such as a VTODO
    /// without DTSTAMP).
    public static func todos(in text: String) throws -> [ICSTodo] {
        try todos(in: text, strict: true)
    }

    /// The VTODOs of `text`; with `strict` false, errors libical finds inside are
    /// tolerated (a server's item may come from any client) as long as it parses.
    public static func todos(in text: String, strict: Bool) throws -> [ICSTodo] {
        guard let root = icalparser_parse_string(text) else {
            throw SimpleError(.dataError, "libical could not parse the calendar")
        }
        defer { icalcomponent_free(root) }
        guard icalcomponent_isa(root) == ICAL_VCALENDAR_COMPONENT else {
            throw SimpleError(.dataError, "the text is not one VCALENDAR")
        }
        if strict { icalrestriction_check(root) }
        let errors = strict ? errorsIn(root) : []
        if !errors.isEmpty { throw SimpleError(.dataError, "libical found errors: " + errors.joined(separator: "; ")) }

        var todos: [ICSTodo] = []
        var component = icalcomponent_get_first_component(root, ICAL_VTODO_COMPONENT)
        while let c = component {
            todos.append(todo(c))
            component = icalcomponent_get_next_component(root, ICAL_VTODO_COMPONENT)
        }
        return todos
    }

    /// libical 3.0 drops IANA properties it does not know (RFC 9074's PROXIMITY
    /// is newer than it) and leaves this error in their place. RFC 5545 says a
    /// reader ignores properties it does not know, so these are not errors.
    private static let unknownPropertyError = "Parse error in property name: "

    private static func errorsIn(_ component: OpaquePointer) -> [String] {
        var found: [String] = []
        var p = icalcomponent_get_first_property(component, ICAL_XLICERROR_PROPERTY)
        while let property = p {
            let text = String(cString: icalproperty_get_xlicerror(property))
            if !text.hasPrefix(unknownPropertyError) { found.append(text) }
            p = icalcomponent_get_next_property(component, ICAL_XLICERROR_PROPERTY)
        }
        var child = icalcomponent_get_first_component(component, ICAL_ANY_COMPONENT)
        while let c = child {
            found += errorsIn(c)
            child = icalcomponent_get_next_component(component, ICAL_ANY_COMPONENT)
        }
        return found
    }

    private static func todo(_ c: OpaquePointer) -> ICSTodo {
        var t = ICSTodo()
        t.uid = string(icalcomponent_get_uid(c)) ?? ""
        t.summary = string(icalcomponent_get_summary(c))
        t.description = string(icalcomponent_get_description(c))
        if let p = icalcomponent_get_first_property(c, ICAL_STATUS_PROPERTY) {
            t.status = string(icalproperty_get_value_as_string(p))
        }
        if let p = icalcomponent_get_first_property(c, ICAL_DUE_PROPERTY) {
            t.due = string(icalproperty_get_value_as_string(p))
            t.dueTZID = string(icalproperty_get_parameter_as_string(p, "TZID"))
            t.dueIsDate = icalproperty_get_due(p).is_date != 0
        }
        if let p = icalcomponent_get_first_property(c, ICAL_GEO_PROPERTY) {
            let geo = icalproperty_get_geo(p)
            t.geo = (geo.lat, geo.lon)
        }
        if let p = icalcomponent_get_first_property(c, ICAL_COMPLETED_PROPERTY) {
            t.completed = string(icalproperty_get_value_as_string(p))
        }
        if let p = icalcomponent_get_first_property(c, ICAL_LASTMODIFIED_PROPERTY) {
            let time = icalproperty_get_lastmodified(p)
            if icaltime_is_null_time(time) == 0 { t.lastModified = Int64(icaltime_as_timet_with_zone(time, time.zone ?? icaltimezone_get_utc_timezone())) }
        }
        t.location = string(icalcomponent_get_location(c))
        t.appleLocation = appleLocation(in: c)
        t.unknownProperties = unknownProperties(in: c)
        var alarm = icalcomponent_get_first_component(c, ICAL_VALARM_COMPONENT)
        while let a = alarm {
            t.alarms.append(ICSAlarm(
                action: icalcomponent_get_first_property(a, ICAL_ACTION_PROPERTY).flatMap { string(icalproperty_get_value_as_string($0)) },
                trigger: icalcomponent_get_first_property(a, ICAL_TRIGGER_PROPERTY).flatMap { string(icalproperty_get_value_as_string($0)) },
                proximity: xProperty(named: "PROXIMITY", in: a).flatMap { string(icalproperty_get_value_as_string($0)) },
                appleProximity: xProperty(named: "X-APPLE-PROXIMITY", in: a).flatMap { string(icalproperty_get_value_as_string($0)) },
                appleLocation: appleLocation(in: a),
                unknownProperties: unknownProperties(in: a)))
            alarm = icalcomponent_get_next_component(c, ICAL_VALARM_COMPONENT)
        }
        return t
    }

    /// The names of the properties libical dropped from `c` because it does not know them.
    private static func unknownProperties(in c: OpaquePointer) -> [String] {
        var names: [String] = []
        var p = icalcomponent_get_first_property(c, ICAL_XLICERROR_PROPERTY)
        while let property = p {
            let text = String(cString: icalproperty_get_xlicerror(property))
            if text.hasPrefix(unknownPropertyError) { names.append(String(text.dropFirst(unknownPropertyError.count))) }
            p = icalcomponent_get_next_property(c, ICAL_XLICERROR_PROPERTY)
        }
        return names
    }

    private static func appleLocation(in c: OpaquePointer) -> ICSAppleLocation? {
        guard let p = xProperty(named: "X-APPLE-STRUCTURED-LOCATION", in: c) else { return nil }
        return ICSAppleLocation(uri: string(icalproperty_get_value_as_string(p)) ?? "",
                                radius: xParameter(named: "X-APPLE-RADIUS", in: p),
                                title: xParameter(named: "X-TITLE", in: p))
    }

    /// The first property of `c` with this name (libical keeps unknown names as X properties).
    private static func xProperty(named name: String, in c: OpaquePointer) -> OpaquePointer? {
        var p = icalcomponent_get_first_property(c, ICAL_X_PROPERTY)
        while let property = p {
            if string(icalproperty_get_x_name(property)) == name { return property }
            p = icalcomponent_get_next_property(c, ICAL_X_PROPERTY)
        }
        return nil
    }

    private static func xParameter(named name: String, in p: OpaquePointer) -> String? {
        var parameter = icalproperty_get_first_parameter(p, ICAL_X_PARAMETER)
        while let x = parameter {
            if string(icalparameter_get_xname(x)) == name { return string(icalparameter_get_xvalue(x)) }
            parameter = icalproperty_get_next_parameter(p, ICAL_X_PARAMETER)
        }
        return nil
    }

    private static func string(_ p: UnsafePointer<CChar>?) -> String? {
        p.map { String(cString: $0) }
    }
}
