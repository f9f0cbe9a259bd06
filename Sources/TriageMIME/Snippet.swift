import TriageCore

/// The short preview of a message body that rules, the store and the digest show.
enum Snippet {
    /// `text` with every run of whitespace or control characters collapsed to one
    /// space, invisible format characters dropped, trimmed, and cut to `ParserLimits.snippetLength` characters.
    static func make(_ text: String) -> String {
        var out = ""
        var count = 0
        var pendingSpace = false
        for character in text {
            if let ascii = character.asciiValue {
                // Fast path: ASCII controls and spaces collapse, everything else is kept.
                if ascii <= 0x20 || ascii == 0x7F {
                    pendingSpace = !out.isEmpty
                    continue
                }
            } else if character.isWhitespace
                        || character.unicodeScalars.contains(where: ControlCharacters.isControl) {
                // Any control in the cluster (a C1 CSI, an ESC with a combining mark
                // on it) makes it a space: the snippet is one line without controls.
                pendingSpace = !out.isEmpty
                continue
            } else if character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .format }) {
                // Invisible format characters (zero-width space, soft hyphen) are dropped.
                continue
            }
            if pendingSpace {
                out.append(" ")
                count += 1
                pendingSpace = false
                if count >= ParserLimits.snippetLength { break }
            }
            out.append(character)
            count += 1
            if count >= ParserLimits.snippetLength { break }
        }
        return out
    }
}
