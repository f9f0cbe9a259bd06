import Foundation

/// Placeholders in action strings: `{subject}`, `{from}`, `{from.name}`,
/// `{from.address}` and `{date}`. Braces around anything else are literal text.
public enum MessageTemplate {
    /// The placeholder names, without braces.
    public static let names = ["subject", "from", "from.name", "from.address", "date"]

    /// A `{name}` found in a string: its character offset, length with braces, and name.
    struct Placeholder {
        var offset: Int
        var length: Int
        var name: String
    }

    /// Every `{identifier}` in `text`, known or not.
    static func placeholders(in text: String) -> [Placeholder] {
        var found: [Placeholder] = []
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            guard chars[i] == "{" else { i += 1; continue }
            var j = i + 1
            while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "." || chars[j] == "_" { j += 1 }
            if j < chars.count, chars[j] == "}", j > i + 1 {
                found.append(Placeholder(offset: i, length: j - i + 1, name: String(chars[(i + 1)..<j])))
                i = j + 1
            } else {
                i += 1
            }
        }
        return found
    }

    /// `text` with its placeholders replaced by the message's values; `{date}` is the
    /// message's day (`YYYY-MM-DD`) in `timeZone`. What a placeholder adds is one
    /// line without control characters.
    public static func expand(_ text: String, message: Message, timeZone: TimeZone) -> String {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            if let value = value(of: name, message: message, timeZone: timeZone) {
                // Headers are decoded without controls already; this keeps a label,
                // a digest section or a title one line whatever the message held.
                out += ControlCharacters.replaced(in: value)
            } else {
                out += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        return out
    }

    private static func value(of name: String, message: Message, timeZone: TimeZone) -> String? {
        switch name {
        case "subject": return message.subject ?? "(no subject)"
        case "from": return message.sender?.displayString ?? "(unknown sender)"
        case "from.name":
            guard let sender = message.sender else { return "(unknown sender)" }
            if let name = sender.name, !name.isEmpty { return name }
            return sender.address
        case "from.address": return message.sender?.address ?? "(unknown sender)"
        case "date":
            guard let seconds = message.date?.secondsSince1970 ?? message.server.internalDate else { return "(no date)" }
            return ZonedTime.civilDate(at: seconds, in: timeZone).iso
        default: return nil
        }
    }
}
