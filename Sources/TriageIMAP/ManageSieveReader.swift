/// Reads ManageSieve answers (RFC 5804 section 4) from a server's bytes, one byte
/// at a time from `next` (so `ManageSieveConnection` reads nothing past an answer,
/// which its STARTTLS injection check relies on, and the fuzz target needs no socket).
///
/// Everything a server sends is bounded: an answer holds at most `limit` bytes and
/// `maxLines` lines; a literal's length is `{` 1*DIGIT `}` (RFC 5804's literal-s2c)
/// from 0 up to what is left of the limit. A negative, signed (`{+5}`), client-only
/// (`{5+}`), empty or oversized length, a quoted string that does not end on its
/// line, or a lone CR is a `Failure`, never a crash or an unbounded read.
public struct ManageSieveReader {
    /// The most one answer may hold, literals included: 1 MiB. The largest answer
    /// triage asks for is LISTSCRIPTS, a line per script name (at most 1,024 bytes
    /// each as a quoted string): a user with many scripts fits many times over.
    public static let maxAnswerBytes = 1 << 20
    /// The most data lines one answer may hold (a LISTSCRIPTS of that many scripts).
    public static let maxLines = 10_000

    /// Why an answer could not be read.
    public enum Failure: Error, Equatable, Sendable {
        /// The bytes ended (the connection closed or timed out) inside an answer.
        case closed
        /// The bytes are not a ManageSieve answer; what was wrong, for a message.
        case malformed(String)
        /// The answer went past the limit; what, for a message.
        case tooLong(String)
    }

    private let next: () -> UInt8?
    private let limit: Int
    private var total = 0

    /// A reader taking bytes from `next` (nil: no more bytes) and allowing `limit`
    /// bytes per answer (at most `maxAnswerBytes`).
    public init(limit: Int = ManageSieveReader.maxAnswerBytes, next: @escaping () -> UInt8?) {
        self.limit = min(max(0, limit), Self.maxAnswerBytes)
        self.next = next
    }

    /// Reads lines up to the status line (`OK`, `NO` or `BYE`).
    public mutating func readAnswer() throws(Failure) -> ManageSieveAnswer {
        total = 0
        var answer = ManageSieveAnswer()
        while true {
            let words = try readLine()
            guard let first = words.first else { continue }
            if case .atom(let word) = first, ["OK", "NO", "BYE"].contains(word.uppercased()) {
                answer.status = word.uppercased()
                answer.text = ManageSieveAnswer.text(of: words.dropFirst())
                return answer
            }
            guard answer.lines.count < Self.maxLines else {
                throw .tooLong("more than \(Self.maxLines) lines in one answer")
            }
            answer.lines.append(words)
        }
    }

    // MARK: - Lines

    private static let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n"), space = UInt8(ascii: " ")
    private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    private static let open = UInt8(ascii: "("), close = UInt8(ascii: ")")
    private static let brace = UInt8(ascii: "{"), closingBrace = UInt8(ascii: "}")

    private mutating func byte() throws(Failure) -> UInt8 {
        guard let b = next() else { throw .closed }
        total += 1
        guard total <= limit else { throw .tooLong("an answer longer than \(limit) bytes") }
        return b
    }

    /// One line's words, up to its CRLF (a bare LF is taken too, as libetpan does);
    /// a literal's bytes and the rest of the line after it belong to the same line.
    private mutating func readLine() throws(Failure) -> [ManageSieveAnswer.Word] {
        var words: [ManageSieveAnswer.Word] = []
        var atom: [UInt8] = []
        while true {
            let b = try byte()
            switch b {
            case Self.cr, Self.lf, Self.space, Self.quote, Self.open, Self.close, Self.brace:
                if !atom.isEmpty {
                    words.append(.atom(String(decoding: atom, as: UTF8.self)))
                    atom = []
                }
            default:
                atom.append(b)
                continue
            }
            switch b {
            case Self.lf: return words
            case Self.cr:
                try lineEnd(after: "a CR")
                return words
            case Self.quote: words.append(.string(try quoted()))
            case Self.open: words.append(.open)
            case Self.close: words.append(.close)
            case Self.brace: words.append(.string(try literal()))
            default: break  // a space
            }
        }
    }

    /// The LF of a CRLF (`what` came before it).
    private mutating func lineEnd(after what: String) throws(Failure) {
        guard try byte() == Self.lf else { throw .malformed("\(what) not followed by a line end") }
    }

    /// A quoted string after its opening quote, unescaped. It cannot hold a line
    /// end or NUL (RFC 5804's QUOTED-CHAR); `\` quotes the next byte.
    private mutating func quoted() throws(Failure) -> String {
        var bytes: [UInt8] = []
        while true {
            var b = try byte()
            if b == Self.quote { return String(decoding: bytes, as: UTF8.self) }
            if b == Self.backslash { b = try byte() }
            guard b != Self.cr, b != Self.lf, b != 0 else {
                throw .malformed("a quoted string that does not end on its line")
            }
            bytes.append(b)
        }
    }

    /// A literal after its `{`: `N}` CRLF, then N bytes. N is digits only (at most
    /// 32 are looked at), at most what is left of the answer's limit; anything else is
    /// malformed, and the digits are never read into an integer that could overflow.
    private mutating func literal() throws(Failure) -> String {
        var seen: [UInt8] = []
        while true {
            let b = try byte()
            if b == Self.closingBrace { break }
            guard seen.count < 32, b != Self.cr, b != Self.lf else {
                throw .malformed("a literal length {\(Self.shown(seen))… without its closing brace")
            }
            seen.append(b)
        }
        guard !seen.isEmpty, seen.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw .malformed("a literal length {\(Self.shown(seen))} that is not a number (RFC 5804: {N}, N digits from 0 to 4294967295)")
        }
        // Ten significant digits or fewer fit an Int (64-bit); more is too long in any case.
        let digits = seen.drop { $0 == UInt8(ascii: "0") }
        let length = digits.count <= 10 ? digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } : Int.max
        guard length <= limit - total else {
            throw .tooLong("a literal of \(digits.count <= 10 ? "\(length)" : "more than 9999999999") bytes "
                           + "(at most \(limit) in one answer)")
        }
        // literal-s2c: "{" number "}" CRLF; a bare LF is taken as elsewhere.
        let end = try byte()
        if end == Self.cr { try lineEnd(after: "a literal's {N} and CR") } else if end != Self.lf {
            throw .malformed("a literal's {\(length)} not at the end of its line")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        for _ in 0..<length { bytes.append(try byte()) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Bytes of a malformed literal length as printable ASCII, for the message.
    private static func shown(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.map { (32..<127).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
