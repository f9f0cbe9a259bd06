/// A query operator such as `from:`; nil field means a bare word or phrase.
public enum QueryField: String, CaseIterable, Hashable, Sendable {
    /// Address headers: `from:` `to:` `cc:` `bcc:` `replyto:` `deliveredto:`.
    case from, to, cc, bcc, replyto, deliveredto
    /// `subject:` `list:` `label:` `has:` `filename:` `is:`.
    case subject, list, label, has, filename, `is`
    /// Size in bytes: `larger:` `smaller:`.
    case larger, smaller
    /// `older_than:` an age.
    case olderThan = "older_than"
    /// `newer_than:` an age.
    case newerThan = "newer_than"
    /// Days in the configured time zone: `after:` `before:`.
    case after, before
    /// `header:NAME:VALUE`, any header field by name.
    case header
    /// `in:FOLDER`, the mailbox the message is in (after the moves planned so far).
    case `in`
    /// `category:`, Gmail's inbox categories: refused, Gmail's IMAP does not report them.
    case category

    /// The operator as written, with its colon: `from:`.
    public var spelling: String { rawValue + ":" }

    /// Whether the value is an address or a name.
    public var isAddress: Bool {
        if case .address = QueryOperator[self].syntax { return true }
        return false
    }

    /// The operator named `name` (lower-cased, no colon), if any.
    public init?(name: String) {
        self.init(rawValue: name)
    }
}
