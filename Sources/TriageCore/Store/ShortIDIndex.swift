/// Git-style short ids over every id of one record kind: each id is shown by its
/// shortest unique prefix (at least four digits), and any unique prefix is accepted.
///
/// Ids are kept as 128-bit numbers, so indexing 100,000 of them is a fast sort.
public struct ShortIDIndex: Sendable {
    /// A 32-hex-digit id as a number (`hi` holds the first 16 digits).
    struct Key: Comparable, Hashable, Sendable {
        var hi: UInt64
        var lo: UInt64

        static func < (a: Key, b: Key) -> Bool { (a.hi, a.lo) < (b.hi, b.lo) }

        /// Parses exactly 32 lower- or upper-case hex digits.
        init?<C: Collection>(hex: C) where C.Element == UInt8 {
            guard hex.count == RecordID.length else { return nil }
            var hi: UInt64 = 0, lo: UInt64 = 0
            for (i, b) in hex.enumerated() {
                guard let v = ShortIDIndex.nibble(b) else { return nil }
                if i < 16 { hi = hi << 4 | v } else { lo = lo << 4 | v }
            }
            self.hi = hi
            self.lo = lo
        }

        init(hi: UInt64, lo: UInt64) {
            self.hi = hi
            self.lo = lo
        }

        /// How many leading hex digits two keys share (0...32).
        func commonDigits(_ other: Key) -> Int {
            let h = hi ^ other.hi
            if h != 0 { return h.leadingZeroBitCount / 4 }
            return 16 + (lo ^ other.lo).leadingZeroBitCount / 4
        }

        var hex: String {
            let digits = Array("0123456789abcdef".utf8)
            var out = [UInt8](repeating: 0, count: 32)
            for i in 0..<16 {
                out[i] = digits[Int(hi >> UInt64(60 - 4 * i) & 15)]
                out[16 + i] = digits[Int(lo >> UInt64(60 - 4 * i) & 15)]
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// The ids, sorted and unique.
    private let keys: [Key]

    /// Indexes `ids` (duplicates and malformed ids are ignored).
    public init(_ ids: some Sequence<String>) {
        self.init(keys: ids.compactMap { Key(hex: Array($0.utf8)) })
    }

    init(keys: [Key]) {
        var sorted = keys
        sorted.sort()
        var unique: [Key] = []
        unique.reserveCapacity(sorted.count)
        for key in sorted where unique.last != key { unique.append(key) }
        self.keys = unique
    }

    /// How many ids are indexed.
    public var count: Int { keys.count }

    /// The shortest prefix of `id` that no other indexed id shares (at least four digits).
    public func short(_ id: String) -> String {
        guard let key = Key(hex: Array(id.utf8)) else { return id }
        let i = lowerBound(key)
        var needed = 0
        if i > 0 { needed = max(needed, keys[i - 1].commonDigits(key)) }
        let next = i < keys.count && keys[i] == key ? i + 1 : i
        if next < keys.count { needed = max(needed, keys[next].commonDigits(key)) }
        return String(id.prefix(min(RecordID.length, max(RecordID.minimumShortLength, needed + 1))))
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
        let digits = Array(prefix.utf8)
        guard digits.count >= RecordID.minimumShortLength, digits.count <= RecordID.length,
              digits.allSatisfy({ ShortIDIndex.nibble($0) != nil }) else { return .malformed }
        // The range of keys with this prefix: the prefix padded with 0s up to the prefix padded with fs.
        let low = Key(hex: digits + Array(repeating: UInt8(ascii: "0"), count: RecordID.length - digits.count))!
        let high = Key(hex: digits + Array(repeating: UInt8(ascii: "f"), count: RecordID.length - digits.count))!
        var i = lowerBound(low)
        var found: [String] = []
        while i < keys.count, keys[i] <= high {
            found.append(keys[i].hex)
            i += 1
        }
        switch found.count {
        case 0: return .none
        case 1: return .one(found[0])
        default: return .many(found)
        }
    }

    private func lowerBound(_ key: Key) -> Int {
        var low = 0, high = keys.count
        while low < high {
            let mid = (low + high) / 2
            if keys[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    static func nibble(_ b: UInt8) -> UInt64? {
        switch b {
        case 48...57: return UInt64(b - 48)
        case 97...102: return UInt64(b - 87)
        case 65...70: return UInt64(b - 55)
        default: return nil
        }
    }
}
