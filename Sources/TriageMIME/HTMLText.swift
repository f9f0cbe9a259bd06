/// Readable text from HTML, for snippets: markup, comments, scripts and styles
/// removed, character references decoded. Not a renderer: good enough to show
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

    /// Decodes one character reference at `start` (`&amp;`, `&#233;`, `&#xE9;`).
    private static func entity(_ s: [Unicode.Scalar], from start: Int) -> (String, Int) {
        var i = start + 1
        var body = ""
        while i < s.count, i - start <= 32, s[i] != ";", s[i] != "&", s[i] != "<",
              !s[i].properties.isWhitespace {
            body.unicodeScalars.append(s[i])
            i += 1
        }
        let end = (i < s.count && s[i] == ";") ? i + 1 : i
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            let value = digits.first == "x" || digits.first == "X"
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            if let value, let scalar = Unicode.Scalar(value), value != 0 { return (String(scalar), end) }
            return ("\u{FFFD}", end)
        }
        if let named = named[body] { return (named, end) }
        return ("&", start + 1)
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

    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
        "ndash": "\u{2013}", "mdash": "\u{2014}", "hellip": "\u{2026}", "rsquo": "\u{2019}",
        "lsquo": "\u{2018}", "rdquo": "\u{201D}", "ldquo": "\u{201C}", "bull": "\u{2022}",
        "middot": "\u{00B7}", "copy": "\u{00A9}", "reg": "\u{00AE}", "trade": "\u{2122}",
        "euro": "\u{20AC}", "pound": "\u{00A3}", "eacute": "\u{00E9}", "egrave": "\u{00E8}",
        "agrave": "\u{00E0}", "auml": "\u{00E4}", "ouml": "\u{00F6}", "uuml": "\u{00FC}",
        "Auml": "\u{00C4}", "Ouml": "\u{00D6}", "Uuml": "\u{00DC}", "szlig": "\u{00DF}",
        "ccedil": "\u{00E7}", "zwnj": "", "zwj": "", "shy": "",
    ]
}
