/// One condition of a query, with the text it was written as (for "why" output)
/// and where (for diagnostics).
public struct QueryTerm: Hashable, Sendable {
    /// What it tests.
    public var predicate: QueryPredicate
    /// As written, normalised: `from:boss@example.test`, `subject:receipt`, `"now broadcasting"`.
    public var text: String
    /// Where its value stands in the source.
    public var span: SourceSpan

    /// Creates a term.
    public init(predicate: QueryPredicate, text: String, span: SourceSpan) {
        self.predicate = predicate
        self.text = text
        self.span = span
    }
}

/// What a query term tests. Text values are already lower-cased and split into words.
public enum QueryPredicate: Hashable, Sendable {
    /// A bare word or phrase: the subject, the sender or the text snippet contains it.
    case text(TextPattern)
    /// `from:` `to:` `cc:` `bcc:` `replyto:` `deliveredto:`.
    case address(QueryField, AddressPattern)
    /// `subject:`.
    case subject(TextPattern)
    /// `list:` the List-Id, or a domain-style suffix of it (`*` allowed).
    case list(String)
    /// `label:` a server label or keyword, normalised (see `LabelName`).
    case label(String)
    /// `has:attachment`.
    case hasAttachment
    /// `filename:` an attachment's name, extension, or a word of its name (`*` allowed).
    case filename(String)
    /// `is:unread`.
    case isUnread
    /// `is:read`.
    case isRead
    /// `is:starred`.
    case isStarred
    /// `is:important`: Gmail's `\Important` label (X-GM-LABELS).
    case isImportant
    /// `is:impersonating`: a From display name shows an address or domain other
    /// than its address's (`NameDisguise`).
    case isImpersonating
    /// `header:NAME:VALUE`: a header field named NAME (lower-cased) whose value has
    /// these words or matches this pattern; nil pattern: any value (`*`).
    case header(String, TextPattern?)
    /// `in:` a folder as rules name it (`Lists/dev`), lower-cased.
    case inFolder(String)
    /// `larger:` a size in bytes.
    case larger(Int)
    /// `smaller:` a size in bytes.
    case smaller(Int)
    /// `older_than:` an age in seconds.
    case olderThan(Int64)
    /// `newer_than:` an age in seconds.
    case newerThan(Int64)
    /// `after:` on or after the start of this day, in the configured time zone.
    case after(CivilDate)
    /// `before:` before the start of this day, in the configured time zone.
    case before(CivilDate)
}

/// A word, a phrase (consecutive words) or a one-word wildcard pattern.
public enum TextPattern: Hashable, Sendable {
    /// Consecutive lower-cased words.
    case words([String])
    /// A lower-cased pattern with `*`, matched against single words.
    case glob(String)
}

/// What an address operator's value means.
public enum AddressPattern: Hashable, Sendable {
    /// `me`: any configured identity.
    case me
    /// A lower-cased pattern with `*`, matched against the whole address and each word of it and of the name.
    case glob(String)
    /// `@domain`: addresses at the domain or its subdomains.
    case domain(String)
    /// A whole address, compared case-insensitively.
    case address(String)
    /// `bank.example` or `john.smith`: the domain (or a subdomain), or these words in the local part or in
    /// the name outside what in it looks like an address or a domain (`NameDisguise`).
    case domainOrWords(String, [String])
    /// Whole words of the display name or the address (`john` matches `john.smith@x.test`).
    case words([String])
}
