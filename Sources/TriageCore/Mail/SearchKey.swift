/// A condition the server's `UID SEARCH` evaluates, to narrow a run to the
/// messages some rule could match (`ServerNarrowing`). Values are ASCII only, so
/// the command needs no CHARSET and a substring-matching server finds every
/// message whose header has the value in any case.
public indirect enum SearchKey: Hashable, Sendable {
    /// An address header field that has `value` as a substring, in any case.
    case header(Field, String)
    /// Any of the keys.
    case or([SearchKey])

    /// The address header fields `SEARCH` has keys for (RFC 3501 6.4.4).
    public enum Field: String, Hashable, Sendable {
        case from = "FROM", to = "TO", cc = "CC", bcc = "BCC"
    }

    /// The key as IMAP writes it (`OR FROM "a" TO "b"`), for `--verbose` and tests.
    public var imap: String {
        switch self {
        case .header(let field, let value):
            return field.rawValue + " \"" + value + "\""
        case .or(let keys):
            // IMAP's OR takes two keys: nest to the right.
            return keys.isEmpty ? "" : Self.nested(keys)
        }
    }

    private static func nested(_ keys: [SearchKey]) -> String {
        if keys.count == 1 { return keys[0].imap }
        return "OR " + keys[0].imap + " " + nested(Array(keys.dropFirst()))
    }

    /// The same condition with duplicates gone and nested ORs flattened.
    public var simplified: SearchKey {
        guard case .or = self else { return self }
        var seen = Set<SearchKey>()
        var flat: [SearchKey] = []
        func add(_ key: SearchKey) {
            if case .or(let keys) = key { keys.forEach(add) } else if seen.insert(key).inserted { flat.append(key) }
        }
        add(self)
        return flat.count == 1 ? flat[0] : .or(flat)
    }
}
