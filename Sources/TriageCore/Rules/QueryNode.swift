/// A parsed query: terms combined with AND, OR and NOT.
///
/// `{a b}` parses to `.or`, an operator applied to a group (`subject:(a OR b)`)
/// is distributed over the group's terms, so only terms carry fields.
public indirect enum QueryNode: Hashable, Sendable {
    /// Every child matches (terms side by side, or `AND`).
    case and([QueryNode])
    /// Some child matches (`OR`, `{ }`).
    case or([QueryNode])
    /// The child does not match (`-`).
    case not(QueryNode)
    /// One condition on the message.
    case term(QueryTerm)
    /// Stands in for a part that had an error; a file with errors is never run.
    case invalid

    /// The query as a person would write it, for "why" output: `-to:me`. A group
    /// inside a group of the other kind is in parentheses, `(a OR b) c`, so the text
    /// reads one way only, whatever precedence the reader assumes.
    public var display: String {
        fold(term: { $0.text },
             and: { $0.map { if case .or = $0.node { return "(" + $0.value + ")" } else { return $0.value } }.joined(separator: " ") },
             or: { $0.map { if case .and = $0.node { return "(" + $0.value + ")" } else { return $0.value } }.joined(separator: " OR ") },
             not: { child in
                 if case .term = child.node { return "-" + child.value }
                 return "-(" + child.value + ")"
             },
             invalid: { "?" })
    }
}
