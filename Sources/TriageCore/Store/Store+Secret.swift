import Foundation

/// The digest's command secret (`STORE/digest/secret`, 0600): the key of the
/// tokens in Done links and of digest Message-IDs (`DigestKey`).
extension Store {
    /// `STORE/digest/secret`.
    public var commandSecretPath: String { root + "/" + DigestEntry.kindFolder + "/secret" }

    /// The secret, made from `generate()` (32 random bytes, drawn by the caller:
    /// the core reads no random source) and written 0600 on first use. A file
    /// that is not 64 hex digits is refused rather than replaced: replacing it
    /// would silently break the links of every digest already sent.
    public func commandSecret(generate: () -> [UInt8]) throws -> DigestKey {
        if let key = try readCommandSecret() { return key }
        return try withLock {
            if let key = try readCommandSecret() { return key }
            let bytes = generate()
            guard bytes.count >= 16 else {
                throw StoreError.io(path: commandSecretPath, operation: "make a secret of \(bytes.count) bytes (too short) for", errno: EINVAL)
            }
            try StoreFiles.makeFolder(root + "/" + DigestEntry.kindFolder)
            try AtomicFile.write(path: commandSecretPath, data: Data((SHA256.hex(bytes: bytes) + "\n").utf8), mode: 0o600,
                                 durable: synchronous)
            return DigestKey(secret: bytes)
        }
    }

    /// The secret if the file exists; throws for one that is not hex.
    public func readCommandSecret() throws -> DigestKey? {
        guard let data = try StoreFiles.read(commandSecretPath) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex, let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex),
              let byte = UInt8(text[index..<next], radix: 16) {
            bytes.append(byte)
            index = next
        }
        guard index == text.endIndex, bytes.count >= 16 else {
            throw StoreError.io(path: commandSecretPath, operation: "read the digest's command secret (not hex; remove the file to make a new one, which makes the links of digests already sent stop working) from",
                                errno: EINVAL)
        }
        return DigestKey(secret: bytes)
    }
}
