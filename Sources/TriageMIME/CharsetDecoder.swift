import CEtPan

/// Turns bytes in some charset into a Swift string, never failing.
///
/// Labelled text goes through libetpan's `charconv` (iconv). Unlabelled or
/// mislabelled text is tried as UTF-8 and otherwise read as windows-1252, the
/// usual real-world meaning of stray 8-bit bytes in mail.
enum CharsetDecoder {
    /// Decodes `bytes` labelled with `charset` (nil: unlabelled).
    static func decode(_ bytes: [UInt8], charset: String?) -> String {
        guard let label = charset?.trimmingASCIIWhitespace().lowercased(), !label.isEmpty else {
            return decodeUnlabelled(bytes)
        }
        switch label {
        case "us-ascii", "ascii", "utf-8", "utf8", "unknown-8bit", "x-unknown", "default":
            // Mislabelled 8-bit text is common; fall back rather than print '?'.
            return decodeUnlabelled(bytes)
        case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "iso_8859-1":
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        case "windows-1252", "cp1252", "x-cp1252":
            return decodeWindows1252(bytes)
        default:
            return convert(bytes, from: label) ?? decodeUnlabelled(bytes)
        }
    }

    /// UTF-8 when the bytes are valid UTF-8, else windows-1252.
    static func decodeUnlabelled(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return decodeWindows1252(bytes)
    }

    /// Whether `bytes` are valid UTF-8 (ASCII included).
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
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

    /// Converts with iconv through libetpan; nil when the charset is unknown.
    private static func convert(_ bytes: [UInt8], from charset: String) -> String? {
        if bytes.isEmpty { return "" }
        var result: UnsafeMutablePointer<CChar>?
        var resultLength = 0
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                charconv_buffer("UTF-8", charset, chars.baseAddress, chars.count, &result, &resultLength)
            }
        }
        guard status == Int32(MAIL_CHARCONV_NO_ERROR), let result else { return nil }
        defer { charconv_buffer_free(result) }
        let converted = result.withMemoryRebound(to: UInt8.self, capacity: resultLength) {
            Array(UnsafeBufferPointer(start: $0, count: resultLength))
        }
        // iconv output should be UTF-8 already; decoding with repair keeps us safe regardless.
        return String(decoding: converted, as: UTF8.self)
    }

    private static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}
