import TriageCore

/// Turns the shell words of `triage remind add` back into rule-action text, so
/// the command line and rules share one grammar (`ReminderSyntax`).
enum ReminderSource {
    /// The title is every word before the first clause keyword (`in`, `on`, `at`,
    /// `near`, `note`), so `remind add Call the dentist in 2 days` works as well as
    /// `remind add "Call the dentist" in 2 days`; the note is every word after
    /// `note` up to the next keyword. Each becomes one quoted string, its words
    /// joined by spaces and taken literally (quotes, braces, colons); the clause
    /// words are kept as they are. The first word of the title and of the note is
    /// always theirs, so a one-word title or note may itself be a keyword. The word
    /// after `near` that is not a coordinate is a place's name (`near Office`, or
    /// `near "Home office"` as one shell word) and is quoted too.
    static func text(_ words: [String]) -> String {
        var parts: [String] = []
        var phrase: [String] = []
        var inPhrase = true
        for word in words {
            if !inPhrase, parts.last?.lowercased() == "near", let first = word.first, !(first.isNumber || first == "-") {
                parts.append(quote(word))
                continue
            }
            let keyword = ReminderSyntax.clauses.contains(word.lowercased())
            if inPhrase && (phrase.isEmpty || !keyword) {
                phrase.append(word)
                continue
            }
            if !phrase.isEmpty { parts.append(quote(phrase.joined(separator: " "))) }
            phrase = []
            parts.append(word)
            inPhrase = keyword && word.lowercased() == "note"
        }
        if !phrase.isEmpty { parts.append(quote(phrase.joined(separator: " "))) }
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
