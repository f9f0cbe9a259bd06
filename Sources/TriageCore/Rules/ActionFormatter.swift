/// Shows actions to people (in rule syntax) and to programs (`--json` objects).
public enum ActionFormatter {
    /// The action as it would be written in a rule: `label "no push"`, `queue rec in 2 days`.
    public static func text(_ action: Action) -> String {
        switch action {
        case .label(let name): return "label \(quote(name))"
        case .unlabel(let name): return "unlabel \(quote(name))"
        case .move(let folder): return "move \(quote(folder))"
        case .archive: return "archive"
        case .markRead: return "mark read"
        case .markUnread: return "mark unread"
        case .flag: return "flag"
        case .queue(let name, let days): return "queue \(name)" + (days.map { " in \($0) \($0 == 1 ? "day" : "days")" } ?? "")
        case .remind(let spec):
            var text = "remind \(quote(spec.title))"
            switch spec.due {
            case .inDays(let n)?: text += " in \(n) \(n == 1 ? "day" : "days")"
            case .on(let day)?: text += " on \(day.iso)"
            case .next(let weekday)?: text += " next \(ReminderSyntax.weekdays[weekday])"
            case nil: break
            }
            if let at = spec.at { text += " at \(at)" }
            if let place = spec.place {
                text += " near" + (place.title.map { " " + quote($0) } ?? "")
                text += " \(number(place.latitude)),\(number(place.longitude)) radius \(DigestFormat.radius(place.radiusMeters)) \(place.proximity.rawValue)"
            }
            if let note = spec.note { text += " note \(quote(note))" }
            return text
        case .followUp(let spec):
            var text = "follow up"
            switch spec.wait {
            case .hours(let n): text += " in \(n) \(n == 1 ? "hour" : "hours")"
            case .day(.inDays(let n)): text += " in \(n) \(n == 1 ? "day" : "days")"
            case .day(.on(let day)): text += " on \(day.iso)"
            case .day(.next(let weekday)): text += " on \(ReminderSyntax.weekdays[weekday])"
            }
            if let at = spec.at { text += " at \(at)" }
            return text
        case .digest(let section): return "digest \(quote(section))"
        case .webhook(let url): return "webhook \(quote(url))"
        case .stop: return "stop"
        case .snooze(let spec): return "snooze " + spec.text
        }
    }

    /// The action as a JSON object: `"type"` first, then its arguments. Due dates
    /// are resolved against `today` (the day of `now` in the configured time zone).
    /// `mark` carries `"state": "read"` or `"unread"`.
    public static func json(_ action: Action, today: CivilDate) -> JSONValue {
        func object(_ type: String, _ pairs: [(String, JSONValue)] = []) -> JSONValue {
            .object([("type", .string(type))] + pairs)
        }
        switch action {
        case .label(let name): return object("label", [("name", .string(name))])
        case .unlabel(let name): return object("unlabel", [("name", .string(name))])
        case .move(let folder): return object("move", [("folder", .string(folder))])
        case .markRead: return object("mark", [("state", .string("read"))])
        case .markUnread: return object("mark", [("state", .string("unread"))])
        case .flag: return object("flag")
        case .archive: return object("archive")
        case .queue(let name, let days):
            return object("queue", [("queue", .string(name)), ("due", .string(today.adding(days: days ?? 0).iso))])
        case .remind(let spec):
            var pairs: [(String, JSONValue)] = [("title", .string(spec.title)),
                                                ("due", .string((spec.due?.resolve(today: today) ?? today).iso))]
            if let at = spec.at { pairs.append(("at", .string(at.description))) }
            if let place = spec.place {
                var location: [(String, JSONValue)] = [("lat", .double(place.latitude)), ("lon", .double(place.longitude)),
                                                       ("radius_m", .double(place.radiusMeters)),
                                                       ("proximity", .string(place.proximity.rawValue))]
                if let title = place.title { location.append(("title", .string(title))) }
                pairs.append(("location", .object(location)))
            }
            if let note = spec.note { pairs.append(("note", .string(note))) }
            return object("remind", pairs)
        case .followUp(let spec):
            // Due after the message's sending, which only the message says: the wait as written.
            var pairs: [(String, JSONValue)] = []
            switch spec.wait {
            case .hours(let n): pairs.append(("hours", .int(Int64(n))))
            case .day(.inDays(let n)): pairs.append(("days", .int(Int64(n))))
            case .day(.on(let day)): pairs.append(("on", .string(day.iso)))
            case .day(.next(let weekday)): pairs.append(("on", .string(ReminderSyntax.weekdays[weekday])))
            }
            if let at = spec.at { pairs.append(("at", .string(at.description))) }
            return object("follow_up", pairs)
        case .digest(let section): return object("digest", [("section", .string(section))])
        case .webhook(let url): return object("webhook", [("url", .string(url))])
        case .stop: return object("stop")
        case .snooze(let spec):
            switch spec {
            case .hours(let n): return object("snooze", [("hours", .int(Int64(n)))])
            case .until(let due, let at):
                var pairs: [(String, JSONValue)] = [("until", .string(due.resolve(today: today).iso))]
                pairs.append(("at", .string((at ?? SnoozeSpec.defaultTime).description)))
                return object("snooze", pairs)
            }
        }
    }

    private static func quote(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
