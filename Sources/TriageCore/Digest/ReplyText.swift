/// What `ReplyReader` makes of a reply to the digest: the lines the user wrote
/// above the quote, or why they cannot be told apart from it.
public enum ReplyText: Sendable, Hashable {
    /// The user's own lines (above the quote, signature or copied header block),
    /// trimmed, in order; blank lines kept.
    case userLines([String])
    /// Not to be obeyed: the reason, for Problems.
    case refused(String)
}
