/// Escapes text for HTML element content and quoted attribute values.
///
/// Everything that came from mail (subjects, names, snippets) goes through this
/// before it reaches the digest's HTML part, so `<script>` stays text.
public enum HTMLEscaper {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
