/// Follows the parenthesis depth of IMAP answers as they arrive, chunk by chunk,
/// so that `StreamGuard` can stop an answer nested deeper than libetpan's
/// recursive parser survives (a `BODYSTRUCTURE ((((…` 20,000 levels deep is a
/// stack overflow; see docs/RELIABILITY.md).
///
/// It knows just enough IMAP to count only the parentheses the parser counts:
/// those outside quoted strings and outside literals (`{n}` CRLF, then n bytes of
/// anything, such as a message header full of parentheses). A line end outside a
/// literal ends the answer line and resets the depth.
struct NestingScanner {
    /// The deepest nesting allowed.
    let limit: Int

    private enum State {
        case normal
        case quoted
        case quotedEscape
        /// After `{`: the literal's announced size so far.
        case literalSize(Int)
        /// After `}`: waiting for the line end that starts the literal.
        case literalStart(Int)
        /// Inside a literal: bytes still to skip.
        case literal(Int)
    }

    private var state = State.normal
    private var depth = 0

    /// A scanner allowing `limit` levels.
    init(limit: Int) {
        self.limit = limit
    }

    /// Scans the next bytes of the stream; returns the offset (in `bytes`) of the
    /// first byte that opens a level beyond the limit, or nil.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch state {
            case .normal:
                switch byte {
                case UInt8(ascii: "("):
                    depth += 1
                    if depth > limit { return index }
                case UInt8(ascii: ")"):
                    depth = max(0, depth - 1)
                case UInt8(ascii: "\""):
                    state = .quoted
                case UInt8(ascii: "{"):
                    state = .literalSize(0)
                case UInt8(ascii: "\n"):
                    depth = 0
                default:
                    break
                }
            case .quoted:
                if byte == UInt8(ascii: "\\") {
                    state = .quotedEscape
                } else if byte == UInt8(ascii: "\"") {
                    state = .normal
                } else if byte == UInt8(ascii: "\n") {
                    // A quoted string cannot hold a line end: the line is over.
                    state = .normal
                    depth = 0
                }
            case .quotedEscape:
                state = .quoted
            case .literalSize(let size):
                if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), size < Int.max / 20 {
                    state = .literalSize(size * 10 + Int(byte - UInt8(ascii: "0")))
                } else if byte == UInt8(ascii: "}") {
                    state = .literalStart(size)
                } else if byte == UInt8(ascii: "+") {
                    // LITERAL+ `{n+}`: same size.
                } else {
                    state = .normal
                    continue  // not a literal after all: read this byte again as normal
                }
            case .literalStart(let size):
                if byte == UInt8(ascii: "\n") {
                    state = size > 0 ? .literal(size) : .normal
                } else if byte != UInt8(ascii: "\r") {
                    state = .normal
                    continue
                }
            case .literal(let left):
                let skip = min(left, bytes.count - index)
                index += skip
                state = left - skip > 0 ? .literal(left - skip) : .normal
                continue
            }
            index += 1
        }
        return nil
    }
}
