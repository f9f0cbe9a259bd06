import Foundation

/// Turns a rendered digest into an `OutgoingMail` with the configured sender and
/// recipients, the Date of the injected `now`, and a Message-ID derived from
/// the day and the recipients.
///
/// The Message-ID is the same for every attempt to send one day's digest to
/// one recipient (`<digest-2026-11-30.1a2b3c4d5e6f@triage.invalid>`), so a send
/// retried after an interrupted run is recognisable as the same message (and
/// `file:` delivery replaces its file). A deliberate resend (`--force`) gets a
/// `.rSECONDS` suffix: it is a new message, and clients that drop duplicate
/// Message-IDs (Gmail does) still show it. With a `key`, a MAC of all that ends
/// the local part, so that a reply to the digest proves which digest it answers.
public struct DigestMessageBuilder: Sendable {
    /// The domain of generated Message-IDs (RFC 6761 reserves `.invalid`, so it
    /// can never clash with a real host's ids).
    public static let messageIDDomain = "triage.invalid"

    /// `From`, as configured (`addr` or `Name <addr>`).
    public var from: String
    /// `To`, as configured (one or more, comma-separated).
    public var to: String
    /// The zone of the Date header's offset.
    public var timeZone: TimeZone
    /// With a key the Message-ID ends in a MAC (`.MAC@triage.invalid`), by which a
    /// reply to the digest is recognised (`DigestKey.isDigestMessageID`).
    public var key: DigestKey?

    /// Creates a builder.
    public init(from: String, to: String, timeZone: TimeZone) {
        self.from = from
        self.to = to
        self.timeZone = timeZone
    }

    /// The Message-ID (without brackets) of `day`'s digest; `resend` marks a forced
    /// resend at that instant.
    public func messageID(day: CivilDate, resend: Date? = nil) -> String {
        let recipients = Self.addresses(to).map { $0.address.lowercased() }.sorted().joined(separator: ",")
        let hash = SHA256.hex("triage-digest-1\u{0}" + day.iso + "\u{0}" + recipients).prefix(12)
        let suffix = resend.map { ".r" + String(Int64($0.timeIntervalSince1970.rounded(.down))) } ?? ""
        let base = "digest-\(day.iso).\(hash)\(suffix)"
        return base + (key.map { "." + $0.messageIDMAC(base) } ?? "") + "@\(Self.messageIDDomain)"
    }

    /// The message for `digest` of `day`, dated `now`.
    public func mail(_ digest: RenderedDigest, day: CivilDate, now: Date, resend: Bool = false) -> OutgoingMail {
        let stamp = Timestamp(now, timeZone: timeZone)
        let sender = Self.addresses(from).first ?? Address(address: from)
        var mail = OutgoingMail(
            from: sender, to: Self.addresses(to), subject: digest.subject,
            date: MessageDate(secondsSince1970: stamp.secondsSince1970, utcOffsetSeconds: stamp.utcOffsetSeconds),
            messageID: messageID(day: day, resend: resend ? now : nil),
            textBody: digest.text, htmlBody: digest.html,
            extraHeaders: [
                // RFC 3834: machine-made, so vacation responders stay quiet.
                HeaderField("Auto-Submitted", "auto-generated"),
                HeaderField("X-Triage-Digest", day.iso),
            ])
        // Replies go to the user's first address, which triage reads, whatever `from`
        // is (mail apps answer `Reply-To` when there is one, else `From`).
        mail.replyTo = Self.addresses(to).first
        return mail
    }

    /// Parses a configured address list: `a@x, Name <b@y>`. A name is taken as
    /// written; it may not contain a comma.
    public static func addresses(_ text: String) -> [Address] {
        text.split(separator: ",").compactMap { part in
            let item = part.trimmingCharacters(in: .whitespaces)
            guard !item.isEmpty else { return nil }
            if let open = item.lastIndex(of: "<"), item.hasSuffix(">") {
                let address = item[item.index(after: open)..<item.index(before: item.endIndex)]
                var name = item[..<open].trimmingCharacters(in: .whitespaces)
                if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
                return Address(name: name.isEmpty ? nil : name, address: String(address))
            }
            return Address(address: item)
        }
    }
}
