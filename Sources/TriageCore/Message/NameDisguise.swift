import Foundation

/// What a display name shows that looks like an address or a domain.
///
/// A display name is free text the sender writes: `"statements@bank.example"
/// <secure-9@evil.example>` shows the reader a bank's address while the mail
/// comes from elsewhere. So address and domain terms never look at such parts of
/// a name (`MessageIndex`), and `is:impersonating` finds a name that shows a
/// domain other than the address's own.
///
/// A part of a name (split at white space and at `"()<>[]{},;:/\|`, with
/// punctuation such as a final `.` trimmed) **shows a domain** when it is
/// - an address `local@host`, or `@host`, where host is a hostname as below; or
/// - a hostname: two or more labels joined by dots, each of letters (any script),
///   digits and inner `-`, at most 63 characters, whose last label is a known-looking
///   top-level domain: two ASCII letters (country-code shaped), one of `genericTLDs`,
///   an IDNA `xn--` label, or two or more letters none of which is ASCII (`рф`, `中国`).
///
/// Domains are compared lower-cased, after NFKC (full-width `＠` and `．` are `@`
/// and `.`), with the ideographic full stops `。` `｡` as dots and `xn--` labels
/// decoded (Punycode), so `bänk.example` and `xn--bnk-sna.example` are one domain.
public enum NameDisguise {
    /// One part of a name that shows a domain.
    public struct Shown: Hashable, Sendable {
        /// Where it stands in the name.
        public var range: Range<String.Index>
        /// The domain it shows, in the compared form (lower-case, Unicode labels).
        public var domain: String
    }

    /// Top-level domains other than the two-letter ones that make a dotted word look
    /// like a host name: the original ones, the new ones mail most often comes from,
    /// and the names reserved for examples and tests (RFC 2606, RFC 6761).
    static let genericTLDs: Set<String> = [
        "com", "org", "net", "edu", "gov", "mil", "int", "info", "biz", "name", "pro", "mobi", "aero", "asia",
        "coop", "jobs", "museum", "tel", "travel", "post", "arpa",
        "app", "dev", "page", "blog", "shop", "store", "online", "site", "website", "tech", "xyz", "top", "club",
        "live", "email", "cloud", "digital", "support", "services", "help", "link", "click", "center",
        "world", "today", "news", "media", "network", "solutions", "company", "agency", "bank", "insurance",
        "finance", "financial", "money", "credit", "loan", "loans", "cash", "capital", "fund", "exchange",
        "trade", "trading", "market", "markets", "hosting", "icu", "vip", "win", "bid", "work", "ltd", "inc",
        "llc", "gmbh", "group", "global", "zone", "fyi", "lol", "best", "fun", "art", "design", "studio",
        "tools", "software", "systems", "social", "chat", "video", "google", "amazon", "apple", "microsoft",
        "example", "test", "invalid", "localhost", "local", "onion", "internal",
    ]

    /// The parts of `name` that show a domain, in order.
    public static func shown(in name: String) -> [Shown] {
        // Most names have no dot, no `@` and no non-ASCII letter: nothing to look at.
        guard name.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "@") || $0 >= 0x80 }) else { return [] }
        var result: [Shown] = []
        let scalars = name.unicodeScalars
        var start: String.Index?
        var i = scalars.startIndex
        while i < scalars.endIndex {
            if isSeparator(scalars[i]) {
                if let s = start, let found = candidate(name, s..<i) { result.append(found) }
                start = nil
            } else if start == nil {
                start = i
            }
            i = scalars.index(after: i)
        }
        if let s = start, let found = candidate(name, s..<scalars.endIndex) { result.append(found) }
        return result
    }

    /// The first domain `name` shows that is neither the domain of `address` nor a
    /// parent or subdomain of it (`bank.example` for `mail.bank.example` is the same
    /// sender); nil when the name shows none.
    public static func foreignDomain(name: String?, address: String) -> String? {
        guard let name, !name.isEmpty else { return nil }
        return foreignDomain(shown(in: name), address: address)
    }

    /// The first of `shownDomains` that is not related to the domain of `address`.
    static func foreignDomain(_ shownDomains: [Shown], address: String) -> String? {
        if shownDomains.isEmpty { return nil }
        let real = address.lastIndex(of: "@").map { canonical(address[address.index(after: $0)...]) } ?? ""
        for part in shownDomains where !related(part.domain, real) { return part.domain }
        return nil
    }

    /// Whether two domains in compared form are one, or one lies under the other.
    static func related(_ a: String, _ b: String) -> Bool {
        guard !a.isEmpty, !b.isEmpty else { return false }
        return a == b || a.hasSuffix("." + b) || b.hasSuffix("." + a)
    }

    /// A domain in compared form: NFKC, ideographic dots as dots, lower-case,
    /// `xn--` labels decoded, no final dot.
    static func canonical(_ domain: Substring) -> String {
        var text = String(domain)
        if text.utf8.contains(where: { $0 >= 0x80 }) {
            text = text.precomposedStringWithCompatibilityMapping
            text = String(String.UnicodeScalarView(text.unicodeScalars.map { isDot($0) ? "." : $0 }))
        }
        text = text.lowercased()
        while text.hasSuffix(".") { text.removeLast() }
        guard text.contains("xn--") else { return text }
        return text.split(separator: ".", omittingEmptySubsequences: false)
            .map { Punycode.decodeLabel($0)?.lowercased() ?? String($0) }
            .joined(separator: ".")
    }

    /// The part of `name` in `range`, trimmed, if it shows a domain.
    private static func candidate(_ name: String, _ range: Range<String.Index>) -> Shown? {
        let scalars = name.unicodeScalars
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, isTrimmed(scalars[lower]) { lower = scalars.index(after: lower) }
        while lower < upper, isTrimmed(scalars[scalars.index(before: upper)]) { upper = scalars.index(before: upper) }
        guard lower < upper,
              scalars[lower..<upper].contains(where: { $0 == "." || $0 == "@" || mayReadAsDotOrAt($0) }) else { return nil }
        var text = String(scalars[lower..<upper])
        if text.utf8.contains(where: { $0 >= 0x80 }) {
            // Full-width forms and ideographic dots read as '@' and '.'.
            text = text.precomposedStringWithCompatibilityMapping
            text = String(String.UnicodeScalarView(text.unicodeScalars.map { isDot($0) ? "." : $0 }))
        }
        var host = Substring(text)
        if let at = text.lastIndex(of: "@") { host = text[text.index(after: at)...] }
        guard isHostname(host) else { return nil }
        return Shown(range: lower..<upper, domain: canonical(host))
    }

    /// Two or more labels of letters, digits and inner hyphens, the last one a known-looking TLD.
    static func isHostname(_ host: Substring) -> Bool {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, host.count <= 253 else { return false }
        for label in labels {
            guard !label.isEmpty, label.count <= 63, label.first != "-", label.last != "-",
                  label.unicodeScalars.allSatisfy(isLabelScalar) else { return false }
        }
        let tld = labels[labels.count - 1]
        if tld.utf8.allSatisfy({ $0 < 0x80 }) {
            let lower = tld.lowercased()
            if lower.hasPrefix("xn--") { return Punycode.decodeLabel(tld) != nil }
            guard lower.utf8.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else { return false }
            return lower.count == 2 || genericTLDs.contains(lower)
        }
        // A top-level domain of another script (рф, 中国): letters, none of them ASCII,
        // so a dotted German or French word (Müller.Bäckerei) is no domain.
        return tld.count >= 2 && tld.unicodeScalars.allSatisfy { !$0.isASCII && ($0.properties.isAlphabetic || isMark($0)) }
    }

    private static func isLabelScalar(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII {
            let b = UInt8(s.value)
            return (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-")
        }
        return s.properties.isAlphabetic || s.properties.numericType != nil || isMark(s)
    }

    private static func isMark(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// The IDNA label separators besides '.' (UTS 46): ideographic, full-width and half-width full stops.
    private static func isDot(_ s: Unicode.Scalar) -> Bool {
        s.value == 0x3002 || s.value == 0xFF0E || s.value == 0xFF61
    }

    /// Scalars NFKC turns into '.' or '@' (small and full-width forms, the one-dot
    /// leader), and the ideographic full stops: checked before normalising a part.
    private static func mayReadAsDotOrAt(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x2024, 0x3002, 0xFE52, 0xFE6B, 0xFF0E, 0xFF20, 0xFF61: return true
        default: return false
        }
    }

    private static func isSeparator(_ s: Unicode.Scalar) -> Bool {
        // ASCII's White_Space characters are TAB...CR and space: no Unicode table lookup for them.
        if s.value < 0x80 {
            if s.value == 0x20 || (0x09...0x0D).contains(s.value) { return true }
        } else if s.properties.isWhitespace {
            return true
        }
        switch s {
        case "\"", "(", ")", "<", ">", "[", "]", "{", "}", ",", ";", ":", "/", "\\", "|": return true
        default: return false
        }
    }

    /// Punctuation around a part that is not part of what it shows (`bank.example.`, `'x@y.test'`).
    private static func isTrimmed(_ s: Unicode.Scalar) -> Bool {
        switch s {
        case ".", "!", "?", "'", "*", "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{00AB}", "\u{00BB}": return true
        default: return isDot(s)
        }
    }
}
