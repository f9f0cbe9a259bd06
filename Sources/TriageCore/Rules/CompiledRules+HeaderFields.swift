/// The header fields a run fetches (`BODY.PEEK[HEADER.FIELDS (...)]`) instead of the
/// whole header block, when the rules read only named fields.
extension CompiledRules {
    /// Fields every narrowed fetch brings whatever the rules are: Message-ID (record
    /// identity, also of the `Problems` digest entries a refused action makes), From,
    /// Subject and Date (the run's report, action templates such as `{subject}`, the
    /// summary of those entries, and date terms). Fixed, so identity never changes
    /// with the rules. Messages whose actions write records (queue, remind, digest,
    /// webhook) get their text and the fields it needs (`MailboxRunner.snippetHeaderFields`)
    /// before anything is written; messages without a Message-ID (identity is then the
    /// hash of the whole header) are fetched again whole.
    public static let fixedHeaderFields = ["MESSAGE-ID", "FROM", "SUBJECT", "DATE"]

    /// What the rules' terms need fetched, from each term's `QueryOperator`: the parts
    /// beyond the header, and the header fields (plus `fixedHeaderFields`, upper-case,
    /// sorted), nil when the whole header is needed.
    static func reads(_ predicates: [QueryPredicate]) -> (parts: MessageParts, headerFields: [String]?) {
        var parts: MessageParts = []
        var fields: Set<String>? = Set(Self.fixedHeaderFields)
        for predicate in predicates {
            let op = QueryOperator.of(predicate)
            parts.formUnion(op.parts)
            if op.wholeHeader { fields = nil }
            fields?.formUnion(op.headers)
            if case .header(let lowered, _) = predicate {
                let name = lowered.uppercased()
                // Sent as an atom in the FETCH: anything else is read from the whole header.
                if name.isEmpty || !name.utf8.allSatisfy(Self.isAtomByte) { fields = nil }
                fields?.insert(name)
            }
        }
        return (parts, fields?.sorted())
    }

    /// Letters, digits, `-` and `_`: a field name that needs no quoting.
    static func isAtomByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
    }

}
