/// The words, addresses, domains and names that rules mention, each given a
/// small integer. A message's words are looked up once per message, so matching
/// compares integers. Keys are UTF-8 bytes, so lookups never build a String.
struct Vocabulary: Sendable {
    private var slots: [Int32] = Array(repeating: -1, count: 64)
    private var starts: [Int32] = []
    private var lengths: [Int32] = []
    private var hashes: [UInt64] = []
    private var bytes: [UInt8] = []

    /// How many distinct entries there are.
    var count: Int { starts.count }

    /// The id of `text` (already lower-cased), adding it when new.
    mutating func intern(_ text: String) -> Int32 {
        let utf8 = Array(text.utf8)
        let existing = utf8.withUnsafeBufferPointer { self.id(of: $0) }
        if existing >= 0 { return existing }
        let newID = Int32(starts.count)
        starts.append(Int32(bytes.count))
        lengths.append(Int32(utf8.count))
        hashes.append(utf8.withUnsafeBufferPointer { Self.hash($0) })
        bytes.append(contentsOf: utf8)
        if starts.count * 2 > slots.count { rehash(capacity: slots.count * 2) } else { place(newID) }
        return newID
    }

    /// The id of these bytes, or -1 when no rule mentions them.
    @inline(__always)
    func id(of key: UnsafeBufferPointer<UInt8>) -> Int32 {
        if starts.isEmpty { return -1 }
        let h = Self.hash(key)
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let s = slots[i]
            if s < 0 { return -1 }
            let e = Int(s)
            if hashes[e] == h, Int(lengths[e]) == key.count, equal(e, key) { return s }
            i = (i + 1) & mask
        }
    }

    /// The id of a string, or -1.
    func id(of text: String) -> Int32 {
        var copy = text
        return copy.withUTF8 { id(of: $0) }
    }

    @inline(__always)
    private func equal(_ entry: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { stored in
            let start = Int(starts[entry])
            for j in 0..<key.count where stored[start + j] != key[j] { return false }
            return true
        }
    }

    private mutating func place(_ id: Int32) {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hashes[Int(id)]) & mask
        while slots[i] >= 0 { i = (i + 1) & mask }
        slots[i] = id
    }

    private mutating func rehash(capacity: Int) {
        slots = Array(repeating: -1, count: capacity)
        for id in 0..<starts.count { place(Int32(id)) }
    }

    /// FNV-1a, 64 bits: quick for the short keys here.
    @inline(__always)
    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }
}
