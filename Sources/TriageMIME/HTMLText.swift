import TriageCore

/// Readable text from HTML: markup, comments, scripts and styles removed,
/// character references decoded (every named reference of the HTML Standard,
/// `HTMLEntities`). Not a renderer: one line for a snippet (`plainText`), or the
/// lines of the block structure for reading a reply (`lines`). Both read the
/// markup with the one scanner here.
enum HTMLText {
    /// The text content of `html`; block-level tags become spaces, inline tags vanish.
    static func plainText(_ html: String) -> String {
        var out = String.UnicodeScalarView()
        scan(html) { event in
            switch event {
            case .text(let text): out.append(contentsOf: text)
            case .tag(let name, _, _, _): if blockTags.contains(name) { out.append(" ") }
            }
            return true
        }
        return String(out)
    }

    /// The lines of `html` as a mail client shows them: `p`, `div`, `br`, `li`,
    /// `tr`, headings, `hr` and the other block elements end a line; white space
    /// is collapsed (kept in `pre`); no-break spaces are spaces. Reading stops
    /// where a quoted message's structure begins (`QuoteMarkers.htmlClasses`,
    /// `htmlIDs`, `htmlStyles`, any `blockquote`), and `quoteFound` says so.
    static func lines(_ html: String) -> (lines: [String], quoteFound: Bool) {
        var lines: [String] = []
        var line = String.UnicodeScalarView()
        var space = false
        var pre = 0
        var quoteFound = false
        func flush(always: Bool = false) {
            if !line.isEmpty || always { lines.append(String(line)) }
            line = String.UnicodeScalarView()
            space = false
        }
        scan(html) { event in
            switch event {
            case .text(let text):
                for c in text {
                    if pre > 0, c == "\n" { flush(always: true); continue }
                    switch c.value {
                    case 0x200B...0x200D, 0x2060, 0xFEFF, 0xAD: continue
                    case 0x09, 0x0A, 0x0C, 0x0D, 0x20, 0xA0, 0x2000...0x200A, 0x202F, 0x3000:
                        if pre > 0 { line.append(" ") } else { space = !line.isEmpty }
                    default:
                        if space { line.append(" ") }
                        space = false
                        line.append(c)
                    }
                }
            case .tag(let name, let closing, let scalars, let range):
                if !closing, isQuoteStructure(name, attributes(scalars, range)) {
                    flush()
                    quoteFound = true
                    return false
                }
                if name == "pre" { pre = max(0, pre + (closing ? -1 : 1)) }
                if name == "br" {
                    flush(always: true)
                } else if lineTags.contains(name) {
                    flush()
                } else if name == "td" || name == "th", !closing {
                    space = !line.isEmpty
                }
            }
            return true
        }
        flush()
        return (lines, quoteFound)
    }

    /// What the scanner meets: text (references decoded), or a tag with its
    /// lower-case name, whether it is an end tag, and where it is (for its attributes).
    private enum Event {
        case text(String.UnicodeScalarView)
        case tag(String, closing: Bool, [Unicode.Scalar], Range<Int>)
    }

    /// Reads `html` in order, handing each piece to `visit` until it returns false.
    private static func scan(_ html: String, _ visit: (Event) -> Bool) {
        let scalars = Array(html.unicodeScalars)
        let n = scalars.count
        var i = 0
        var run = String.UnicodeScalarView()
        func text() -> Bool {
            defer { run = String.UnicodeScalarView() }
            return run.isEmpty || visit(.text(run))
        }
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
                    run.append("<")                      // a lone '<' is text
                } else {
                    guard text() else { return }
                    let closing = i + 1 < n && scalars[i + 1] == "/"
                    guard visit(.tag(name, closing: closing, scalars, i..<end)) else { return }
                }
                i = end
                continue
            }
            if c == "&" {
                let (decoded, next) = entity(scalars, from: i)
                run.append(contentsOf: decoded.unicodeScalars)
                i = next
                continue
            }
            run.append(c)
            i += 1
        }
        _ = text()
    }

    /// Whether an element with this start tag holds a quoted message.
    private static func isQuoteStructure(_ name: String, _ attributes: [String: String]) -> Bool {
        if name == "blockquote" { return true }
        if name == "hr", attributes["data-marker"] == "__divider__" { return true }   // Zimbra
        if let classes = attributes["class"], QuoteMarkers.htmlClasses.contains(where: classes.contains) { return true }
        if let id = attributes["id"], QuoteMarkers.htmlIDs.contains(where: id.contains) { return true }
        if let style = attributes["style"] {
            let compact = String(style.unicodeScalars.filter { !$0.properties.isWhitespace }.map(Character.init))
            if QuoteMarkers.htmlStyles.contains(where: compact.contains) { return true }
        }
        return false
    }

    /// The attributes of the tag at `range` (names and values lower-cased, values'
    /// references left as written: only class, id and style are looked at).
    private static func attributes(_ s: [Unicode.Scalar], _ range: Range<Int>) -> [String: String] {
        var out: [String: String] = [:]
        var i = range.lowerBound + 1
        let end = range.upperBound
        if i < end, s[i] == "/" { i += 1 }
        while i < end, s[i].properties.isAlphabetic || ("0"..."9").contains(s[i]) { i += 1 }   // the name
        while i < end {
            while i < end, s[i].properties.isWhitespace || s[i] == "/" || s[i] == ">" { i += 1 }
            var name = ""
            while i < end, !s[i].properties.isWhitespace, s[i] != "=", s[i] != ">", s[i] != "/" {
                name.unicodeScalars.append(s[i])
                i += 1
            }
            guard !name.isEmpty else { i += 1; continue }
            while i < end, s[i].properties.isWhitespace { i += 1 }
            var value = ""
            if i < end, s[i] == "=" {
                i += 1
                while i < end, s[i].properties.isWhitespace { i += 1 }
                if i < end, s[i] == "\"" || s[i] == "'" {
                    let quote = s[i]
                    i += 1
                    while i < end, s[i] != quote { value.unicodeScalars.append(s[i]); i += 1 }
                    i += 1
                } else {
                    while i < end, !s[i].properties.isWhitespace, s[i] != ">" { value.unicodeScalars.append(s[i]); i += 1 }
                }
            }
            out[name.lowercased()] = value.lowercased()
        }
        return out
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

    /// Tags that end a line of `lines` (`br` also ends an empty one).
    private static let lineTags: Set<String> = [
        "p", "div", "li", "ul", "ol", "tr", "table", "tbody", "thead", "tfoot", "h1", "h2", "h3", "h4", "h5", "h6",
        "blockquote", "hr", "section", "article", "header", "footer", "body", "html", "center", "dd", "dt", "dl", "pre",
        "address", "nav", "main", "aside", "form", "caption", "figure", "figcaption", "details", "summary",
    ]

    /// Tags that start a new line when rendered; inline tags (`b`, `a`, `span`) join text.
    private static let blockTags: Set<String> = [
        "p", "div", "br", "li", "ul", "ol", "tr", "td", "th", "table", "tbody", "thead", "h1", "h2", "h3",
        "h4", "h5", "h6", "blockquote", "hr", "section", "article", "header", "footer", "body", "html",
        "center", "dd", "dt", "dl", "pre", "address", "nav", "main", "aside", "form", "img",
    ]
}
