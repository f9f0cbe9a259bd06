/// Base64 (RFC 4648, standard alphabet, padded) for encoded-words.
///
/// TriageCore imports no Foundation, so this small codec lives here.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The Base64 text of `bytes`.
    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let input = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var i = 0
        while i < input.count {
            let b0 = input[i]
            let b1: UInt8 = i + 1 < input.count ? input[i + 1] : 0
            let b2: UInt8 = i + 2 < input.count ? input[i + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(i + 1 < input.count ? alphabet[Int((b1 & 0x0f) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(i + 2 < input.count ? alphabet[Int(b2 & 0x3f)] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes Base64 text, ignoring whitespace; nil when it is not valid Base64.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var values: [UInt8] = []
        var padding = 0
        for c in text.utf8 {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(c - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(c - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "+"): values.append(62)
            case UInt8(ascii: "/"): values.append(63)
            case UInt8(ascii: "="): padding += 1; continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"): continue
            default: return nil
            }
            if padding > 0 { return nil }  // data after padding
        }
        guard (values.count + padding) % 4 == 0 || padding == 0, padding <= 2, values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < values.count {
            let n = min(4, values.count - i)
            let v0 = values[i], v1 = n > 1 ? values[i + 1] : 0
            let v2 = n > 2 ? values[i + 2] : 0, v3 = n > 3 ? values[i + 3] : 0
            out.append(v0 << 2 | v1 >> 4)
            if n > 2 { out.append((v1 & 0x0f) << 4 | v2 >> 2) }
            if n > 3 { out.append((v2 & 0x03) << 6 | v3) }
            i += 4
        }
        return out
    }
}
