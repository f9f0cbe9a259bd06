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
