import Foundation

/// The tags of a `DKIM-Signature` field (RFC 6376 §3.2) that tell what a
/// signature covers: its domain (`d=`) and signed header fields (`h=`). It is not
/// verified here: the user's server did that, and said so in Authentication-Results.
public struct DKIMSignatureTags: Sendable, Hashable {
    /// `d=`, lower-cased.
    public var domain: String
    /// `h=`, each name lower-cased and trimmed.
    public var signedHeaders: [String]
    /// `b=` without whitespace, to tell two signatures of one domain apart (`header.b`).
    public var signature: String

    /// Reads a field value; nil without `d=`.
    public init?(_ value: String) {
        var tags: [String: String] = [:]
        for part in value.split(separator: ";") {
            guard let eq = part.firstIndex(of: "=") else { continue }
            let name = part[..<eq].filter { !$0.isWhitespace }.lowercased()
            if tags[name] == nil { tags[name] = String(part[part.index(after: eq)...]) }
        }
        guard let d = tags["d"]?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased(), !d.isEmpty else { return nil }
        domain = d
        signedHeaders = (tags["h"] ?? "").split(separator: ":").map { $0.filter { !$0.isWhitespace }.lowercased() }
        signature = (tags["b"] ?? "").filter { !$0.isWhitespace }
    }
}
