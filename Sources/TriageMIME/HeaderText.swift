import CEtPan
import TriageCore
#if canImport(Glibc)
import Glibc
#endif

/// Decodes header text: RFC 2047 encoded words in any charset to UTF-8, folding
/// removed, raw 8-bit bytes read as UTF-8 or else windows-1252.
///
/// Every header value triage keeps becomes a String here, and leaves as one line
/// without control characters (`ControlCharacters`): a raw ESC, an encoded `=1B`,
/// an encoded CR LF or a C1 CSI becomes a space, so nothing a sender writes
/// reaches a terminal, a store record or a digest as control.
enum HeaderText {
    /// Decodes an unstructured value (Subject) or a display name.
    ///
    /// Line breaks from folding are removed and the whitespace after them kept, as
    /// RFC 5322 unfolding (and Python's `email`) does.
    static func decode(_ raw: [UInt8]) -> String {
        ControlCharacters.replaced(in: decodeKeepingControls(raw)).trimmingASCIIWhitespace()
    }

    /// A structured value that has no encoded words (an address, a message id):
    /// UTF-8 or else windows-1252, controls replaced by spaces.
    static func plain(_ raw: [UInt8]) -> String {
        ControlCharacters.replaced(in: CharsetDecoder.decodeUnlabelled(raw))
    }

    private static func decodeKeepingControls(_ raw: [UInt8]) -> String {
        var bytes = raw.contains(where: { $0 == 0x0D || $0 == 0x0A }) ? raw.filter { $0 != 0x0D && $0 != 0x0A } : raw
        bytes = trimmed(bytes)
        guard containsEncodedWordMarker(bytes) else { return CharsetDecoder.decodeUnlabelled(bytes) }
        let decoded = decodeEncodedWords(bytes) ?? CharsetDecoder.decodeUnlabelled(bytes)
        return decoded.trimmingASCIIWhitespace()
    }

    /// `bytes` without leading and trailing spaces and tabs.
    private static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return [] }
        let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })!
        if first == 0, last == bytes.count - 1 { return bytes }
        return Array(bytes[first...last])
    }

    /// Whether `=?` occurs, i.e. there may be an encoded word to decode.
    static func containsEncodedWordMarker(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2 else { return false }
        for i in 0..<(bytes.count - 1) where bytes[i] == 0x3D && bytes[i + 1] == 0x3F { return true }
        return false
    }

    /// libetpan's `mailmime_encoded_phrase_parse`; nil when it gives up (for
    /// example an encoded word whose bytes do not convert).
    private static func decodeEncodedWords(_ bytes: [UInt8]) -> String? {
        // Text outside encoded words is raw: tell libetpan what it most likely is.
        let fallback = CharsetDecoder.isValidUTF8(bytes) ? "utf-8" : "windows-1252"
        // Encoded words in ISO-8859-1, US-ASCII or UTF-8 are decoded as for bodies.
        CharsetDecoder.installInLibetpan()
        var index = 0
        var result: UnsafeMutablePointer<CChar>?
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                mailmime_encoded_phrase_parse(fallback, chars.baseAddress, chars.count, &index, "utf-8", &result)
            }
        }
        guard status == Int32(MAILIMF_NO_ERROR), let result else { return nil }
        defer { free(result) }
        return CharsetDecoder.decodeUnlabelled(CString.bytes(result))
    }
}
