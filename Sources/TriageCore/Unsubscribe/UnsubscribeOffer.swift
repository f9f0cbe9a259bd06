import Foundation

/// What a message offers to unsubscribe with, as the digest entry keeps it (the
/// `unsubscribe` object of a record's `message`): its `List-Unsubscribe` URIs
/// (RFC 2369; the first `https:` and the first `mailto:`), whether it offers
/// RFC 8058 one-click, and whether the user's own server vouched for a DKIM
/// signature covering both fields. Decided when the message is read (the digest,
/// and the unsubscribe, come later), from `UnsubscribeHeaders`.
public struct UnsubscribeOffer: Hashable, Sendable, Decodable {
    /// The first `https:` URI of `List-Unsubscribe`.
    public var https: String?
    /// The first `mailto:` URI.
    public var mailto: String?
    /// Whether `List-Unsubscribe-Post: List-Unsubscribe=One-Click` was there.
    public var oneClick: Bool
    /// Whether the account's server vouched (Authentication-Results with the
    /// account's `authserv_id`) for a DKIM signature of the From domain that covers
    /// `List-Unsubscribe` and `List-Unsubscribe-Post`.
    public var dkimPass: Bool
    /// Why, in words: `pass: d=news.example signed both fields (mx.example.net)`, or
    /// what was missing.
    public var dkim: String

    enum CodingKeys: String, CodingKey {
        case https, mailto
        case oneClick = "one_click"
        case dkimPass = "dkim_pass"
        case dkim
    }

    /// Creates an offer from its fields.
    public init(https: String? = nil, mailto: String? = nil, oneClick: Bool = false, dkimPass: Bool = false, dkim: String = "") {
        self.https = https
        self.mailto = mailto
        self.oneClick = oneClick
        self.dkimPass = dkimPass
        self.dkim = dkim
    }

    /// The offer of `headers` of a message from `fromAddress`, on an account whose
    /// server writes `authservID`; nil when `List-Unsubscribe` holds no usable URI.
    public init?(_ headers: UnsubscribeHeaders, fromAddress: String?, authservID: String?) {
        let uris = Self.uris(headers.listUnsubscribe)
        https = uris.first { $0.lowercased().hasPrefix("https://") }
        mailto = uris.first { $0.lowercased().hasPrefix("mailto:") }
        guard https != nil || mailto != nil else { return nil }
        oneClick = headers.post.map { $0.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == "list-unsubscribe=one-click" } ?? false
        let verdict = Self.dkimVerdict(headers, fromAddress: fromAddress, authservID: authservID)
        dkimPass = verdict.pass
        dkim = verdict.reason
    }

    /// Whether the next run may POST to `https` (RFC 8058): offered, and vouched for.
    public var allowsOneClick: Bool { oneClick && dkimPass && https != nil }

    /// The longest URI kept, in bytes.
    public static let uriLimit = 2048

    /// The `<...>` URIs of a `List-Unsubscribe` value, whitespace (folding) removed;
    /// a URI with a control character, a space or a quote left in it, or longer than
    /// `uriLimit`, is left out.
    public static func uris(_ value: String) -> [String] {
        var result: [String] = []
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let uri = String(rest[rest.index(after: open)..<close].filter { $0 != " " && $0 != "\t" && $0 != "\r" && $0 != "\n" })
            rest = rest[rest.index(after: close)...]
            guard !uri.isEmpty, uri.utf8.count <= uriLimit,
                  uri.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "<" && $0 != ">" && $0 != "\\" })
            else { continue }
            result.append(uri)
        }
        return result
    }

    /// Whether the account's server vouched for a DKIM signature aligned with the
    /// From domain that covers both unsubscribe fields, and why (RFC 8601, RFC 8058 §4).
    ///
    /// Only the topmost `Authentication-Results` fields count, and only while their
    /// authserv-id is `authservID` (compared without case): the run ends at the first
    /// field another host added, so a field a sender wrote (below the trace of every
    /// hop) never counts, whatever id it claims, unless the account's server left it
    /// above its own (RFC 8601 §5 has it remove such fields). Among them a
    /// `dkim=pass` whose `header.d` (or the domain of `header.i`) is the From domain,
    /// a parent of it, or a subdomain of it (relaxed alignment); then the
    /// `DKIM-Signature` of that domain (the one whose `b=` starts with `header.b`,
    /// when given) must list `List-Unsubscribe` and `List-Unsubscribe-Post` in `h=`,
    /// since Authentication-Results does not say what a signature covered. Any other
    /// dkim result among them (`none`, or one for the From domain that is not `pass`)
    /// vetoes: a pass beside it was not the server's.
    public static func dkimVerdict(_ headers: UnsubscribeHeaders, fromAddress: String?, authservID: String?) -> (pass: Bool, reason: String) {
        guard let authservID, !authservID.isEmpty else {
            return (false, "no authserv_id is set for the account: its server's Authentication-Results cannot be told from a sender's")
        }
        guard let from = fromAddress, let at = from.lastIndex(of: "@") else { return (false, "the message has no From address") }
        let fromDomain = from[from.index(after: at)...].lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        var trusted: [AuthenticationResults] = []
        for value in headers.authenticationResults {
            guard let ar = AuthenticationResults(value), ar.authservID.lowercased() == authservID.lowercased() else { break }
            trusted.append(ar)
        }
        guard !trusted.isEmpty else {
            return (false, "the topmost Authentication-Results is not from \(authservID)")
        }
        // A server that found no signature (dkim=none) or a failing one for the From
        // domain contradicts any pass beside it: one of them is not the server's.
        let dkimResults = trusted.flatMap(\.results).filter { $0.method == "dkim" }
        if let contrary = dkimResults.first(where: { result in
            guard result.result != "pass" else { return false }
            guard let d = result.properties["header.d"]?.lowercased() else { return true }
            return aligned(d, fromDomain)
        }) {
            return (false, "\(authservID) reports dkim=\(contrary.result) for the From domain \(fromDomain)")
        }
        let signatures = headers.dkimSignatures.compactMap(DKIMSignatureTags.init)
        var sawPass = false
        for result in trusted.flatMap(\.results) where result.method == "dkim" && result.result == "pass" {
            let d = result.properties["header.d"]?.lowercased()
                ?? result.properties["header.i"].flatMap { i in i.lastIndex(of: "@").map { String(i[i.index(after: $0)...]).lowercased() } }
            guard let d, aligned(d, fromDomain) else { continue }
            sawPass = true
            let b = result.properties["header.b"]?.filter { !$0.isWhitespace }
            for signature in signatures where signature.domain == d {
                if let b, !b.isEmpty, !signature.signature.hasPrefix(b) { continue }
                let covered = Set(signature.signedHeaders)
                if covered.contains("list-unsubscribe") && covered.contains("list-unsubscribe-post") {
                    return (true, "pass: d=\(d) signed List-Unsubscribe and List-Unsubscribe-Post (\(authservID))")
                }
            }
        }
        if sawPass { return (false, "the DKIM signature \(authservID) passed does not cover List-Unsubscribe and List-Unsubscribe-Post") }
        return (false, "\(authservID) reports no dkim=pass for the From domain \(fromDomain)")
    }

    /// Relaxed alignment: the same domain, or one under the other (never a bare top-level domain).
    static func aligned(_ d: String, _ fromDomain: String) -> Bool {
        guard d.contains("."), !fromDomain.isEmpty else { return false }
        return d == fromDomain || fromDomain.hasSuffix("." + d) || d.hasSuffix("." + fromDomain)
    }

    /// Ordered JSON, the keys of the record file.
    public var json: JSONValue {
        .object([("https", .optional(https)), ("mailto", .optional(mailto)), ("one_click", .bool(oneClick)),
                 ("dkim_pass", .bool(dkimPass)), ("dkim", .string(dkim))])
    }
}
