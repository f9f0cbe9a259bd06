import Foundation

/// RFC 2047 encoded-words (`=?UTF-8?Q?...?=`) for non-ASCII header text that
/// triage writes (the digest). Reading them is TriageMIME's (`HeaderText`), the
/// one decoder for every charset and every path.
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
}
