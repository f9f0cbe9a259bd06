/// The short preview of a message body that rules, the store and the digest show.
enum Snippet {
    /// `text` with every run of whitespace or control characters collapsed to one
    /// space, invisible format characters dropped, trimmed, and cut to `ParserLimits.snippetLength` characters.
    static func make(_ text: String) -> String {
        var out = ""
        var count = 0
        var pendingSpace = false
        for character in text {
            let categories = character.unicodeScalars.map { $0.properties.generalCategory }
            if character.isWhitespace || categories.allSatisfy({ $0 == .control }) {
                pendingSpace = !out.isEmpty
                continue
            }
            // Invisible format characters (zero-width space, soft hyphen) are dropped.
            if categories.allSatisfy({ $0 == .format }) { continue }
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
