/// Caps that keep the parser's time and memory bounded on hostile input.
///
/// libetpan's MIME parser recurses once per nesting level and has no limit of
/// its own, so nesting is bounded before it runs (see `NestingEstimate`).
public enum ParserLimits {
    /// Bytes of a message handed to the MIME structure parser; the rest is only counted.
    public static let maxStructureBytes = 32 << 20
    /// Nesting levels (multipart and message/rfc822) walked for attachments and text.
    public static let maxDepth = 64
    /// Parts examined per message.
    public static let maxParts = 2_000
    /// Upper bound on `multipart`/`rfc822` tokens before the structure parse is skipped:
    /// nesting can never be deeper than this count, which keeps libetpan's recursion shallow.
    public static let maxNestingTokens = 256
    /// Comment nesting (`((...))`) passed to libetpan, which parses comments recursively
    /// (see `CommentNesting`).
    public static let maxCommentDepth = 100
    /// Encoded bytes of a text/plain part decoded for the snippet.
    public static let plainTextBytes = 16 << 10
    /// Encoded bytes of a text/html part decoded for the snippet (markup is bulky).
    public static let htmlTextBytes = 256 << 10
    /// Encoded bytes of each text part of a reply to the digest decoded for its
    /// commands (more than a run fetches of it: a prefix is never cut again).
    public static let replyTextBytes = 256 << 10
    /// Characters kept in a snippet.
    public static let snippetLength = 200
}
