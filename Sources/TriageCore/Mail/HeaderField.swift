/// One header field: an extra one for an outgoing message, e.g. `Auto-Submitted:
/// auto-generated`, or one of a received message that a `header:` rule reads.
///
/// The value is unstructured text: control characters are neutralised and
/// non-ASCII text is RFC 2047-encoded when the message is composed (and decoded
/// when it is read).
public struct HeaderField: Hashable, Sendable {
    /// The field name, e.g. `X-Triage-Digest`.
    public var name: String
    /// The unstructured value, as plain (decoded) text.
    public var value: String

    /// Creates a header field.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// Whether `name` is a valid RFC 5322 field name (printable ASCII except `:`).
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { $0 >= 33 && $0 <= 126 && $0 != UInt8(ascii: ":") }
    }
}

extension HeaderField {
    /// The first Message-ID of a header block, as the parser reads it: the text between
    /// the first `<` and `>` of the field (unfolded), else its first word. For finding a
    /// snoozed message again (`MailConnection.messageUIDs(withMessageID:)`).
    public static func messageID(in header: [UInt8]) -> String? {
        let text = String(decoding: header, as: UTF8.self)
        var value: String?
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = line.hasSuffix("\r") ? line.dropLast() : line[...]
            if let current = value {
                // A folded line continues the field; anything else ends it.
                guard line.first == " " || line.first == "\t" else { break }
                value = current + " " + line
            } else if line.lowercased().hasPrefix("message-id:") {
                value = String(line.dropFirst("message-id:".count))
            }
            if line.isEmpty { break }
        }
        guard let value else { return nil }
        if let open = value.firstIndex(of: "<"), let close = value[open...].firstIndex(of: ">") {
            let inner = value[value.index(after: open)..<close].filter { !$0.isWhitespace }
            return inner.isEmpty ? nil : String(inner)
        }
        return value.split(whereSeparator: \.isWhitespace).first.map(String.init)
    }
}
