/// A finished RFC 5322 message with its SMTP envelope, ready for a `MailDelivery`.
public struct ComposedMessage: Sendable, Hashable {
    /// The Message-ID without angle brackets.
    public var messageID: String
    /// The envelope sender (`MAIL FROM`).
    public var envelopeFrom: String
    /// The envelope recipients (`RCPT TO`).
    public var envelopeTo: [String]
    /// The whole message: 7-bit ASCII, CRLF line ends, headers then body.
    public var text: String

    /// Creates a composed message.
    public init(messageID: String, envelopeFrom: String, envelopeTo: [String], text: String) {
        self.messageID = messageID
        self.envelopeFrom = envelopeFrom
        self.envelopeTo = envelopeTo
        self.text = text
    }

    /// The message as bytes, for sending or writing.
    public var bytes: [UInt8] { Array(text.utf8) }
}
