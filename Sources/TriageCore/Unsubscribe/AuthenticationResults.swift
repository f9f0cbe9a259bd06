/// One `Authentication-Results` field (RFC 8601) read as far as triage needs it:
/// who added it (the authserv-id) and each method's result with its properties.
/// Comments are dropped, quoted strings unquoted; anything unreadable is left out
/// (a result that cannot be read never vouches for anything).
public struct AuthenticationResults: Sendable, Hashable {
    /// One `method=result` with its properties (`header.d`, `header.i`, `header.b`).
    public struct Result: Sendable, Hashable {
        /// `dkim`, `spf`, `dmarc`, lower-cased, without a version.
        public var method: String
        /// `pass`, `fail`, `none`, ..., lower-cased.
        public var result: String
        /// `header.d` → `news.example`, names lower-cased, values as written.
        public var properties: [String: String]
    }

    /// The authserv-id: the host (or name) of the server that added the field.
    public var authservID: String
    /// The results, in order.
    public var results: [Result]

    /// Reads a field value; nil when it has no authserv-id.
    public init?(_ value: String) {
        let segments = Self.segments(Self.withoutComments(value))
        guard let first = segments.first,
              let id = Self.words(first).first.map(Self.unquoted), !id.isEmpty else { return nil }
        authservID = id
        results = segments.dropFirst().compactMap { segment in
            let words = Self.words(segment)
            guard let head = words.first, let eq = head.firstIndex(of: "=") else { return nil }
            var method = head[..<eq].lowercased()
            if let slash = method.firstIndex(of: "/") { method = String(method[..<slash]) }
            let result = Self.unquoted(String(head[head.index(after: eq)...])).lowercased()
            guard !method.isEmpty, !result.isEmpty else { return nil }
            var properties: [String: String] = [:]
            for word in words.dropFirst() {
                guard let eq = word.firstIndex(of: "="), word[..<eq].contains(".") else { continue }
                let name = word[..<eq].lowercased()
                if properties[name] == nil { properties[name] = Self.unquoted(String(word[word.index(after: eq)...])) }
            }
            return Result(method: method, result: result, properties: properties)
        }
    }

    /// `value` without `( ... )` comments (nested, with quoted pairs), outside quoted strings.
    static func withoutComments(_ value: String) -> String {
        var out = "", depth = 0, quoted = false, escaped = false
        for c in value {
            if escaped { escaped = false; if depth == 0 { out.append(c) }; continue }
            if c == "\\" && (quoted || depth > 0) { escaped = true; if depth == 0 { out.append(c) }; continue }
            if quoted { out.append(c); if c == "\"" { quoted = false }; continue }
            if c == "(" { depth += 1; continue }
            if c == ")" && depth > 0 { depth -= 1; if depth == 0 { out.append(" ") }; continue }
            if depth > 0 { continue }
            if c == "\"" { quoted = true }
            out.append(c)
        }
        return out
    }

    /// The `;`-separated parts, outside quoted strings.
    static func segments(_ value: String) -> [String] {
        var parts: [String] = [], current = "", quoted = false, escaped = false
        for c in value {
            if escaped { escaped = false; current.append(c); continue }
            if c == "\\" && quoted { escaped = true; current.append(c); continue }
            if c == "\"" { quoted.toggle() }
            if c == ";" && !quoted { parts.append(current); current = ""; continue }
            current.append(c)
        }
        parts.append(current)
        return parts
    }

    /// The words of a part, with `a = b` and `header . d` joined (CFWS is allowed there).
    static func words(_ part: String) -> [String] {
        var tokens: [String] = [], current = "", quoted = false
        for c in part {
            if c == "\"" { quoted.toggle() }
            if !quoted && (c == " " || c == "\t" || c == "\r" || c == "\n") {
                if !current.isEmpty { tokens.append(current); current = "" }
                continue
            }
            current.append(c)
        }
        if !current.isEmpty { tokens.append(current) }
        // Join around "=" and "." written with spaces.
        var joined: [String] = []
        for token in tokens {
            if let last = joined.last, last.hasSuffix("=") || last.hasSuffix(".") || token.hasPrefix("=") || token.hasPrefix(".") {
                joined[joined.count - 1] = last + token
            } else {
                joined.append(token)
            }
        }
        return joined
    }

    /// A quoted string's content, else the text as it is.
    static func unquoted(_ text: String) -> String {
        guard text.count >= 2, text.first == "\"", text.last == "\"" else { return text }
        var out = "", escaped = false
        for c in text.dropFirst().dropLast() {
            if escaped { out.append(c); escaped = false } else if c == "\\" { escaped = true } else { out.append(c) }
        }
        return out
    }
}
