/// Git-style short ids over every id of one record kind: each id is shown by its
/// shortest unique prefix (at least four digits), and any unique prefix is accepted.
public struct ShortIDIndex: Sendable {
    /// The ids, sorted, as bytes (ids are ASCII hex).
    private let ids: [[UInt8]]

    /// Indexes `ids` (duplicates are ignored).
    public init(_ ids: some Sequence<String>) {
        var sorted = ids.map { Array($0.utf8) }
        sorted.sort { $0.lexicographicallyPrecedes($1) }
        var unique: [[UInt8]] = []
        unique.reserveCapacity(sorted.count)
        for id in sorted where unique.last != id { unique.append(id) }
        self.ids = unique
    }

    /// How many ids are indexed.
    public var count: Int { ids.count }

    /// The shortest prefix of `id` that no other indexed id shares (at least four digits).
    public func short(_ id: String) -> String {
        let key = Array(id.utf8)
        let i = lowerBound(key)
        var needed = 0
        if i > 0 { needed = max(needed, commonPrefix(ids[i - 1], key)) }
        let next = i < ids.count && ids[i] == key ? i + 1 : i
        if next < ids.count { needed = max(needed, commonPrefix(ids[next], key)) }
        return String(id.prefix(min(id.count, max(RecordID.minimumShortLength, needed + 1))))
    }

    /// The result of looking up what a person typed.
    public enum Match: Equatable, Sendable {
        /// Exactly one id.
        case one(String)
        /// No id starts with it.
        case none
        /// Several ids start with it.
        case many([String])
        /// Not hex digits, or fewer than four.
        case malformed
    }

    /// The ids starting with `prefix` (case-insensitive).
    public func match(_ prefix: String) -> Match {
        let key = Array(prefix.lowercased().utf8)
        guard key.count >= RecordID.minimumShortLength, key.count <= RecordID.length,
              key.allSatisfy(RecordID.isHexDigit) else { return .malformed }
        var i = lowerBound(key)
        var found: [String] = []
        while i < ids.count, ids[i].starts(with: key) {
            found.append(String(decoding: ids[i], as: UTF8.self))
            i += 1
        }
        switch found.count {
        case 0: return .none
        case 1: return .one(found[0])
        default: return .many(found)
        }
    }

    private func lowerBound(_ key: [UInt8]) -> Int {
        var low = 0, high = ids.count
        while low < high {
            let mid = (low + high) / 2
            if ids[mid].lexicographicallyPrecedes(key) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func commonPrefix(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var n = 0
        while n < a.count, n < b.count, a[n] == b[n] { n += 1 }
        return n
    }
}
