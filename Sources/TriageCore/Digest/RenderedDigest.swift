/// A digest as words: the subject and both bodies, before the headers are added.
public struct RenderedDigest: Sendable, Hashable {
    /// The Subject (plain text; the composer encodes it).
    public var subject: String
    /// The text/plain body.
    public var text: String
    /// The text/html body.
    public var html: String

    /// Creates a rendered digest.
    public init(subject: String, text: String, html: String) {
        self.subject = subject
        self.text = text
        self.html = html
    }
}
