/// mbox `From ` lines that stand among the header fields, after the first line.
///
/// Mail saved from mbox files sometimes carries the envelope line (`From
/// sender date`) in the middle of its header block. It is no field (no colon
/// after a name), so libetpan stops the headers there: From, Subject and Date
/// would come out empty and the rest of the header would become the body.
/// Python's `email` skips such a line (a `MisplacedEnvelopeHeaderDefect`)
/// unless it is the last header line, which it takes as the body's first line;
/// triage does the same.
///
/// The lines are hidden on a same-length copy (the leading `From ` becomes an
/// `X-Fr:` field that triage does not read), so offsets, sizes and the header
/// hash, taken from the original bytes, stay the same.
enum MisplacedEnvelopeLines {
    private static let envelope = Array("From ".utf8)
    private static let replacement = Array("X-Fr:".utf8)

    /// The offsets of the misplaced envelope lines in the header block, in order.
    static func offsets(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        var found: [Int] = []
        var confirmed = 0   // how many of `found` have a field after them
        var lineStart = startsWithEnvelope(bytes, at: 0) ? lineEnd(bytes, from: 0) : 0
        while lineStart < bytes.count {
            let end = lineEnd(bytes, from: lineStart)
            let first = bytes[lineStart]
            if first == 0x0A || first == 0x0D { break }                 // the empty line ending the header
            if first == 0x20 || first == 0x09 {                          // a continuation line
            } else if startsWithEnvelope(bytes, at: lineStart) {
                found.append(lineStart)
            } else if isField(bytes, at: lineStart, end: end) {
                confirmed = found.count
            } else {
                break                                                    // not a header line: the body starts
            }
            lineStart = end
        }
        return Array(found.prefix(confirmed))
    }

    /// `bytes` with the envelope lines at `offsets` turned into an ignored field.
    static func hide(_ bytes: inout [UInt8], at offsets: [Int]) {
        for offset in offsets {
            bytes.replaceSubrange(offset..<(offset + replacement.count), with: replacement)
        }
    }

    /// Whether the line at `i` is an envelope line: `From ` and not `From :`, which is
    /// a From field in RFC 5322's obsolete syntax (4.5.1: blanks before the colon),
    /// read as one by IMAP servers and Sieve, so triage reads it too.
    static func startsWithEnvelope(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        guard i + envelope.count <= bytes.count else { return false }
        for k in envelope.indices where bytes[i + k] != envelope[k] { return false }
        var j = i + envelope.count
        while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
        return j == bytes.count || bytes[j] != 0x3A
    }

    /// A field name (printable, no colon), optional blanks, then `:`.
    private static func isField(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) -> Bool {
        var i = start
        while i < end, (0x21...0x7E).contains(bytes[i]), bytes[i] != 0x3A { i += 1 }
        guard i > start else { return false }
        while i < end, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        return i < end && bytes[i] == 0x3A
    }

    /// The index after the LF ending the line at `start`, or the count.
    private static func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        while i < bytes.count, bytes[i] != 0x0A { i += 1 }
        return min(i + 1, bytes.count)
    }
}
