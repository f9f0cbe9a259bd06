import Foundation

/// A `mailto:` URI (RFC 6068) of `List-Unsubscribe` (RFC 2369), read into the
/// message to send: the recipient, and the subject and body its hfields give.
/// Only a single plain address is accepted (a list's unsubscribe address); any
/// other hfield (`cc`, `bcc`, `in-reply-to`...) is ignored, never made a header.
public struct MailtoURI: Sendable, Hashable {
    /// The one recipient.
    public var to: String
    /// The `subject=` hfield, or `unsubscribe`.
    public var subject: String
    /// The `body=` hfield, or `unsubscribe`.
    public var body: String

    /// Reads `uri`; nil when it is not a mailto with exactly one plain address.
    public init?(_ uri: String) {
        guard uri.lowercased().hasPrefix("mailto:") else { return nil }
        let rest = uri.dropFirst("mailto:".count)
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var recipients = parts[0].isEmpty ? [] : parts[0].split(separator: ",").map { Self.decoded($0) }
        var subject: String?, body: String?
        if parts.count > 1 {
            for field in parts[1].split(separator: "&") {
                let pair = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = Self.decoded(pair[0]).lowercased(), value = pair.count > 1 ? Self.decoded(pair[1]) : ""
                switch name {
                case "to": recipients += value.split(separator: ",").map(String.init)
                case "subject": if subject == nil { subject = value }
                case "body": if body == nil { body = value }
                default: continue
                }
            }
        }
        let addresses = recipients.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard addresses.count == 1, Self.isPlainAddress(addresses[0]) else { return nil }
        to = addresses[0]
        self.subject = DigestFormat.oneLine(subject.flatMap { $0.isEmpty ? nil : $0 } ?? "unsubscribe", limit: 200)
        self.body = String((body.flatMap { $0.isEmpty ? nil : $0 } ?? "unsubscribe").prefix(2000))
    }

    /// `local@domain` of printable ASCII without spaces, quotes, brackets or commas.
    static func isPlainAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), text.utf8.count <= 254 else { return false }
        return text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && !"\"<>(),;:\\[]".unicodeScalars.contains($0) }
    }

    /// Percent-decoding (invalid escapes kept as written; invalid UTF-8 replaced).
    static func decoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var i = text.utf8.startIndex
        let utf8 = text.utf8
        while i < utf8.endIndex {
            let b = utf8[i]
            if b == UInt8(ascii: "%"), let h = utf8.index(i, offsetBy: 2, limitedBy: utf8.endIndex), h < utf8.endIndex,
               let value = UInt8(String(decoding: utf8[utf8.index(after: i)...h], as: UTF8.self), radix: 16) {
                bytes.append(value)
                i = utf8.index(after: h)
            } else {
                bytes.append(b)
                i = utf8.index(after: i)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The message to send from `from` at `date`, with `messageID`.
    public func mail(from: Address, date: MessageDate, messageID: String) -> OutgoingMail {
        OutgoingMail(from: from, to: [Address(name: nil, address: to)], subject: subject, date: date, messageID: messageID,
                     textBody: body, extraHeaders: [HeaderField("Auto-Submitted", "auto-generated")])
    }
}
