/// Labels as IMAP keywords, reversibly.
///
/// An IMAP keyword must be an atom: printable ASCII without space and without
/// `( ) { % * " \ ]`. libetpan sends keywords as they are, so `no push` would become
/// two keywords, `no` and `push`. Labels are therefore spelled as people read them,
/// escaping only what cannot be in an atom:
///
/// - *Plain* characters (printable ASCII other than space, the atom-specials above,
///   and `+`) stand for themselves: `receipts` ↔ `receipts`.
/// - A space is written `_`, which every client shows readably: `no push` → `no_push`
///   (`label:` treats space, `_`, `-` and `/` alike, so `label:"no push"` finds it;
///   the keyword `no_push` reads back as the label `no_push`).
/// - Any other byte of the UTF-8 is `+` and two upper-case hex digits:
///   `a+b` ↔ `a+2Bb`, `café` ↔ `caf+C3+A9`.
///
/// - A label whose encoding would be longer than `maxKeywordBytes` (servers refuse
///   longer keywords: Dovecot's `mail_max_keyword_length` is 50) is shortened: the
///   longest prefix of whole characters whose encoding fits in 33 bytes, then `…`
///   (`+E2+80+A6`), then the first 8 hex digits of the SHA-256 of the label with
///   ASCII letters lower-cased: `{from.name}` of "Dr. Maximiliane Müller-Lüdenscheidt
///   von Hohenzollern-Sigmaringen" is stored as `Dr._Maximiliane_M+C3+BCller-L+E2+80+A6`
///   and 8 hex digits (46 bytes: the next letter, `ü`, takes 6), read back as the label
///   `Dr._Maximiliane_Müller-L…` and the digits. Different long labels keep
///   different keywords (unless they collide in 32 bits), and the same label always
///   gives the same one.
///
/// Reading back, a keyword is decoded only when it is exactly the encoding of some
/// label (well-formed escapes, valid UTF-8, canonical); any other keyword, such as
/// `$Forwarded` or a foreign `C++`, is taken as it is.
///
/// Earlier versions of triage wrote a space as `+20` (`no+20push`, the *legacy* spelling,
/// `legacyKeyword(for:)`). Such keywords still read back as the label they stood for
/// (`no+20push` → `no push`), `same(_:_:)` takes either spelling as the same label, so a
/// rerun adds no `no_push` next to `no+20push`, and removing a label removes both
/// spellings (`keywords(for:)`).
///
/// IMAP keywords are case-insensitive and some servers (Cyrus, Courier) keep the
/// case a keyword was first set in: `same(_:_:)` compares labels as the keywords
/// they become, ASCII case ignored.
public enum LabelCodec {
    /// The longest keyword triage sends, in bytes: Dovecot's default
    /// `mail_max_keyword_length`, the lowest limit among common servers.
    public static let maxKeywordBytes = 50
    /// How many hex digits of the label's hash end a shortened keyword.
    static let hashDigits = 8
    /// What stands between a shortened label's prefix and its hash: `…`.
    static let ellipsis = "\u{2026}"

    /// The escape character.
    public static let escape: UInt8 = UInt8(ascii: "+")

    /// Whether a byte may stand for itself in an encoded keyword.
    public static func isPlain(_ byte: UInt8) -> Bool {
        guard byte > 0x20, byte < 0x7F else { return false }
        switch byte {
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "{"), UInt8(ascii: "%"), UInt8(ascii: "*"),
             UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "]"), escape:
            return false
        default:
            return true
        }
    }

    /// The keyword for a label (shortened when too long; see the type's
    /// documentation), or nil for the empty label (no keyword can be empty).
    public static func keyword(for label: String) -> String? {
        keyword(for: label, legacy: false)
    }

    /// The keyword an earlier triage wrote for a label: a space as `+20`, shortened
    /// the same way (a space counting 3 bytes). Read back as the same label.
    public static func legacyKeyword(for label: String) -> String? {
        keyword(for: label, legacy: true)
    }

    /// Every spelling a label may have on the server (current first, then legacy
    /// when it differs): what removing the label removes.
    public static func keywords(for label: String) -> [String] {
        guard let current = keyword(for: label) else { return [] }
        guard let old = legacyKeyword(for: label), old != current else { return [current] }
        return [current, old]
    }

    private static func keyword(for label: String, legacy: Bool) -> String? {
        guard !label.isEmpty else { return nil }
        let full = encode(label.utf8, legacy: legacy)
        if full.count <= maxKeywordBytes { return String(decoding: full, as: UTF8.self) }
        return String(decoding: encode(shortened(label, legacy: legacy).utf8, legacy: legacy), as: UTF8.self)
    }

    /// The label as it reads back from the server: the label itself when its keyword
    /// fits, else its shortened form (prefix, `…`, hash).
    public static func stored(_ label: String) -> String {
        guard encodedLength(label.utf8) > maxKeywordBytes else { return label }
        return shortened(label)
    }

    /// Whether two labels are the same keyword on the server: equal once encoded
    /// (and shortened), ASCII case ignored, as IMAP compares keywords; in the current
    /// or in the legacy spelling, so a label read back from an old `+20` keyword is the
    /// label it stood for.
    public static func same(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        return sameIgnoringCase(keyword(for: a), keyword(for: b))
            || sameIgnoringCase(legacyKeyword(for: a), legacyKeyword(for: b))
    }

    private static func sameIgnoringCase(_ a: String?, _ b: String?) -> Bool {
        guard let x = a, let y = b, x.utf8.count == y.utf8.count else { return false }
        return zip(x.utf8, y.utf8).allSatisfy { asciiLower($0) == asciiLower($1) }
    }

    /// Whether a label fits in one keyword without shortening.
    public static func fits(_ label: String) -> Bool {
        !label.isEmpty && encodedLength(label.utf8) <= maxKeywordBytes
    }

    /// The length of a label's keyword before any shortening.
    public static func encodedLength(_ label: String) -> Int { encodedLength(label.utf8) }

    private static func encodedLength(_ bytes: String.UTF8View, legacy: Bool = false) -> Int {
        bytes.reduce(0) { $0 + (isPlain($1) || (!legacy && $1 == space) ? 1 : 3) }
    }

    private static let space = UInt8(ascii: " ")
    /// How a space is written in the current spelling.
    private static let spaceStandIn = UInt8(ascii: "_")

    private static func encode(_ bytes: String.UTF8View, legacy: Bool) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for byte in bytes {
            if isPlain(byte) {
                out.append(byte)
            } else if byte == space, !legacy {
                out.append(spaceStandIn)
            } else {
                out += [escape, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return out
    }

    /// Prefix of whole characters, `…`, and a hash of the whole label: fits in
    /// `maxKeywordBytes` once encoded.
    private static func shortened(_ label: String, legacy: Bool = false) -> String {
        let digest = SHA256.hex(bytes: SHA256.hash(label.utf8.map(asciiLower)))
        let suffix = ellipsis + digest.prefix(hashDigits)
        var room = maxKeywordBytes - encodedLength(suffix.utf8, legacy: legacy)
        var prefix = ""
        for character in label {
            let cost = encodedLength(String(character).utf8, legacy: legacy)
            guard cost <= room else { break }
            prefix.append(character)
            room -= cost
        }
        return prefix + suffix
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte + 32 : byte
    }

    /// The label a keyword stands for (see the type's documentation).
    public static func label(for keyword: String) -> String {
        let bytes = Array(keyword.utf8)
        guard bytes.contains(escape) else { return keyword }
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == escape {
                guard i + 2 < bytes.count, let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) else {
                    return keyword
                }
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        // Canonical in the current spelling (`caf+C3+A9_plans`) or the legacy one (`no+20push`).
        guard let label = String(validating: out, as: UTF8.self),
              Self.keyword(for: label) == keyword || legacyKeyword(for: label) == keyword else {
            return keyword
        }
        return label
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil // lower case is not canonical
        }
    }
}
