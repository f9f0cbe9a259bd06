/// Splits text into lower-cased words the same way for queries and messages:
/// a word is a run of letters and digits (any script); everything else separates.
enum WordSplitter {
    /// Calls `body` with the lower-cased UTF-8 bytes of each word of `text`.
    /// `buffer` is scratch space, reused across calls to avoid allocating.
    @inline(__always)
    static func forEachWord<S: StringProtocol>(in text: S, buffer: inout [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            scan(bytes, &buffer, body)
        }
        if done == nil {
            var copy = String(text)
            copy.withUTF8 { scan($0, &buffer, body) }
        }
    }

    /// The scanner over UTF-8. A word that is already lower-case ASCII is handed over
    /// in place; others are lower-cased into `buffer` first.
    @inline(__always)
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ buffer: inout [UInt8],
                             _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var i = 0
        let n = bytes.count
        var start = -1          // start of the current word, or -1
        var copying = false     // whether the current word is being built in `buffer`
        @inline(__always) func finish(at end: Int) {
            if start >= 0 {
                if copying {
                    buffer.withUnsafeBufferPointer(body)
                } else {
                    body(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                }
            }
            start = -1
            copying = false
        }
        @inline(__always) func beginCopy(upTo end: Int) {
            buffer.removeAll(keepingCapacity: true)
            if start >= 0 { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end])) }
            copying = true
        }
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                if (b >= 97 && b <= 122) || (b >= 48 && b <= 57) {
                    if start < 0 { start = i }
                    if copying { buffer.append(b) }
                } else if b >= 65 && b <= 90 {
                    if !copying { beginCopy(upTo: i) }
                    if start < 0 { start = i }
                    buffer.append(b + 32)
                } else {
                    finish(at: i)
                }
                i += 1
                continue
            }
            // A multi-byte scalar: decode it (Swift strings are valid UTF-8).
            var value: UInt32
            var length: Int
            if b >= 0xF0 { value = UInt32(b & 0x07); length = 4 } else if b >= 0xE0 { value = UInt32(b & 0x0F); length = 3 } else { value = UInt32(b & 0x1F); length = 2 }
            var j = 1
            while j < length, i + j < n {
                value = value << 6 | UInt32(bytes[i + j] & 0x3F)
                j += 1
            }
            if let scalar = Unicode.Scalar(value), scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                if !copying { beginCopy(upTo: i) }
                if start < 0 { start = i }
                buffer.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
            } else {
                finish(at: i)
            }
            i += length
        }
        finish(at: n)
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
