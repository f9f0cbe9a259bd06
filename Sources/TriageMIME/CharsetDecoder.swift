import CEtPan
#if canImport(Glibc)
import Glibc
#endif

/// Turns bytes in some charset into a Swift string, never failing: the one
/// charset decoder for bodies, header encoded-words and parameters, on every
/// path (a saved message, a Maildir file, an IMAP fetch or BODYSTRUCTURE).
///
/// Labels are read as mail clients read them, following the WHATWG Encoding
/// Standard: `ISO-8859-1` and `US-ASCII` mean windows-1252 (so 0x96 is "–",
/// not the control U+0096), and `UTF-8` text with a few bad bytes stays UTF-8
/// with only those bytes replaced by U+FFFD. Other labels go through iconv.
/// Unlabelled text is tried as UTF-8 and otherwise read as windows-1252, the
/// usual real-world meaning of stray 8-bit bytes in mail.
enum CharsetDecoder {
    /// How a label is decoded.
    enum Kind {
        /// UTF-8, bad bytes replaced by U+FFFD.
        case utf8
        /// windows-1252 (WHATWG: also `ISO-8859-1`, `US-ASCII` and their aliases).
        case windows1252
        /// No real label: UTF-8 when valid, else windows-1252.
        case unlabelled
        /// Anything else: iconv through libetpan.
        case other
    }

    /// The kind of decoding a (trimmed, lower-cased) label asks for.
    static func kind(of label: String) -> Kind {
        switch label {
        case "", "unknown-8bit", "x-unknown", "default", "unknown":
            return .unlabelled
        case "utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8":
            return .utf8
        // The WHATWG Encoding Standard's labels of windows-1252.
        case "windows-1252", "cp1252", "x-cp1252", "ansi_x3.4-1968", "ascii", "cp819", "csisolatin1", "ibm819",
             "iso-8859-1", "iso-ir-100", "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1",
             "latin1", "latin-1", "us-ascii":
            return .windows1252
        default:
            return .other
        }
    }

    /// Decodes `bytes` labelled with `charset` (nil: unlabelled).
    static func decode(_ bytes: [UInt8], charset: String?) -> String {
        let label = charset?.trimmingASCIIWhitespace().lowercased() ?? ""
        switch kind(of: label) {
        case .unlabelled: return decodeUnlabelled(bytes)
        case .utf8: return String(decoding: bytes, as: UTF8.self)
        case .windows1252: return decodeWindows1252(bytes)
        case .other: return convert(bytes, from: label) ?? decodeUnlabelled(bytes)
        }
    }

    /// UTF-8 when the bytes are valid UTF-8, else windows-1252.
    static func decodeUnlabelled(_ bytes: [UInt8]) -> String {
        // ASCII (most header values) is valid UTF-8: skip the generic validation.
        if isASCII(bytes) { return String(decoding: bytes, as: UTF8.self) }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return decodeWindows1252(bytes)
    }

    /// Whether `bytes` are valid UTF-8 (ASCII included).
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        isASCII(bytes) || String(validating: bytes, as: UTF8.self) != nil
    }

    /// Whether every byte is below 0x80.
    private static func isASCII(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var any: UInt8 = 0
            for byte in buffer { any |= byte }
            return any < 0x80
        }
    }

    /// windows-1252, with its five undefined bytes kept as the C1 code points
    /// (as the WHATWG encoding standard does), so every byte maps somewhere.
    static func decodeWindows1252(_ bytes: [UInt8]) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(bytes.count)
        for byte in bytes {
            if byte >= 0x80 && byte < 0xA0 {
                scalars.append(Unicode.Scalar(windows1252High[Int(byte - 0x80)])!)
            } else {
                scalars.append(Unicode.Scalar(byte))
            }
        }
        return String(scalars)
    }

    /// Makes libetpan's own conversions (RFC 2047 encoded-words in headers) use
    /// these rules for the labels above; other labels still go to iconv. Safe to
    /// call any number of times, from any thread.
    static func installInLibetpan() {
        _ = installed
    }

    private static let installed: Bool = {
        triage_set_extended_charconv { tocode, fromcode, string, length, result, resultLength in
            guard let tocode, let fromcode, let result, let resultLength else {
                return Int32(MAIL_CHARCONV_ERROR_UNKNOWN_CHARSET)
            }
            let target = String(cString: tocode).lowercased()
            let label = String(cString: fromcode).trimmingASCIIWhitespace().lowercased()
            guard target == "utf-8" || target == "utf8" else { return Int32(MAIL_CHARCONV_ERROR_UNKNOWN_CHARSET) }
            let kind = CharsetDecoder.kind(of: label)
            guard kind != .other else { return Int32(MAIL_CHARCONV_ERROR_UNKNOWN_CHARSET) }
            let bytes = string.map { pointer in
                pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
                    Array(UnsafeBufferPointer(start: $0, count: length))
                }
            } ?? []
            // libetpan decodes whole Content-Type and Content-Disposition values as
            // phrases whose raw text is "us-ascii": raw 8-bit there is undeclared
            // header text (UTF-8 when valid, else windows-1252), as in `HeaderText`.
            let text = Array((label == "us-ascii" ? CharsetDecoder.decodeUnlabelled(bytes)
                              : CharsetDecoder.decode(bytes, charset: label)).utf8)
            // libetpan gives room for 6 bytes per input byte; ours need at most 3.
            guard text.count <= resultLength.pointee else { return Int32(MAIL_CHARCONV_ERROR_MEMORY) }
            text.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    if let base = chars.baseAddress { result.update(from: base, count: chars.count) }
                }
            }
            resultLength.pointee = text.count
            return Int32(MAIL_CHARCONV_NO_ERROR)
        }
        return true
    }()

    /// Converts with iconv through libetpan; nil when the charset is unknown.
    /// `charconv`, not `charconv_buffer`: with a conversion hook installed,
    /// libetpan 1.9's `charconv_buffer` gives up on a charset the hook declines
    /// instead of trying iconv.
    private static func convert(_ bytes: [UInt8], from charset: String) -> String? {
        if bytes.isEmpty { return "" }
        installInLibetpan()
        var result: UnsafeMutablePointer<CChar>?
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                charconv("UTF-8", charset, chars.baseAddress, chars.count, &result)
            }
        }
        guard status == Int32(MAIL_CHARCONV_NO_ERROR), let result else { return nil }
        defer { free(result) }
        // iconv output should be UTF-8 already; decoding with repair keeps us safe regardless.
        return String(decoding: CString.bytes(result), as: UTF8.self)
    }

    private static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}
