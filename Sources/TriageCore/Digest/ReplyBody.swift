/// A reply's text as the MIME layer decoded it, for `ReplyReader`: its first
/// text/plain part and its first text/html part (a multipart/alternative reply
/// has both), each as lines.
public struct ReplyBody: Sendable, Hashable {
    /// One decoded part.
    public struct Part: Sendable, Hashable {
        /// The part's lines, in order (for HTML: the block structure's lines,
        /// up to where the quote's structure begins).
        public var lines: [String]
        /// Whether an HTML quote structure (`blockquote`, `gmail_quote`,
        /// Outlook's `divRplyFwdMsg`, ...) ended `lines`: the user's part ends there.
        public var quoteFound: Bool
        /// Whether the part is longer than what was decoded (a decoding limit):
        /// then it counts as not read whole, even in a whole message.
        public var cut: Bool

        /// Creates a part.
        public init(lines: [String], quoteFound: Bool = false, cut: Bool = false) {
            self.lines = lines
            self.quoteFound = quoteFound
            self.cut = cut
        }

        /// A text part from its decoded text (any line ends: LF, CRLF, CR).
        public init(text: String, cut: Bool = false) {
            self.init(lines: text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init), cut: cut)
        }
    }

    /// The first text/plain part (format=flowed already joined), if any.
    public var plain: Part?
    /// The first text/html part as lines, if any.
    public var html: Part?

    /// Creates a reply body.
    public init(plain: Part? = nil, html: Part? = nil) {
        self.plain = plain
        self.html = html
    }

    /// A reply that is one text part, `text`.
    public init(plain text: String) {
        self.init(plain: Part(text: text))
    }
}
