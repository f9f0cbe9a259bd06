/// Labels as IMAP keywords, reversibly.
///
/// An IMAP keyword must be an atom: printable ASCII without space and without
/// `( ) { % * " \ ]`. libetpan sends keywords as they are, so `no push` would become
/// two keywords, `no` and `push`. Labels are therefore encoded:
///
/// - A label made only of *plain* characters (printable ASCII other than space,
///   the atom-specials above, and `+`) is its own keyword: `receipts` ↔ `receipts`.
/// - Any other label is written byte by byte from its UTF-8: plain bytes as
///   themselves, every other byte as `+` and two upper-case hex digits:
///   `no push` ↔ `no+20push`, `a+b` ↔ `a+2Bb`, `café` ↔ `caf+C3+A9`.
///
/// Reading back, a keyword is decoded only when it is exactly the encoding of some
/// label (well-formed escapes, valid UTF-8, canonical); any other keyword, such as
/// `$Forwarded` or a foreign `C++`, is taken as it is. So `decode(encode(l)) == l`
/// for every non-empty label, and `label:` in queries compares decoded labels.
public enum LabelCodec {
    /// The escape character.
    public static let escape: UInt8 = UInt8(ascii: "+")

    /// Whether a byte may stand for itself in an encoded keyword.
    public static func isPlain(_ byte: UInt8) -> Bool {
        guard byte > 0x20, byte < 0x7F else { return false }
        switch byte {
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "{"), UInt8(ascii: "%"), UInt8(ascii: "*"),
             UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "]"), escape:
            return false
        default:
            return true
        }
    }

    /// The keyword for a label, or nil for the empty label (no keyword can be empty).
    public static func keyword(for label: String) -> String? {
        guard !label.isEmpty else { return nil }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(label.utf8.count)
        for byte in label.utf8 {
            if isPlain(byte) {
                out.append(byte)
            } else {
                out += [escape, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The label a keyword stands for (see the type's documentation).
    public static func label(for keyword: String) -> String {
        let bytes = Array(keyword.utf8)
        guard bytes.contains(escape) else { return keyword }
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == escape {
                guard i + 2 < bytes.count, let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) else {
                    return keyword
                }
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        guard let label = String(validating: out, as: UTF8.self), Self.keyword(for: label) == keyword else {
            return keyword
        }
        return label
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil // lower case is not canonical
        }
    }
}
