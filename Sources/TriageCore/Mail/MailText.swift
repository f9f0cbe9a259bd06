/// Small text helpers shared by the mail encoders.
enum MailText {
    /// Splits text into lines at LF, CRLF or a lone CR (the breaks themselves dropped).
    static func lines(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        var start = text.startIndex
        var i = text.startIndex
        // Iterate by unicode scalars: "\r\n" is a single Character in Swift.
        let scalars = text.unicodeScalars
        var si = scalars.startIndex
        while si != scalars.endIndex {
            let s = scalars[si]
            if s == "\r" || s == "\n" {
                i = si
                lines.append(text[start..<i])
                var next = scalars.index(after: si)
                if s == "\r", next != scalars.endIndex, scalars[next] == "\n" { next = scalars.index(after: next) }
                si = next
                start = si
                continue
            }
            si = scalars.index(after: si)
        }
        lines.append(text[start...])
        return lines
    }

    /// Replaces every control character (CR, LF, TAB, NUL, DEL, C1 controls,
    /// and the Unicode line and paragraph separators) by a space, so that a
    /// caller-supplied value can never start a new header line.
    static func neutralizingControls(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            switch s.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x85: out.append(" ")
            default: out.append(s)
            }
        }
        return String(out)
    }

    /// Whether every scalar is printable ASCII (space through tilde).
    static func isPrintableASCII(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy { $0 >= 32 && $0 < 127 }
    }
}
