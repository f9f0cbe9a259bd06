/// A lower-cased pattern where `*` stands for any run of characters; matched
/// byte by byte without a regex engine.
struct Glob: Hashable, Sendable {
    /// The pattern's UTF-8 bytes.
    let pattern: [UInt8]

    /// Creates a glob from a lower-cased pattern.
    init(_ text: String) {
        pattern = Array(text.utf8)
    }

    /// Whether the whole of `text` (lower-cased) matches.
    func matches(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { matches($0) }
    }

    /// Whether the whole of `subject` matches (classic two-pointer wildcard match).
    func matches(_ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        pattern.withUnsafeBufferPointer { p in
            var s = 0, i = 0
            var star = -1, mark = 0
            let star8 = UInt8(ascii: "*")
            while s < subject.count {
                if i < p.count, p[i] != star8, p[i] == subject[s] {
                    i += 1; s += 1
                } else if i < p.count, p[i] == star8 {
                    star = i; mark = s; i += 1
                } else if star >= 0 {
                    i = star + 1; mark += 1; s = mark
                } else {
                    return false
                }
            }
            while i < p.count, p[i] == star8 { i += 1 }
            return i == p.count
        }
    }
}
