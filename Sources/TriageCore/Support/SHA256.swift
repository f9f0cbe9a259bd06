/// SHA-256 (FIPS 180-4), for record ids and header hashes.
///
/// Foundation on Linux has no hashing and TriageCore imports no C library, so
/// this small, tested implementation lives here.
public struct SHA256 {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The digest of `bytes`, 32 bytes.
    public static func hash<S: Sequence>(_ bytes: S) -> [UInt8] where S.Element == UInt8 {
        if let digest = bytes.withContiguousStorageIfAvailable({ hash(buffer: UnsafeRawBufferPointer($0)) }) {
            return digest
        }
        return Array(bytes).withUnsafeBytes { hash(buffer: $0) }
    }

    /// The digest of contiguous bytes. Works on the caller's buffer without copying
    /// it (header hashes run once per fetched message, so this is on a hot path).
    public static func hash(buffer: UnsafeRawBufferPointer) -> [UInt8] {
        var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
            (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
        let count = buffer.count
        let fullBlocks = count / 64
        k.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                for block in 0..<fullBlocks {
                    compress(UnsafeRawBufferPointer(rebasing: buffer[(block * 64)..<(block * 64 + 64)]), &state, w, k)
                }
                // The tail plus padding and the bit length: one or two more blocks.
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
                    tail.initialize(repeating: 0)
                    let rest = count - fullBlocks * 64
                    for i in 0..<rest { tail[i] = buffer[fullBlocks * 64 + i] }
                    tail[rest] = 0x80
                    let tailLength = rest < 56 ? 64 : 128
                    let bitLength = UInt64(count) &* 8
                    for i in 0..<8 { tail[tailLength - 1 - i] = UInt8(truncatingIfNeeded: bitLength >> (UInt64(i) * 8)) }
                    let raw = UnsafeRawBufferPointer(tail)
                    compress(UnsafeRawBufferPointer(rebasing: raw[0..<64]), &state, w, k)
                    if tailLength == 128 { compress(UnsafeRawBufferPointer(rebasing: raw[64..<128]), &state, w, k) }
                }
            }
        }
        let h = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        var digest = [UInt8](repeating: 0, count: 32)
        for (i, v) in h.enumerated() {
            for j in 0..<4 { digest[i * 4 + j] = UInt8(truncatingIfNeeded: v >> (24 - UInt32(j) * 8)) }
        }
        return digest
    }

    @inline(__always)
    private static func compress(_ chunk: UnsafeRawBufferPointer,
                                 _ h: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32),
                                 _ w: UnsafeMutableBufferPointer<UInt32>, _ k: UnsafeBufferPointer<UInt32>) {
        for i in 0..<16 {
            let j = i * 4
            w[i] = UInt32(chunk[j]) << 24 | UInt32(chunk[j + 1]) << 16 | UInt32(chunk[j + 2]) << 8 | UInt32(chunk[j + 3])
        }
        for i in 16..<64 {
            let s0 = w[i - 15].rotr(7) ^ w[i - 15].rotr(18) ^ (w[i - 15] >> 3)
            let s1 = w[i - 2].rotr(17) ^ w[i - 2].rotr(19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, hh) = h
        for i in 0..<64 {
            let s1 = e.rotr(6) ^ e.rotr(11) ^ e.rotr(25)
            let ch = (e & f) ^ (~e & g)
            let t1 = hh &+ s1 &+ ch &+ k[i] &+ w[i]
            let s0 = a.rotr(2) ^ a.rotr(13) ^ a.rotr(22)
            let maj = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ maj
            (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
        }
        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
    }

    /// The digest of a string's UTF-8 bytes, as lower-case hex.
    public static func hex(_ text: String) -> String { hex(bytes: hash(text.utf8)) }

    /// Lower-case hex of bytes.
    public static func hex(bytes: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}

private extension UInt32 {
    func rotr(_ n: UInt32) -> UInt32 { (self >> n) | (self << (32 - n)) }
}
