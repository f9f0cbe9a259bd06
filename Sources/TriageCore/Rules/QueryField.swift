/// A query operator such as `from:`; nil field means a bare word or phrase.
public enum QueryField: String, CaseIterable, Hashable, Sendable {
    case from, to, cc, bcc, replyto, deliveredto
    case subject, list, label, has, filename, `is`
    case larger, smaller
    case olderThan = "older_than"
    case newerThan = "newer_than"
    case after, before

    /// The operator as written, with its colon: `from:`.
    public var spelling: String { rawValue + ":" }

    /// Whether the value is an address or a name.
    public var isAddress: Bool {
        switch self {
        case .from, .to, .cc, .bcc, .replyto, .deliveredto: return true
        default: return false
        }
    }

    /// The operator named `name` (lower-cased, no colon), if any.
    public init?(name: String) {
        self.init(rawValue: name)
    }
}
