import Foundation

/// RFC 2047 encoded-words (`=?UTF-8?Q?...?=`) for non-ASCII header text.
///
/// The encoder splits after a space where it can, else on character boundaries
/// (grapheme clusters, or Unicode scalars when one cluster alone is too long),
/// so every encoded-word holds complete UTF-8 and decodes on its own, and keeps
/// each word within 75 characters as RFC 2047 section 2 demands.
public enum RFC2047 {
    /// B (Base64) or Q (quoted-printable-like) encoding.
    public enum Encoding: String, Sendable {
        /// Base64: compact for text that is mostly non-ASCII (CJK, emoji).
        case b = "B"
        /// Q: readable for text that is mostly ASCII (Latin).
        case q = "Q"
    }

    /// The longest encoded-word RFC 2047 allows.
    public static let maxWordLength = 75

    private static let prefix = "=?UTF-8?"
    private static let overhead = 12  // "=?UTF-8?" + "B?" + "?="
    private static let hex = Array("0123456789ABCDEF".utf8)

    /// The encoding that gives the shorter result for `text` (Q on a tie).
    public static func preferredEncoding(for text: String) -> Encoding {
        let bytes = Array(text.utf8)
        let q = bytes.reduce(0) { $0 + qLength($1) }
        let b = (bytes.count + 2) / 3 * 4
        return q <= b ? .q : .b
    }

    /// Encodes `text` as a list of encoded-words, to be joined by folding white
    /// space (`CRLF SP`). The first word is at most `firstMaxLength` characters,
    /// the others at most `maxLength` (both capped at 75).
    ///
    /// The Q encoding used is the restricted one of RFC 2047 section 5(3), valid
    /// in a `phrase` (display name) as well as in unstructured text.
    public static func encode(_ text: String, encoding: Encoding? = nil,
                              firstMaxLength: Int = maxWordLength, maxLength: Int = maxWordLength) -> [String] {
        let encoding = encoding ?? preferredEncoding(for: text)
        var words: [String] = []
        var current: [UInt8] = []
        let laterBudget = max(overhead + 12, min(maxLength, maxWordLength)) - overhead
        var budget = min(laterBudget, max(overhead + 12, min(firstMaxLength, maxWordLength)) - overhead)

        func length(_ bytes: [UInt8]) -> Int {
            switch encoding {
            case .b: return (bytes.count + 2) / 3 * 4
            case .q: return bytes.reduce(0) { $0 + qLength($1) }
            }
        }
        func flush() {
            guard !current.isEmpty else { return }
            words.append(word(current, encoding))
            current = []
            budget = laterBudget
        }
        func add(_ piece: [UInt8]) -> Bool {
            if length(current + piece) <= budget { current += piece; return true }
            // Break after the last space when there is one, so words stay whole:
            // some decoders (Python's address parser) wrongly keep the white
            // space between encoded-words, and then it falls between words.
            if let space = current.lastIndex(of: 32), space + 1 < current.count {
                let carry = Array(current[(space + 1)...])
                current.removeSubrange((space + 1)...)
                flush()
                if length(carry + piece) <= budget { current = carry + piece; return true }
                current = carry
            }
            flush()
            if length(piece) <= budget { current = piece; return true }
            return false
        }
        for character in text {
            if add(Array(String(character).utf8)) { continue }
            // One grapheme cluster longer than a word: split it between scalars.
            for scalar in character.unicodeScalars {
                _ = add(Array(String(scalar).utf8))  // a scalar is ≤ 4 bytes, always fits
            }
        }
        flush()
        if words.isEmpty { words.append(word([], encoding)) }
        return words
    }

    private static func qLength(_ byte: UInt8) -> Int {
        isQLiteral(byte) || byte == 32 ? 1 : 3
    }

    private static func isQLiteral(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "!"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    private static func word(_ bytes: [UInt8], _ encoding: Encoding) -> String {
        var payload = ""
        switch encoding {
        case .b:
            payload = Data(bytes).base64EncodedString()  // one line: a word is never folded inside
        case .q:
            var out: [UInt8] = []
            for byte in bytes {
                if isQLiteral(byte) { out.append(byte) } else if byte == 32 { out.append(UInt8(ascii: "_")) } else {
                    out += [UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 0x0f)]]
                }
            }
            payload = String(decoding: out, as: UTF8.self)
        }
        return prefix + encoding.rawValue + "?" + payload + "?="
    }

    /// Decodes the encoded-words in a header value (UTF-8, US-ASCII and
    /// ISO-8859-1 charsets), dropping the white space between adjacent words as
    /// RFC 2047 section 6.2 requires. Anything else is kept as it is, except
    /// control characters, which become spaces (`ControlCharacters`): the result
    /// is one line that is safe to show.
    public static func decode(_ value: String) -> String {
        ControlCharacters.replaced(in: decodeKeepingControls(value))
    }

    private static func decodeKeepingControls(_ value: String) -> String {
        let chars = Array(value.unicodeScalars)
        var out = String.UnicodeScalarView()
        var pendingSpace = String.UnicodeScalarView()
        var previousWasWord = false
        var i = 0
        while i < chars.count {
            if let (decoded, end) = decodeWord(chars, at: i) {
                if !previousWasWord { out += pendingSpace }
                pendingSpace = String.UnicodeScalarView()
                out += decoded.unicodeScalars
                previousWasWord = true
                i = end
                continue
            }
            let c = chars[i]
            if c == " " || c == "\t" || c == "\r" || c == "\n" {
                if c == " " || c == "\t" { pendingSpace.append(c) }
                i += 1
                continue
            }
            out += pendingSpace
            pendingSpace = String.UnicodeScalarView()
            out.append(c)
            previousWasWord = false
            i += 1
        }
        out += pendingSpace
        return String(out)
    }

    /// Decodes one `=?charset?enc?text?=` at `start`, returning the text and the index after it.
    private static func decodeWord(_ s: [Unicode.Scalar], at start: Int) -> (String, Int)? {
        guard start + 1 < s.count, s[start] == "=", s[start + 1] == "?" else { return nil }
        var parts: [String] = []
        var i = start + 2
        var field = ""
        while i < s.count, parts.count < 2 {
            let c = s[i]
            if c == "?" { parts.append(field); field = "" } else if c == " " || c == "\t" { return nil } else {
                field.unicodeScalars.append(c)
            }
            i += 1
        }
        guard parts.count == 2 else { return nil }
        var text = [UInt8]()
        while i + 1 < s.count, !(s[i] == "?" && s[i + 1] == "=") {
            guard s[i].isASCII, s[i] != " " else { return nil }
            text.append(UInt8(s[i].value))
            i += 1
        }
        guard i + 1 < s.count else { return nil }
        let charset = parts[0].split(separator: "*").first.map { $0.lowercased() } ?? ""
        var bytes: [UInt8]
        switch parts[1].uppercased() {
        case "B":
            guard let decoded = base64(text) else { return nil }
            bytes = decoded
        case "Q":
            bytes = []
            var j = 0
            while j < text.count {
                let c = text[j]
                if c == UInt8(ascii: "_") { bytes.append(32); j += 1; continue }
                if c == UInt8(ascii: "="), j + 2 < text.count,
                   let v = UInt8(String(decoding: text[j + 1...j + 2], as: UTF8.self), radix: 16) {
                    bytes.append(v); j += 3; continue
                }
                bytes.append(c); j += 1
            }
        default:
            return nil
        }
        let decoded: String
        switch charset {
        case "utf-8", "utf8", "us-ascii":
            decoded = String(decoding: bytes, as: UTF8.self)
        case "iso-8859-1", "latin1":
            decoded = String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        default:
            return nil
        }
        return (decoded, i + 2)
    }

    /// The bytes of a B word's text. Some senders leave the padding out, so it is
    /// restored, and white space is skipped; any other character outside the
    /// alphabet makes the word undecodable, and it is then kept as it is.
    private static func base64(_ text: [UInt8]) -> [UInt8]? {
        var chars = text.filter { $0 != UInt8(ascii: "\t") && $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: " ") }
        if !chars.contains(UInt8(ascii: "=")) {
            chars += Array(repeating: UInt8(ascii: "="), count: (4 - chars.count % 4) % 4)
        }
        return Data(base64Encoded: Data(chars)).map { Array($0) }
    }
}
