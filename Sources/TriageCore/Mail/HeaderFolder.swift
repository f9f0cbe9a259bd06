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
    ///
    /// Only the words that need it are encoded (non-ASCII, or text that would
    /// read as an encoded-word, or too long to fit a line), so a mostly-ASCII
    /// subject stays legible. Neighbouring such words are encoded together with
    /// the spaces between them, because a decoder drops white space between
    /// adjacent encoded-words.
    static func unstructured(name: String, value rawValue: String) -> String {
        let value = MailText.neutralizingControls(rawValue)
        if value.isEmpty { return name + ":" }
        let tokens = value.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        func needsEncoding(_ token: String) -> Bool {
            !MailText.isPrintableASCII(token) || token.contains("=?") || token.count > maxLineLength - 1
        }
        if !tokens.contains(where: needsEncoding) {
            return fold(name: name, tokens: tokens, limit: maxLineLength)
        }
        var out = ""
        var line = name + ":"
        var lineHasToken = false
        var i = 0
        while i < tokens.count {
            let token = tokens[i]
            if !needsEncoding(token) {
                if !token.isEmpty, lineHasToken, line.count + 1 + token.count > maxEncodedLineLength {
                    out += line + "\r\n"
                    line = " " + token
                } else {
                    line += " " + token
                }
                if !token.isEmpty { lineHasToken = true }
                i += 1
                continue
            }
            // A run: this token and the following ones up to the last that needs encoding
            // before the next plain, non-empty token.
            var end = i
            var j = i + 1
            while j < tokens.count, tokens[j].isEmpty || needsEncoding(tokens[j]) {
                if !tokens[j].isEmpty { end = j }
                j += 1
            }
            let run = tokens[i...end].joined(separator: " ")
            var room = maxEncodedLineLength - (line.count + 1)
            if room < 30, lineHasToken {
                out += line + "\r\n"
                line = ""
                room = maxEncodedLineLength - 1
            }
            let words = RFC2047.encode(run, firstMaxLength: min(room, RFC2047.maxWordLength))
            for (k, word) in words.enumerated() {
                if k > 0 {
                    out += line + "\r\n"
                    line = ""
                }
                line += " " + word
            }
            lineHasToken = true
            i = end + 1
        }
        return out + line
    }

    /// `Name: t1 t2 t3`, breaking lines between tokens so no line exceeds `limit`
    /// where possible. Empty tokens (from runs of spaces) are kept but never start a line.
    static func fold(name: String, tokens: [String], limit: Int) -> String {
        var out = ""
        var line = name + ":"
        var lineHasToken = false
        for token in tokens {
            // Before the first token too: "To:" CRLF SP token is valid folding white space.
            if !token.isEmpty, line.count + 1 + token.count > limit, lineHasToken || line.count > 1 {
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
