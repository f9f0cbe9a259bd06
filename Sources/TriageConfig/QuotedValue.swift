/// How a configuration value is quoted (triage.conf(5), "Quoting").
///
/// A value that is one double-quoted string, its closing quote the last thing on the
/// line but for spaces and a `;` or `#` comment, stands for the text inside: `\"` is a
/// quote, `\\` a backslash, and `;`, `#` and spaces at either end are kept (inih
/// would have cut the value at ` ;`, and ` #` is cut too, so it is read from the raw line). Any other
/// value is taken as written, so `from = "Bot" <bot@example.test>` keeps its quotes.
/// Keys ending in `_command` are shell command lines and are never unquoted.
enum QuotedValue {
    /// What a value means.
    enum Reading: Equatable {
        /// The value to use.
        case value(String)
        /// A quoted value that cannot be read; the message says why (never the value: it may be a password).
        case problem(String)
    }

    /// Reads `entry`'s value by the quoting rules, a quoted one from `entry.raw` (the text after `=`).
    static func read(_ entry: INIEntry) -> Reading {
        guard entry.value.hasPrefix("\""), !entry.key.hasSuffix("_command") else { return .value(entry.value) }
        let raw = Array(entry.raw.trimmingWhitespace.unicodeScalars)
        guard raw.first == "\"" else { return .value(entry.value) }
        var text = String.UnicodeScalarView()
        var i = 1
        var badEscape = false
        while i < raw.count {
            let c = raw[i]
            if c == "\\" && i + 1 < raw.count {
                let next = raw[i + 1]
                if next == "\"" || next == "\\" { text.append(next) } else { badEscape = true }
                i += 2
                continue
            }
            if c == "\"" { break }
            text.append(c)
            i += 1
        }
        guard i < raw.count else {
            return .problem("\(entry.key): the quoted value has no closing quote; end it with \", "
                + "and write \\\" for a quote inside it")
        }
        let rest = String(String.UnicodeScalarView(raw[(i + 1)...])).trimmingWhitespace
        // Text after the closing quote: not one quoted string, so the value is as written.
        guard rest.isEmpty || rest.hasPrefix(";") || rest.hasPrefix("#") else { return .value(entry.value) }
        // The character after the backslash is not shown: it may be part of a password.
        if badEscape {
            return .problem("\(entry.key): a backslash before another character than \" or \\ in a quoted value; "
                + "inside quotes only \\\" (a quote) and \\\\ (a backslash) are escapes, so write \\\\ for a backslash")
        }
        return .value(String(text))
    }
}
