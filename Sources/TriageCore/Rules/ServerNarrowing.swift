/// Which messages a run must fetch at all, decided before fetching: the server's
/// `UID SEARCH` picks a superset of the messages some rule with actions can match,
/// and triage's own matcher then decides on those, so narrowing never changes a
/// decision (docs/run.md, "Narrowing on the server").
///
/// A rule with actions is pushed down by a positive address term its query needs:
/// a conjunct `from:`, `to:`, `cc:` or `bcc:` whose value is `me`, a whole address,
/// an `@domain`, or a wildcard that can only match an address (it has `@` or `.`).
/// Every message the rule matches has that value, in some case, in that header's
/// address, so a server that matches substrings without case finds it. Never pushed:
/// negated terms (`-to:me`), display-name words (`from:john`, `from:john.smith`: an
/// RFC 2047 name, folding and Unicode case rules differ between servers), and
/// anything not ASCII. A rule whose actions are only `stop` needs no candidates:
/// it only removes actions. One rule with actions and nothing to push down
/// means every message is fetched.
public struct ServerNarrowing: Hashable, Sendable {
    /// The condition the server searches with, nil when every message must be fetched.
    public var key: SearchKey?
    /// Why not, when `key` is nil (for `--verbose` and `check --connect`).
    public var reason: String?

    /// Narrows by `key`.
    public init(key: SearchKey) {
        self.key = key.simplified
        reason = nil
    }

    /// Fetches everything, because of `reason`.
    public init(everything reason: String) {
        key = nil
        self.reason = reason
    }

    /// The narrowing `rules` allow, with `me` meaning `identities`.
    public static func plan(_ rules: [CompiledRule], identities: [String]) -> ServerNarrowing {
        var keys: [SearchKey] = []
        for rule in rules where rule.actions.contains(where: { $0 != .stop }) {
            guard let key = key(for: rule.queryNode, identities: identities) else {
                return ServerNarrowing(everything: "rule \"\(rule.name)\" can match mail from and to anyone, as far as "
                    + "the server can tell (it needs a from:, to:, cc: or bcc: with a whole address, @domain or me; "
                    + "not negated, plain ASCII), so the server cannot pick out its messages")
            }
            keys.append(key)
        }
        guard !keys.isEmpty else { return ServerNarrowing(everything: "no rule has actions") }
        return ServerNarrowing(key: .or(keys))
    }

    /// The narrowing of compiled rules.
    public static func plan(_ rules: CompiledRules) -> ServerNarrowing {
        plan(rules.rules, identities: rules.environment.identities)
    }

    /// Adds `extra` (e.g. the digest's command messages): the search finds either.
    public func adding(_ extra: SearchKey) -> ServerNarrowing {
        guard let key else { return self }
        return ServerNarrowing(key: .or([key, extra]))
    }

    /// A condition every message matching `query` meets, or nil when there is none
    /// to push down: a conjunction needs one pushable conjunct (the first is taken),
    /// a disjunction needs every branch pushable.
    static func key(for query: QueryNode, identities: [String]) -> SearchKey? {
        query.fold(
            term: { term in
                guard case .address(let field, let pattern) = term.predicate, let header = QueryOperator[field].search else { return nil }
                guard let values = values(pattern, identities: identities), !values.isEmpty else { return nil }
                return values.count == 1 ? .header(header, values[0]) : .or(values.map { .header(header, $0) })
            },
            and: { items in items.lazy.compactMap(\.value).first },
            or: { items in
                var keys: [SearchKey] = []
                for item in items {
                    guard let key = item.value else { return nil }
                    keys.append(key)
                }
                return keys.isEmpty ? nil : .or(keys)
            },
            not: { _ in nil },
            invalid: { nil })
    }

    /// Substrings every address the pattern matches has (any one of them, for `me`).
    static func values(_ pattern: AddressPattern, identities: [String]) -> [String]? {
        switch pattern {
        case .me:
            let all = identities.map { $0.lowercased() }
            return all.allSatisfy(isSafe) ? all : nil
        case .address(let address):
            return isSafe(address) ? [address] : nil
        case .domain(let domain):
            // Any address at the domain or a subdomain has it after its `@` or a dot.
            return isSafe(domain) ? [domain] : nil
        case .glob(let glob):
            // A word never holds `@` or `.`: such a pattern can only match the address.
            guard glob.utf8.contains(where: { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: ".") }) else { return nil }
            let longest = glob.split(separator: "*").map(String.init).max { $0.utf8.count < $1.utf8.count }
            guard let longest, longest.utf8.count >= 2, isSafe(longest) else { return nil }
            return [longest]
        case .domainOrWords, .words:
            return nil
        }
    }

    /// ASCII letters, digits and the punctuation of plain addresses: the same
    /// bytes in every case folding, and nothing to quote but the value itself.
    static func isSafe(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            case UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "@"),
                 UInt8(ascii: "="):
                return true
            default:
                return false
            }
        }
    }
}
