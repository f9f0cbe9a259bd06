import TriageCore

/// Turns the shell words of `triage remind add` back into rule-action text, so
/// the command line and rules share one grammar (`ReminderSyntax`).
enum ReminderSource {
    /// The title (first word) and the word after `note` become quoted strings;
    /// the other words are kept as they are.
    static func text(_ words: [String]) -> String {
        var parts: [String] = []
        var quoteNext = true
        for word in words {
            if quoteNext {
                parts.append(quote(word))
                quoteNext = false
            } else {
                parts.append(word)
                if word == "note" { quoteNext = true }
            }
        }
        return parts.joined(separator: " ")
    }

    /// `"text"` with `"` and `\` escaped by a backslash.
    static func quote(_ text: String) -> String {
        var out = "\""
        for c in text {
            if c == "\"" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out + "\""
    }

    /// Diagnostics as `<command line>:1:COL: error: MESSAGE`, the source line and a caret.
    static func render(_ diagnostics: [Diagnostic], source: String) -> String {
        diagnostics.map { d in
            let caret = String(repeating: " ", count: max(0, d.column - 1)) + String(repeating: "^", count: d.length)
            return "\(d.path):\(d.line):\(d.column): \(d.severity.rawValue): \(d.message)\n    \(source)\n    \(caret)"
        }.joined(separator: "\n")
    }
}
