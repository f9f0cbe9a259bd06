/// Quoted-printable body encoding (RFC 2045 section 6.7) for text parts.
///
/// Output lines end in CRLF and are at most 76 characters, soft breaks included;
/// tabs and trailing spaces are always encoded.
/// A `.` or `From ` at the start of a line is encoded too, so neither SMTP
/// dot-stuffing nor an mbox writer can alter the message.
public enum QuotedPrintable {
    /// The longest encoded line, soft-break `=` included (RFC 2045 allows 76).
    public static let maxLineLength = 76

    private static let hex = Array("0123456789ABCDEF".utf8)

    /// Encodes `text`, whose line breaks (LF, CRLF or CR) become CRLF hard breaks.
    public static func encode(_ text: String) -> String {
        var out: [UInt8] = []
        let lines = MailText.lines(text)
        for (index, line) in lines.enumerated() {
            encodeLine(Array(line.utf8), into: &out)
            if index < lines.count - 1 { out += [13, 10] }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func encodeLine(_ bytes: [UInt8], into out: inout [UInt8]) {
        var column = 0
        let from = Array("From ".utf8)
        for (i, byte) in bytes.enumerated() {
            let isLast = i == bytes.count - 1
            var token: [UInt8]
            switch byte {
            case 33...60, 62...126: token = [byte]
            case 32: token = isLast ? escaped(byte) : [byte]
            default: token = escaped(byte)
            }
            // Room for the token, plus a soft-break "=" unless this is the line's end.
            let limit = isLast ? maxLineLength : maxLineLength - 1
            if column + token.count > limit {
                out += [UInt8(ascii: "="), 13, 10]
                column = 0
            }
            // "From " at a line start is a classic mbox hazard; encode its F.
            if column == 0, byte == UInt8(ascii: ".") || bytes[i...].starts(with: from) {
                token = escaped(byte)
            }
            out += token
            column += token.count
        }
    }

    private static func escaped(_ byte: UInt8) -> [UInt8] {
        [UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 0x0f)]]
    }

    /// Decodes quoted-printable text into bytes (soft breaks removed, hard breaks kept as CRLF).
    public static func decode(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var i = 0
        func hexValue(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            default: return nil
            }
        }
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "=") {
                if i + 2 < bytes.count, bytes[i + 1] == 13, bytes[i + 2] == 10 { i += 3; continue }
                if i + 1 < bytes.count, bytes[i + 1] == 10 { i += 2; continue }
                if i + 2 < bytes.count, let h = hexValue(bytes[i + 1]), let l = hexValue(bytes[i + 2]) {
                    out.append(h << 4 | l); i += 3; continue
                }
            }
            out.append(c)
            i += 1
        }
        return out
    }
}
