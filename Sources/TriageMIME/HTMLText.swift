/// Readable text from HTML, for snippets: markup, comments, scripts and styles
/// removed, character references decoded (every named reference of the HTML
/// Standard, `HTMLEntities`). Not a renderer: good enough to show
/// the first words of a message.
enum HTMLText {
    /// The text content of `html`; block-level tags become spaces, inline tags vanish.
    static func plainText(_ html: String) -> String {
        var out = String.UnicodeScalarView()
        let scalars = Array(html.unicodeScalars)
        let n = scalars.count
        var i = 0
        while i < n {
            let c = scalars[i]
            if c == "<" {
                if startsWith(scalars, i, "<!--") {
                    i = indexAfter(scalars, from: i + 4, "-->") ?? n
                    continue
                }
                let (name, end) = tag(scalars, from: i)
                if name == "script" || name == "style" || name == "head" || name == "title" {
                    // Skip to the matching end tag (the content is not text).
                    i = indexAfter(scalars, from: end, "</" + name) ?? n
                    if i < n { i = (indexAfter(scalars, from: i, ">") ?? n) }
                    continue
                }
                if name.isEmpty, end == i + 1 {
                    out.append("<")                      // a lone '<' is text
                } else if blockTags.contains(name) {
                    out.append(" ")                      // block boundaries separate words
                }
                i = end
                continue
            }
            if c == "&" {
                let (decoded, next) = entity(scalars, from: i)
                out.append(contentsOf: decoded.unicodeScalars)
                i = next
                continue
            }
            out.append(c)
            i += 1
        }
        return String(out)
    }

    /// The lower-cased tag name (without `/`) and the index after the tag's `>`.
    private static func tag(_ s: [Unicode.Scalar], from start: Int) -> (String, Int) {
        var i = start + 1
        if i < s.count, s[i] == "/" { i += 1 }
        var name = ""
        while i < s.count, s[i].properties.isAlphabetic || ("0"..."9").contains(s[i]) {
            name.unicodeScalars.append(s[i])
            i += 1
        }
        // A '<' not followed by a tag name is text ("a < b").
        if name.isEmpty, start + 1 < s.count, s[start + 1] != "/", s[start + 1] != "!" {
            return ("", start + 1)
        }
        var quote: Unicode.Scalar?
        while i < s.count {
            let c = s[i]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == ">" {
                return (name.lowercased(), i + 1)
            }
            i += 1
        }
        return (name.lowercased(), s.count)
    }

    /// Decodes one character reference at `start` (`&amp;`, `&rarr;`, `&#233;`,
    /// `&#xE9;`, and the legacy names without `;` such as `&copy`), as the HTML
    /// Standard does in text; anything else leaves the `&` as text.
    private static func entity(_ s: [Unicode.Scalar], from start: Int) -> (String, Int) {
        var i = start + 1
        if i < s.count, s[i] == "#" {
            i += 1
            let hex = i < s.count && (s[i] == "x" || s[i] == "X")
            if hex { i += 1 }
            var digits = ""
            while i < s.count, digits.count < 10, s[i].isASCII,
                  hex ? s[i].properties.isASCIIHexDigit : ("0"..."9").contains(s[i]) {
                digits.unicodeScalars.append(s[i])
                i += 1
            }
            guard !digits.isEmpty else { return ("&", start + 1) }
            if i < s.count, s[i] == ";" { i += 1 }
            return (numeric(UInt32(digits, radix: hex ? 16 : 10)), i)
        }
        var name = ""
        while i < s.count, name.unicodeScalars.count < HTMLEntities.longestName, s[i].isASCII,
              s[i].properties.isAlphabetic || ("0"..."9").contains(s[i]) {
            name.unicodeScalars.append(s[i])
            i += 1
        }
        if i < s.count, s[i] == ";", let text = HTMLEntities.named[name] { return (text, i + 1) }
        // Without `;`: the longest legacy name the text starts with (`&copy2026`).
        var prefix = name
        while !prefix.isEmpty {
            if HTMLEntities.legacy.contains(prefix), let text = HTMLEntities.named[prefix] {
                return (text, start + 1 + prefix.unicodeScalars.count)
            }
            prefix.unicodeScalars.removeLast()
        }
        return ("&", start + 1)
    }

    /// A numeric reference's text: 0x80–0x9F as windows-1252 and invalid values as
    /// U+FFFD, as the HTML Standard says.
    private static func numeric(_ value: UInt32?) -> String {
        guard let value, value != 0, value <= 0x10FFFF else { return "\u{FFFD}" }
        if (0x80...0x9F).contains(value) { return CharsetDecoder.decodeWindows1252([UInt8(value)]) }
        return Unicode.Scalar(value).map { String($0) } ?? "\u{FFFD}"
    }

    private static func startsWith(_ s: [Unicode.Scalar], _ at: Int, _ word: String) -> Bool {
        var i = at
        for w in word.unicodeScalars {
            guard i < s.count, lower(s[i]) == lower(w) else { return false }
            i += 1
        }
        return true
    }

    private static func lower(_ c: Unicode.Scalar) -> UInt32 {
        ("A"..."Z").contains(c) ? c.value + 32 : c.value
    }

    private static func indexAfter(_ s: [Unicode.Scalar], from start: Int, _ word: String) -> Int? {
        var i = start
        let count = word.unicodeScalars.count
        while i + count <= s.count {
            if startsWith(s, i, word) { return i + count }
            i += 1
        }
        return nil
    }

    /// Tags that start a new line when rendered; inline tags (`b`, `a`, `span`) join text.
    private static let blockTags: Set<String> = [
        "p", "div", "br", "li", "ul", "ol", "tr", "td", "th", "table", "tbody", "thead", "h1", "h2", "h3",
        "h4", "h5", "h6", "blockquote", "hr", "section", "article", "header", "footer", "body", "html",
        "center", "dd", "dt", "dl", "pre", "address", "nav", "main", "aside", "form", "img",
    ]
}
