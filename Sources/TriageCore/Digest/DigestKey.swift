/// The secret that proves a command came from a digest triage sent: the token
/// in a Done link (`triage: done 0162 7kq3m9x2`) and the MAC in a digest's
/// Message-ID are HMAC-SHA-256 under it.
///
/// The secret lives in the store (`Store.commandSecret`, 0600, made on first use
/// from bytes the command line draws); the core only computes with it.
public struct DigestKey: Sendable {
    /// The secret bytes.
    let secret: [UInt8]

    /// A key over `secret` (32 random bytes in use).
    public init(secret: [UInt8]) {
        self.secret = secret
    }

    /// Characters of a token: 8 of base32, 40 bits of the MAC.
    public static let tokenLength = 8

    /// RFC 4648 base32, lower case: no characters that a mail app or a URL changes.
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    /// The token of `verb` (`done`, `tomorrow`) on record `id` of `kind`
    /// (`Reminder.kindFolder`, `QueueEntry.kindFolder`).
    public func token(verb: String, kind: String, id: String) -> String {
        Self.base32(mac("triage-command-1\u{0}" + verb + "\u{0}" + kind + "\u{0}" + id), length: Self.tokenLength)
    }

    /// Whether `token` is the token of `verb` on that record.
    public func verify(_ token: String, verb: String, kind: String, id: String) -> Bool {
        HMACSHA256.equal(Array(token.lowercased().utf8), Array(self.token(verb: verb, kind: kind, id: id).utf8))
    }

    /// The MAC that ends a digest's Message-ID: over the rest of its local part.
    public func messageIDMAC(_ base: String) -> String {
        Self.base32(mac("triage-digest-id-1\u{0}" + base), length: 16)
    }

    /// Whether `messageID` (without brackets) is one of a digest this key made:
    /// `digest-…​.MAC@triage.invalid` with a MAC that verifies.
    public func isDigestMessageID(_ messageID: String) -> Bool {
        let suffix = "@" + DigestMessageBuilder.messageIDDomain
        guard messageID.lowercased().hasSuffix(suffix) else { return false }
        let local = String(messageID.dropLast(suffix.count))
        guard local.hasPrefix("digest-"), let dot = local.lastIndex(of: ".") else { return false }
        let base = String(local[..<dot]), mac = String(local[local.index(after: dot)...])
        return HMACSHA256.equal(Array(mac.utf8), Array(messageIDMAC(base).utf8))
    }

    private func mac(_ text: String) -> [UInt8] {
        HMACSHA256.mac(key: secret, message: Array(text.utf8))
    }

    /// The first `length` base32 characters of `bytes`.
    static func base32(_ bytes: [UInt8], length: Int) -> String {
        var out: [UInt8] = []
        var buffer = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 && out.count < length {
                out.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
            buffer &= (1 << bits) - 1
            if out.count == length { break }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
