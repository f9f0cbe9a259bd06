import Foundation
import TriageCore

/// One file of `RuleCases/`: rules plus the expectations written in its comments.
///
/// Directives (every other comment is just a comment):
/// ```
/// # config: me = a@x.test, b@x.test      (empty value: no identities; default me@example.test, me.alias@example.test)
/// # config: timezone = Europe/Berlin      (default America/Chicago)
/// # config: now = 2026-03-02T09:00:00-06:00   (also today, before which a fixed due day is a warning)
/// # config: place = Office at 38.97,-95.23 radius 200 m   (a [place Office] section)
/// # expect error LINE:COL: MESSAGE        (the file must give exactly these errors, in order)
/// # expect warning LINE:COL: MESSAGE      (and exactly these warnings; a file with only warnings runs)
/// # message: A NAME FOR IT                (starts a message; its fields follow, indented)
/// #   from: John Smith <js@x.test>, other@x.test
/// #   to: / cc: / bcc: / replyto: / deliveredto: / subject: / snippet: / list: / messageid:
/// #   labels: money, no push   flags: \Seen \Flagged   attachments: a.pdf, b.txt   size: 12000
/// #   date: 2026-03-01T10:00:00-06:00     internaldate: (same form)
/// #   mailbox: Lists/dev                  header: X-Spam-Flag: YES   (one field per line, may repeat)
/// # expect match: RULE NAME               (every matching rule, in order)
/// # expect why: cc:me, -to:me             (the terms that matched, for the match just above)
/// # expect no match
/// # expect action: label "no push"        (every planned action, in order, as a rule writes it)
/// # expect dropped: move "Other"          (every dropped action, in order)
/// # expect json: {...}                    (the whole `triage test --json` line, file "case")
/// ```
struct RuleCase {
    struct MessageCase {
        var title: String
        var line: Int
        var message = Message()
        var matches: [(rule: String, why: String?)] = []
        var expectsNoMatch = false
        var actions: [String]?
        var dropped: [String]?
        var json: String?
    }

    var name: String
    var identities = ["me@example.test", "me.alias@example.test"]
    var timeZone = "America/Chicago"
    var now = "2026-03-02T09:00:00-06:00"
    var places: [String: Place] = [:]
    var errors: [String] = []
    var warnings: [String] = []
    var messages: [MessageCase] = []

    init(name: String, text: String) throws {
        self.name = name
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = offset + 1
            guard let hash = raw.firstIndex(of: "#") else { continue }
            let comment = raw[raw.index(after: hash)...]
            // Only whole-line comments carry directives.
            guard raw[..<hash].allSatisfy(\.isWhitespace) else { continue }
            if comment.hasPrefix("   "), var current = messages.popLast() {
                let field = comment.trimmingCharacters(in: .whitespaces)
                guard let colon = field.firstIndex(of: ":") else { throw CaseError("\(name):\(line): bad field line") }
                let key = String(field[..<colon]).lowercased()
                let value = field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                try Self.set(key, value, on: &current.message, at: "\(name):\(line)")
                messages.append(current)
                continue
            }
            let directive = comment.trimmingCharacters(in: .whitespaces)
            func value(after prefix: String) -> String? {
                guard directive.hasPrefix(prefix) else { return nil }
                return directive.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
            }
            if let config = value(after: "config:") {
                let parts = config.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { throw CaseError("\(name):\(line): config needs key = value") }
                switch parts[0] {
                case "me": identities = parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                case "timezone": timeZone = parts[1]
                case "now": now = parts[1]
                case "place":
                    // NAME at LAT,LON radius N UNIT
                    let words = parts[1].components(separatedBy: " at ")
                    let rest = words.count == 2 ? words[1].components(separatedBy: " radius ") : []
                    guard rest.count == 2, let at = ReminderSyntax.coordinates(rest[0]), let radius = ReminderSyntax.radius(rest[1]) else {
                        throw CaseError("\(name):\(line): place needs NAME at LAT,LON radius N UNIT")
                    }
                    places[words[0].lowercased()] = Place(latitude: at.latitude, longitude: at.longitude, radiusMeters: radius, title: words[0])
                default: throw CaseError("\(name):\(line): unknown config key \(parts[0])")
                }
            } else if let error = value(after: "expect error") {
                errors.append(error)
            } else if let warning = value(after: "expect warning") {
                warnings.append(warning)
            } else if let title = value(after: "message:") {
                messages.append(MessageCase(title: title, line: line))
            } else if directive.hasPrefix("expect") {
                guard var current = messages.popLast() else { throw CaseError("\(name):\(line): expectation before any '# message:'") }
                if let rule = value(after: "expect match:") {
                    current.matches.append((rule, nil))
                } else if let why = value(after: "expect why:") {
                    guard !current.matches.isEmpty else { throw CaseError("\(name):\(line): 'expect why' needs an 'expect match' above it") }
                    current.matches[current.matches.count - 1].why = why
                } else if directive == "expect no match" {
                    current.expectsNoMatch = true
                } else if let action = value(after: "expect action:") {
                    current.actions = (current.actions ?? []) + [action]
                } else if let dropped = value(after: "expect dropped:") {
                    current.dropped = (current.dropped ?? []) + [dropped]
                } else if let json = value(after: "expect json:") {
                    current.json = json
                } else {
                    throw CaseError("\(name):\(line): unknown expectation '\(directive)'")
                }
                messages.append(current)
            }
        }
    }

    /// Sets one message field from its written form.
    static func set(_ key: String, _ value: String, on message: inout Message, at place: String) throws {
        func list(_ text: String) -> [String] {
            text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        func addresses(_ text: String) -> [Address] {
            list(text).map { item in
                if let open = item.lastIndex(of: "<"), let close = item.lastIndex(of: ">"), open < close {
                    let name = item[..<open].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    return Address(name: name.isEmpty ? nil : name, address: String(item[item.index(after: open)..<close]))
                }
                return Address(address: item)
            }
        }
        switch key {
        case "from": message.from = addresses(value)
        case "to": message.to = addresses(value)
        case "cc": message.cc = addresses(value)
        case "bcc": message.bcc = addresses(value)
        case "replyto": message.replyTo = addresses(value)
        case "deliveredto": message.deliveredTo = list(value)
        case "subject": message.subject = value
        case "snippet": message.snippet = value
        case "list": message.listID = value
        case "messageid": message.messageID = value
        case "mailbox": message.server.mailbox = value
        case "header":
            guard let colon = value.firstIndex(of: ":") else { throw CaseError("\(place): header needs NAME: VALUE") }
            message.headers.append(HeaderField(String(value[..<colon]),
                                               value[value.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        case "labels": message.server.labels = Set(list(value))
        case "flags": message.server.flags = Set(value.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init))
        case "attachments": message.attachments = list(value)
        case "size":
            guard let size = Int(value) else { throw CaseError("\(place): size must be a number") }
            message.size = size
        case "date":
            guard let date = Self.messageDate(value) else { throw CaseError("\(place): date must be RFC 3339") }
            message.date = date
        case "internaldate":
            guard let date = Self.messageDate(value) else { throw CaseError("\(place): internaldate must be RFC 3339") }
            message.server.internalDate = date.secondsSince1970
        default: throw CaseError("\(place): unknown message field '\(key)'")
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS±HH:MM` or `...Z`.
    static func messageDate(_ text: String) -> MessageDate? {
        let c = Array(text)
        guard c.count >= 20, let day = CivilDate(iso: String(c[0..<10])),
              let h = Int(String(c[11..<13])), let m = Int(String(c[14..<16])), let s = Int(String(c[17..<19])) else { return nil }
        var offset = 0
        if c.count == 25, let oh = Int(String(c[20..<22])), let om = Int(String(c[23..<25])) {
            offset = (oh * 3600 + om * 60) * (c[19] == "-" ? -1 : 1)
        } else if c[19] != "Z" {
            return nil
        }
        return MessageDate(year: day.year, month: day.month, day: day.day, hour: h, minute: m, second: s, utcOffsetSeconds: offset)
    }

    struct CaseError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
