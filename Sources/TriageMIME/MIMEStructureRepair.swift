#if canImport(Glibc)
import Glibc
#endif

/// Rewrites, on a copy given to libetpan's MIME parser, two shapes of real mail
/// it misreads, so the parts come out as mail clients show them:
///
/// - a boundary given the RFC 2231 way (`boundary*=us-ascii''b1`, or in
///   `boundary*0=` pieces), which libetpan ignores (it then sees no parts), is
///   written as a plain `boundary="b1"`;
/// - a Content-Type without a subtype (`text;`), which makes libetpan drop the
///   whole structure, is written as `text/plain` (RFC 2045 §5.2: a Content-Type
///   that cannot be read means `text/plain`), keeping its parameters;
/// - a part without header lines (a delimiter line followed by an empty line or
///   directly by the next delimiter), whose body libetpan runs on into the next
///   part (showing the delimiter line as text), gets the header it implies,
///   `Content-Type: text/plain` (RFC 2045 §5.2);
/// - a message that ends inside a part (the last delimiter is `--b`, the
///   closing `--b--` never comes), which libetpan drops whole with all its
///   parts, gets the closing delimiters it lacks appended, so the open part
///   runs to the end of the message, as in Python's `email` and mail clients.
///
/// Offsets change, so only the body parse uses the copy; headers and the header
/// hash come from the original.
enum MIMEStructureRepair {
    /// The repaired copy of `bytes`, or nil when nothing needs repair.
    static func repaired(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var copy: [UInt8] = []
        var changed = false
        if let fixed = typesWithoutSubtypeFixed(bytes) {
            copy = fixed
            changed = true
        }
        guard containsBoundaryParameter(bytes) else { return changed ? copy : nil }
        if !changed { copy = Array(bytes) }
        let boundaries = rewritingExtendedBoundaries(&copy, changed: &changed)
        // Closing first: a last delimiter with nothing after it then opens an empty
        // part that the implied-header repair completes.
        if !boundaries.isEmpty, closingUnclosedParts(&copy, boundaries: boundaries) { changed = true }
        if !boundaries.isEmpty, addingImpliedHeaders(&copy, boundaries: boundaries) { changed = true }
        return changed ? copy : nil
    }

    private static let boundaryWord = Array("boundary".utf8)

    /// The index of the next LF at or after `start`, or the count (memchr: this
    /// runs over every message, up to `ParserLimits.maxStructureBytes`).
    private static func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count,
              let found = memchr(base + start, 0x0A, bytes.count - start) else { return bytes.count }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
    private static let contentTypeField = Array("content-type:".utf8)

    /// `bytes` with each `Content-Type:` line whose type has no `/` given the
    /// type `text/plain`; nil when there is none.
    private static func typesWithoutSubtypeFixed(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out: [UInt8]?
        var copiedUpTo = 0
        var lineStart = 0
        let n = bytes.count
        while lineStart < n {
            let newline = lineEnd(bytes, from: lineStart)
            defer { lineStart = newline + 1 }
            guard newline - lineStart > contentTypeField.count else { continue }
            var matches = true
            for (k, letter) in contentTypeField.enumerated() where bytes[lineStart + k] | 0x20 != letter {
                matches = false
                break
            }
            guard matches else { continue }
            var typeStart = lineStart + contentTypeField.count
            while typeStart < newline, bytes[typeStart] == 0x20 || bytes[typeStart] == 0x09 { typeStart += 1 }
            var typeEnd = typeStart
            while typeEnd < newline, bytes[typeEnd] > 0x20, bytes[typeEnd] != UInt8(ascii: ";"),
                  bytes[typeEnd] != UInt8(ascii: "/"), bytes[typeEnd] != UInt8(ascii: "(") {
                typeEnd += 1
            }
            // A type then `/` is fine; so is an empty value folded onto the next line.
            guard typeEnd > typeStart, typeEnd >= newline || bytes[typeEnd] != UInt8(ascii: "/") else { continue }
            var after = typeEnd
            while after < newline, bytes[after] == 0x20 || bytes[after] == 0x09 || bytes[after] == 0x0D { after += 1 }
            if after < newline, bytes[after] == UInt8(ascii: "/") { continue }   // `text /plain`
            if out == nil { out = [] ; out!.reserveCapacity(n + 16) }
            out! += bytes[copiedUpTo..<typeStart]
            out! += Array("text/plain".utf8)
            copiedUpTo = typeEnd
        }
        guard var result = out else { return nil }
        result += bytes[copiedUpTo..<n]
        return result
    }

    private static func containsBoundaryParameter(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= boundaryWord.count else { return false }
        // First bytes by memchr-like scanning: only a `b` or `B` starts a check.
        var i = 0
        while i + boundaryWord.count <= bytes.count {
            if bytes[i] | 0x20 == UInt8(ascii: "b"), matchesWord(bytes, at: i) { return true }
            i += 1
        }
        return false
    }

    private static func matchesWord<C: RandomAccessCollection>(_ bytes: C, at i: C.Index) -> Bool
    where C.Element == UInt8, C.Index == Int {
        guard i + boundaryWord.count <= bytes.endIndex else { return false }
        for (k, letter) in boundaryWord.enumerated() where bytes[i + k] | 0x20 != letter { return false }
        return true
    }

    /// Every boundary parameter's value, with `boundary*=` and `boundary*N[*]=`
    /// forms rewritten in place as `boundary="value"`.
    private static func rewritingExtendedBoundaries(_ bytes: inout [UInt8], changed: inout Bool) -> [[UInt8]] {
        var boundaries: [[UInt8]] = []
        var i = 0
        while i < bytes.count {
            // A parameter starts after `;` and optional folding white space.
            guard bytes[i] == UInt8(ascii: ";") else { i += 1; continue }
            var start = i + 1
            while start < bytes.count, isBlank(bytes[start]) { start += 1 }
            guard matchesWord(bytes, at: start) else { i += 1; continue }
            var j = start + boundaryWord.count
            guard j < bytes.count else { break }
            if bytes[j] == UInt8(ascii: "=") {
                let (value, _) = readValue(bytes, from: j + 1)
                if !value.isEmpty { boundaries.append(value) }
                i = j + 1
                continue
            }
            guard bytes[j] == UInt8(ascii: "*") else { i = j; continue }
            // boundary*= or boundary*0*= ... boundary*N=: gather the pieces.
            var pieces: [(index: Int, encoded: Bool, value: [UInt8])] = []
            var end = j
            var cursor = start
            while matchesWord(bytes, at: cursor), cursor + boundaryWord.count < bytes.count,
                  bytes[cursor + boundaryWord.count] == UInt8(ascii: "*") {
                j = cursor + boundaryWord.count + 1
                var number = 0, digits = 0
                while j < bytes.count, (0x30...0x39).contains(bytes[j]), digits < 3 {
                    number = number * 10 + Int(bytes[j] - 0x30); digits += 1; j += 1
                }
                var encoded = digits == 0
                if digits > 0, j < bytes.count, bytes[j] == UInt8(ascii: "*") { encoded = true; j += 1 }
                guard j < bytes.count, bytes[j] == UInt8(ascii: "=") else { break }
                let (value, after) = readValue(bytes, from: j + 1)
                pieces.append((number, encoded, value))
                end = after
                if digits == 0 { break }
                // The next piece, if any, follows `;`.
                var k = after
                while k < bytes.count, isBlank(bytes[k]) { k += 1 }
                guard k < bytes.count, bytes[k] == UInt8(ascii: ";") else { break }
                k += 1
                while k < bytes.count, isBlank(bytes[k]) { k += 1 }
                cursor = k
            }
            guard !pieces.isEmpty else { i = start + boundaryWord.count; continue }
            var value: [UInt8] = []
            for (position, piece) in pieces.sorted(by: { $0.index < $1.index }).enumerated() {
                var raw = piece.value[...]
                if piece.encoded, position == 0, let first = raw.firstIndex(of: 0x27),
                   let second = raw[(first + 1)...].firstIndex(of: 0x27) {
                    raw = raw[(second + 1)...]   // charset'language'
                }
                value += piece.encoded ? percentDecoded(raw) : Array(raw)
            }
            guard !value.isEmpty, !value.contains(UInt8(ascii: "\"")) else { i = end; continue }
            let replacement = Array("boundary=\"".utf8) + value + [UInt8(ascii: "\"")]
            bytes.replaceSubrange(start..<end, with: replacement)
            boundaries.append(value)
            changed = true
            i = start + replacement.count
        }
        return boundaries
    }

    /// A parameter value (token or quoted string) at `from`, and the index after it.
    private static func readValue(_ bytes: [UInt8], from: Int) -> ([UInt8], Int) {
        var i = from
        var value: [UInt8] = []
        if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
            i += 1
            while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != 0x0D, bytes[i] != 0x0A {
                if bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count { i += 1 }
                value.append(bytes[i]); i += 1
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "\"") { i += 1 }
            return (value, i)
        }
        while i < bytes.count, bytes[i] > 0x20, bytes[i] != UInt8(ascii: ";"), bytes[i] != 0x7F {
            value.append(bytes[i]); i += 1
        }
        return (value, i)
    }

    private static func percentDecoded(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var i = raw.startIndex
        while i < raw.endIndex {
            if raw[i] == 0x25, i + 2 < raw.endIndex, let hi = hex(raw[i + 1]), let lo = hex(raw[i + 2]) {
                out.append(hi << 4 | lo); i += 3
            } else {
                out.append(raw[i]); i += 1
            }
        }
        return out
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }

    /// Inserts `Content-Type: text/plain` after each delimiter line that opens a
    /// part without header lines; whether anything was inserted.
    private static func addingImpliedHeaders(_ bytes: inout [UInt8], boundaries: [[UInt8]]) -> Bool {
        let delimiters = Set(boundaries.map { [UInt8(ascii: "-"), UInt8(ascii: "-")] + $0 })
        // Copied only from the first insertion on: most messages need none.
        var out: [UInt8]?
        var lineStart = 0
        while lineStart < bytes.count {
            let newline = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
            let lineEnd = newline < bytes.count ? newline + 1 : newline
            out? += bytes[lineStart..<lineEnd]
            if newline < bytes.count, isDelimiter(bytes[lineStart..<newline], delimiters, closing: false) {
                let next = lineEnd
                let nextNewline = bytes[next...].firstIndex(of: 0x0A) ?? bytes.count
                let nextLine = bytes[next..<nextNewline]
                let blank = nextLine.allSatisfy { $0 == 0x0D || $0 == 0x20 || $0 == 0x09 } && nextNewline < bytes.count
                let anotherDelimiter = isDelimiter(nextLine, delimiters, closing: true)
                if blank || anotherDelimiter {
                    let crlf = newline > lineStart && bytes[newline - 1] == 0x0D
                    let end: [UInt8] = crlf ? [0x0D, 0x0A] : [0x0A]
                    if out == nil {
                        out = Array(bytes[..<lineEnd])
                        out?.reserveCapacity(bytes.count + 64)
                    }
                    out? += Array("Content-Type: text/plain".utf8) + end
                    if anotherDelimiter { out? += end }
                }
            }
            lineStart = lineEnd
        }
        guard let out else { return false }
        bytes = out
        return true
    }

    /// Appends `--b--` for each multipart still open at the end of `bytes`
    /// (innermost first), when the last delimiter line of all opens a part;
    /// whether anything was appended.
    private static func closingUnclosedParts(_ bytes: inout [UInt8], boundaries: [[UInt8]]) -> Bool {
        let delimiters = boundaries.map { [UInt8(ascii: "-"), UInt8(ascii: "-")] + $0 }
        var open = Set<[UInt8]>()
        var lastOpens = false
        var crlf = false
        var lineStart = 0
        while lineStart < bytes.count {
            let newline = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
            defer { lineStart = newline + 1 }
            guard newline - lineStart > 2, bytes[lineStart] == 0x2D, bytes[lineStart + 1] == 0x2D else { continue }
            var end = newline
            while end > lineStart, bytes[end - 1] == 0x0D || bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            let line = Array(bytes[lineStart..<end])
            if delimiters.contains(line) {
                open.insert(line)
                lastOpens = true
                crlf = newline > lineStart && bytes[newline - 1] == 0x0D
            } else if line.count > 2, line.suffix(2) == [0x2D, 0x2D], delimiters.contains(Array(line.dropLast(2))) {
                open.remove(Array(line.dropLast(2)))
                lastOpens = false
            }
        }
        guard lastOpens else { return false }
        let newline: [UInt8] = crlf ? [0x0D, 0x0A] : [0x0A]
        if let last = bytes.last, last != 0x0A { bytes += newline }
        var seen = Set<[UInt8]>()
        for delimiter in delimiters.reversed() where open.contains(delimiter) && seen.insert(delimiter).inserted {
            bytes += delimiter + [0x2D, 0x2D] + newline
        }
        return true
    }

    /// Whether `line` is `--boundary` (trailing blanks allowed), or with
    /// `closing` also `--boundary--`.
    private static func isDelimiter(_ line: ArraySlice<UInt8>, _ delimiters: Set<[UInt8]>, closing: Bool) -> Bool {
        guard line.count > 2, line[line.startIndex] == 0x2D, line[line.startIndex + 1] == 0x2D else { return false }
        var end = line.endIndex
        while end > line.startIndex, line[end - 1] == 0x0D || line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
        let trimmed = Array(line[line.startIndex..<end])
        if delimiters.contains(trimmed) { return true }
        if closing, trimmed.count > 2, trimmed.suffix(2) == [0x2D, 0x2D] {
            return delimiters.contains(Array(trimmed.dropLast(2)))
        }
        return false
    }
}
