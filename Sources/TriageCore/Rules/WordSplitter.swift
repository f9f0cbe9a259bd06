/// Splits text into lower-cased words the same way for queries and messages:
/// a word is a run of letters and digits (any script); everything else separates.
enum WordSplitter {
    /// Calls `body` with the lower-cased UTF-8 bytes of each word of `text`.
    /// `buffer` is scratch space, reused across calls to avoid allocating.
    @inline(__always)
    static func forEachWord<S: StringProtocol>(in text: S, buffer: inout [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        buffer.removeAll(keepingCapacity: true)
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x80 {
                if (v >= 97 && v <= 122) || (v >= 48 && v <= 57) {
                    buffer.append(UInt8(truncatingIfNeeded: v))
                    continue
                }
                if v >= 65 && v <= 90 {
                    buffer.append(UInt8(truncatingIfNeeded: v + 32))
                    continue
                }
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                buffer.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
                continue
            }
            if !buffer.isEmpty {
                buffer.withUnsafeBufferPointer(body)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if !buffer.isEmpty {
            buffer.withUnsafeBufferPointer(body)
        }
    }

    /// The words of `text`, lower-cased.
    static func words(_ text: String) -> [String] {
        var buffer: [UInt8] = []
        var words: [String] = []
        forEachWord(in: text, buffer: &buffer) { words.append(String(decoding: $0, as: UTF8.self)) }
        return words
    }

    /// `text` lower-cased, as UTF-8 bytes in `buffer` (ASCII without allocating).
    @inline(__always)
    static func lowercasedBytes(_ text: String, into buffer: inout [UInt8]) {
        buffer.removeAll(keepingCapacity: true)
        for byte in text.utf8 {
            if byte >= 0x80 {
                buffer.removeAll(keepingCapacity: true)
                buffer.append(contentsOf: text.lowercased().utf8)
                return
            }
            buffer.append(byte >= 65 && byte <= 90 ? byte + 32 : byte)
        }
    }
}
