/// IMAP's modified UTF-7 (RFC 3501 §5.1.3) for mailbox names and Gmail labels:
/// printable ASCII stands for itself, `&` is `&-`, anything else is UTF-16
/// in base64 (with `,` for `/`) between `&` and `-`. `Entwürfe` ↔ `Entw&APw-rfe`.
public enum ModifiedUTF7 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+,".utf8)

    /// Encodes a name for the wire.
    public static func encode(_ text: String) -> String {
        var out: [UInt8] = []
        var pending: [UInt16] = []
        func flush() {
            guard !pending.isEmpty else { return }
            var bytes: [UInt8] = []
            for unit in pending { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
            out.append(UInt8(ascii: "&"))
            var i = 0
            while i < bytes.count {
                let b0 = bytes[i], b1 = i + 1 < bytes.count ? bytes[i + 1] : 0, b2 = i + 2 < bytes.count ? bytes[i + 2] : 0
                let n = bytes.count - i
                out.append(alphabet[Int(b0 >> 2)])
                out.append(alphabet[Int((b0 & 0x3) << 4 | b1 >> 4)])
                if n > 1 { out.append(alphabet[Int((b1 & 0xF) << 2 | b2 >> 6)]) }
                if n > 2 { out.append(alphabet[Int(b2 & 0x3F)]) }
                i += 3
            }
            out.append(UInt8(ascii: "-"))
            pending.removeAll()
        }
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x20, scalar.value <= 0x7E {
                flush()
                out.append(UInt8(scalar.value))
                if scalar == "&" { out.append(UInt8(ascii: "-")) }
            } else {
                pending += Array(String(scalar).utf16)
            }
        }
        flush()
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes a name from the wire; text that is not valid modified UTF-7 is returned unchanged.
    public static func decode(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "&")) else { return text }
        var units: [UInt16] = []
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            guard byte >= 0x20, byte <= 0x7E else { return text }
            guard byte == UInt8(ascii: "&") else {
                units.append(UInt16(byte))
                i += 1
                continue
            }
            guard let end = bytes[(i + 1)...].firstIndex(of: UInt8(ascii: "-")) else { return text }
            if end == i + 1 {
                units.append(UInt16(UInt8(ascii: "&")))
            } else {
                var bits: UInt32 = 0
                var count = 0
                var decoded: [UInt8] = []
                for c in bytes[(i + 1)..<end] {
                    guard let value = alphabet.firstIndex(of: c) else { return text }
                    bits = bits << 6 | UInt32(value)
                    count += 6
                    if count >= 8 {
                        count -= 8
                        decoded.append(UInt8((bits >> UInt32(count)) & 0xFF))
                    }
                }
                guard decoded.count % 2 == 0 else { return text }
                for j in stride(from: 0, to: decoded.count, by: 2) {
                    units.append(UInt16(decoded[j]) << 8 | UInt16(decoded[j + 1]))
                }
            }
            i = end + 1
        }
        return String(decoding: units, as: UTF16.self)
    }
}
