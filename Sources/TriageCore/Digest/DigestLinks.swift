/// What the digest links to: the Done and Tomorrow `mailto:` links (to the
/// user's own address, with a subject carrying a `DigestKey` token) and each
/// message in the mail app that holds it.
public struct DigestLinks: Sendable {
    /// The user's address, where command messages go; nil for no mailto links.
    public var address: String?
    /// The key of the tokens; nil for no mailto links.
    public var key: DigestKey?
    /// Accounts (configuration names) on Gmail: their messages link to Gmail's web search.
    public var gmailAccounts: Set<String>

    /// Creates the links.
    public init(address: String? = nil, key: DigestKey? = nil, gmailAccounts: Set<String> = []) {
        self.address = address
        self.key = key
        self.gmailAccounts = gmailAccounts
    }

    /// The subject of a command link: `triage: done 0162 7kq3m9x2`.
    public static func subject(verb: String, shortID: String, token: String) -> String {
        "triage: \(verb) \(shortID) \(token)"
    }

    /// The `mailto:` link of `verb` on a record, or nil without address and key.
    public func mailto(verb: String, kind: String, id: String, shortID: String) -> String? {
        guard let address, let key else { return nil }
        let subject = Self.subject(verb: verb, shortID: shortID, token: key.token(verb: verb, kind: kind, id: id))
        // RFC 6068: the address as it is (it holds no reserved characters but @), hfvalues percent-encoded.
        return "mailto:" + Self.percentEncoded(address, keeping: "@.+-_") + "?subject=" + Self.percentEncoded(subject)
    }

    /// The Unsubscribe link of a digest entry (`triage: unsubscribe 1a2b TOKEN`, to
    /// the user's address): its `mailto:` URL and its subject (the text part spells
    /// the subject out); nil without address and key.
    public func unsubscribe(id: String, shortID: String) -> (mailto: String, subject: String)? {
        guard let key, let mailto = mailto(verb: "unsubscribe", kind: DigestEntry.kindFolder, id: id, shortID: shortID)
        else { return nil }
        let subject = Self.subject(verb: "unsubscribe", shortID: shortID,
                                   token: key.token(verb: "unsubscribe", kind: DigestEntry.kindFolder, id: id))
        return (mailto, subject)
    }

    /// Where a message opens: Gmail's web search by `rfc822msgid:` for Gmail
    /// accounts, else a `message:` URL (Apple Mail) of the bracketed Message-ID,
    /// percent-encoded as RFC 2392 writes Message-IDs in URLs. Nil without a Message-ID.
    public func messageLink(_ summary: MessageSummary?) -> String? {
        guard let summary, let id = summary.messageID, !id.isEmpty else { return nil }
        if let account = summary.account, gmailAccounts.contains(account) {
            return "https://mail.google.com/mail/u/0/#search/" + Self.percentEncoded("rfc822msgid:" + id)
        }
        return "message:" + Self.percentEncoded("<" + id + ">")
    }

    /// A `geo:` URI (RFC 5870) of a place, with its radius as the uncertainty.
    public static func geo(_ place: Place) -> String {
        "geo:" + DigestFormat.number(place.latitude, decimals: 6) + "," + DigestFormat.number(place.longitude, decimals: 6)
            + ";u=" + String(Int(place.radiusMeters.rounded()))
    }

    /// `text` with every byte but unreserved ones (RFC 3986) and `keeping` as `%XX`.
    static func percentEncoded(_ text: String, keeping: String = "") -> String {
        let keep = Set(keeping.utf8)
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case _ where keep.contains(byte):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                out += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
            }
        }
        return out
    }
}
