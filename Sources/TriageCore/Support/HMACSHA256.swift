/// HMAC-SHA-256 (RFC 2104, FIPS 198-1) over the project's own `SHA256`: the
/// tokens in the digest's Done links and its Message-ID (see `DigestKey`).
public enum HMACSHA256 {
    /// SHA-256's block size in bytes.
    static let blockSize = 64

    /// The 32-byte MAC of `message` under `key`.
    public static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        // A key longer than a block is hashed first; a shorter one is padded with zeros.
        var block = key.count > blockSize ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        let inner = SHA256.hash(block.map { $0 ^ 0x36 } + message)
        return SHA256.hash(block.map { $0 ^ 0x5c } + inner)
    }

    /// Whether two MACs are equal, in time that depends only on their lengths
    /// (a comparison that stops at the first difference would tell a forger how
    /// much of a guess was right).
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
