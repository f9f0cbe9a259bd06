import Foundation
@testable import TriageCore

/// A test oracle for the header text the composer writes: a small independent
/// RFC 2047 decoder (UTF-8, US-ASCII and ISO-8859-1) that keeps leading and
/// trailing white space, so the tests see exactly what was encoded. triage itself
/// reads encoded words only with TriageMIME's decoder.
enum EncodedWordOracle {
    static func decode(_ value: String) -> String {
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
            guard let decoded = Data(base64Encoded: Data(text)) else { return nil }
            bytes = Array(decoded)
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
}
