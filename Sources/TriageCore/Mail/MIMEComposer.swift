/// Builds a valid RFC 5322 / MIME message from an `OutgoingMail`.
///
/// Pure: the date and Message-ID are injected, so the same input always gives
/// the same bytes (golden tests rely on this). The result is 7-bit ASCII with
/// CRLF line ends: headers folded at 78 characters with non-ASCII text as RFC
/// 2047 encoded-words, and bodies in UTF-8 quoted-printable with lines of at most
/// 76 characters. Caller-supplied header values cannot inject header lines:
/// their control characters become spaces, and folding only uses existing spaces.
public struct MIMEComposer: Sendable {
    /// Header names the composer writes itself; extra headers may not repeat them.
    public static let reservedHeaders: Set<String> = [
        "date", "from", "to", "cc", "bcc", "subject", "message-id", "mime-version",
        "content-type", "content-transfer-encoding", "sender", "reply-to",
    ]

    /// Creates a composer.
    public init() {}

    /// Composes the message, or throws `MailCompositionError` for a malformed
    /// address, Message-ID or extra header.
    public func compose(_ mail: OutgoingMail) throws -> ComposedMessage {
        guard !mail.to.isEmpty else {
            throw MailCompositionError(.config, "a message needs at least one recipient")
        }
        let messageID = try Self.validatedMessageID(mail.messageID)
        let envelopeFrom = try MailAddressFormatter.validatedAddress(mail.from.address, role: "sender")
        let envelopeTo = try mail.to.map { try MailAddressFormatter.validatedAddress($0.address, role: "recipient") }

        var headers: [String] = [
            "Date: " + mail.date.rfc5322,
            try MailAddressFormatter.header(name: "From", addresses: [mail.from], role: "sender"),
            try MailAddressFormatter.header(name: "To", addresses: mail.to, role: "recipient"),
        ]
        if let replyTo = mail.replyTo {
            headers.append(try MailAddressFormatter.header(name: "Reply-To", addresses: [replyTo], role: "reply-to"))
        }
        headers += [
            HeaderFolder.unstructured(name: "Subject", value: mail.subject),
            "Message-ID: <" + messageID + ">",
            "MIME-Version: 1.0",
        ]
        var seen = Set<String>()
        for field in mail.extraHeaders {
            guard HeaderField.isValidName(field.name) else {
                throw MailCompositionError(.dataError,
                    "'\(MailText.neutralizingControls(field.name))' is not a valid header field name")
            }
            let key = field.name.lowercased()
            guard !Self.reservedHeaders.contains(key), seen.insert(key).inserted else {
                throw MailCompositionError(.dataError, "the header '\(field.name)' is written by the composer or given twice")
            }
            headers.append(HeaderFolder.unstructured(name: field.name, value: field.value))
        }

        let text = QuotedPrintable.encode(mail.textBody)
        var body: String
        if let htmlBody = mail.htmlBody {
            let html = QuotedPrintable.encode(htmlBody)
            let boundary = Self.boundary(for: [text, html], seed: SHA256.hex(text + "\u{0}" + html))
            headers.append("Content-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"")
            body = "This is a multi-part message in MIME format.\r\n"
            body += "\r\n--\(boundary)\r\n" + Self.partHeaders("text/plain") + "\r\n" + text
            body += "\r\n--\(boundary)\r\n" + Self.partHeaders("text/html") + "\r\n" + html
            body += "\r\n--\(boundary)--\r\n"
        } else {
            headers.append(Self.partHeaders("text/plain").replacingCRLFEnd)
            body = text + "\r\n"
        }
        let message = headers.joined(separator: "\r\n") + "\r\n\r\n" + body
        return ComposedMessage(messageID: messageID, envelopeFrom: envelopeFrom, envelopeTo: envelopeTo, text: message)
    }

    private static func partHeaders(_ type: String) -> String {
        "Content-Type: \(type); charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n"
    }

    /// A boundary that occurs in no encoded part. It contains `=_`, which
    /// quoted-printable output never does, and is checked all the same; it is
    /// derived from the content so that composing is deterministic.
    static func boundary(for parts: [String], seed: String) -> String {
        var counter = 0
        while true {
            let candidate = "=_triage_" + String(seed.prefix(32)) + (counter == 0 ? "" : "_\(counter)")
            if !parts.contains(where: { $0.contains(candidate) }) { return candidate }
            counter += 1
        }
    }

    /// The Message-ID without brackets, checked to be `left@right` in printable
    /// ASCII with no spaces, brackets or control characters.
    static func validatedMessageID(_ raw: String) throws -> String {
        var id = Substring(raw)
        if id.hasPrefix("<"), id.hasSuffix(">") { id = id.dropFirst().dropLast() }
        let forbidden = Set("<>()[]\\,;:\" ".utf8)
        let parts = id.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
              id.utf8.allSatisfy({ $0 > 32 && $0 < 127 && !forbidden.contains($0) }),
              id.utf8.count <= 250
        else {
            throw MailCompositionError(.dataError,
                "'\(MailText.neutralizingControls(raw))' is not a valid Message-ID (expected left@right in plain ASCII)")
        }
        return String(id)
    }
}

private extension String {
    /// The text without its final CRLF.
    var replacingCRLFEnd: String { hasSuffix("\r\n") ? String(unicodeScalars.dropLast(2)) : self }
}
