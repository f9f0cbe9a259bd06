/// One lexeme of the rule language.
///
/// Keywords (`rule`, `when`, `then`, `OR`, `AND`) are words; the parser decides
/// what they mean from where they stand.
public struct Token: Hashable, Sendable {
    /// What kind of lexeme this is.
    public enum Kind: Hashable, Sendable {
        /// A bare word: `boss@example.test`, `09:00`, `38.9717`, `OR`.
        case word
        /// A double-quoted string; `text` holds the contents without quotes, escapes resolved.
        case string
        /// An operator such as `from:`; `text` holds the name lower-cased, without the colon.
        case op
        /// `(`
        case leftParen
        /// `)`
        case rightParen
        /// `{`
        case leftBrace
        /// `}`
        case rightBrace
        /// `,`
        case comma
        /// `-` at the start of a term (negation, or a negative number's sign).
        case minus
        /// The end of the source.
        case end
    }

    /// The kind.
    public var kind: Kind
    /// The meaning-bearing text (see `Kind`).
    public var text: String
    /// Where the lexeme stands, quotes and colon included.
    public var span: SourceSpan
    /// Whether white space or a comment separates this token from the one before.
    public var spaceBefore: Bool

    /// Creates a token.
    public init(kind: Kind, text: String, span: SourceSpan, spaceBefore: Bool) {
        self.kind = kind
        self.text = text
        self.span = span
        self.spaceBefore = spaceBefore
    }

    /// Whether this is the bare word `word` (keywords `rule`, `when`, `then` are case-insensitive).
    func isWord(_ word: String) -> Bool {
        kind == .word && text.lowercased() == word
    }

    /// How the token reads in a message: `'then'`, `end of file`.
    var quoted: String {
        switch kind {
        case .end: return "the end of the file"
        case .string: return "\"\(text)\""
        case .op: return "'\(text):'"
        default: return "'\(text)'"
        }
    }
}
