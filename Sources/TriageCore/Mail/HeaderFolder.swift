/// Renders header fields as folded lines of at most 78 characters (RFC 5322
/// section 2.2.3), encoding non-ASCII text as RFC 2047 encoded-words.
///
/// Folding only ever replaces an existing space by CRLF + space, so unfolding
/// restores the value exactly. Lines holding encoded-words are kept within 76
/// characters, as RFC 2047 asks.
enum HeaderFolder {
    /// The longest line the folder produces.
    static let maxLineLength = 78
    /// The longest line when it holds encoded-words (RFC 2047 section 2).
    static let maxEncodedLineLength = 76

    /// `Name: value` for unstructured text (Subject and extra headers).
    static func unstructured(name: String, value rawValue: String) -> String {
        let value = MailText.neutralizingControls(rawValue)
        if value.isEmpty { return name + ":" }
        let tokens = value.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let needsEncoding = !MailText.isPrintableASCII(value)
            || tokens.contains { $0.contains("=?") || $0.count > maxLineLength - 1 }
        if !needsEncoding {
            return fold(name: name, tokens: tokens, limit: maxLineLength)
        }
        return encodedWords(name: name, value: value)
    }

    /// `Name: =?UTF-8?..?=` with one encoded-word per line.
    static func encodedWords(name: String, value: String) -> String {
        let firstBudget = maxEncodedLineLength - (name.count + 2)
        if firstBudget < 30 {
            // A long field name leaves too little room: start the words on the next line.
            let words = RFC2047.encode(value)
            return name + ":" + words.map { "\r\n " + $0 }.joined()
        }
        let words = RFC2047.encode(value, firstMaxLength: firstBudget)
        return name + ": " + words.joined(separator: "\r\n ")
    }

    /// `Name: t1 t2 t3`, breaking lines between tokens so no line exceeds `limit`
    /// where possible. Empty tokens (from runs of spaces) are kept but never start a line.
    static func fold(name: String, tokens: [String], limit: Int) -> String {
        var out = ""
        var line = name + ":"
        var lineHasToken = false
        for token in tokens {
            if !token.isEmpty, lineHasToken, line.count + 1 + token.count > limit {
                out += line + "\r\n"
                line = " " + token
            } else {
                line += " " + token
            }
            if !token.isEmpty { lineHasToken = true }
        }
        return out + line
    }
}
