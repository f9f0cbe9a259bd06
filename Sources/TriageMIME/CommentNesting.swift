/// Keeps RFC 5322 comment nesting within what libetpan can parse safely.
///
/// libetpan parses `(comments (nested))` recursively, one C stack frame chain
/// per level, so a header with hundreds of thousands of `(` overflows the stack.
/// Before parsing, any `(` that would nest deeper than
/// `ParserLimits.maxCommentDepth` within one logical (unfolded) line is replaced
/// by a space. The replacement is byte for byte, so offsets, sizes and the
/// header hash (taken from the original bytes) are unchanged.
enum CommentNesting {
    /// A sanitised copy of `bytes`, or nil when no line nests too deeply (the usual case).
    static func sanitized(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard firstTooDeep(bytes) != nil else { return nil }
        var copy = Array(bytes)
        var depth = 0
        for i in copy.indices {
            switch copy[i] {
            case 0x28:                                    // (
                depth += 1
                if depth > ParserLimits.maxCommentDepth { copy[i] = 0x20 }
            case 0x29:                                    // )
                if depth > ParserLimits.maxCommentDepth { copy[i] = 0x20 }
                depth = max(0, depth - 1)
            case 0x0A where !continues(copy, after: i):   // end of a logical line
                depth = 0
            default:
                break
            }
        }
        return copy
    }

    /// The index of the first `(` nested deeper than the limit, if any.
    private static func firstTooDeep(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var depth = 0
        for i in 0..<bytes.count {
            switch bytes[i] {
            case 0x28:
                depth += 1
                if depth > ParserLimits.maxCommentDepth { return i }
            case 0x29:
                depth = max(0, depth - 1)
            case 0x0A where !continues(bytes, after: i):
                depth = 0
            default:
                break
            }
        }
        return nil
    }

    /// Whether the line after the line feed at `index` is a folded continuation.
    private static func continues<C: RandomAccessCollection>(_ bytes: C, after index: Int) -> Bool
    where C.Element == UInt8, C.Index == Int {
        let next = index + 1
        guard next < bytes.endIndex else { return false }
        return bytes[next] == 0x20 || bytes[next] == 0x09
    }
}
