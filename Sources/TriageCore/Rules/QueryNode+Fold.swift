/// The one walk over a query tree: each consumer (the display text, the compiled
/// program, the Sieve and Gmail exporters, the SEARCH narrowing) says what a term,
/// an AND, an OR, a NOT and an error become, and `fold` does the recursion, children
/// first and in order. A combiner gets each child with its result, for consumers
/// that look at a child's kind (parentheses).
extension QueryNode {
    /// A child of an AND, OR or NOT with what the fold made of it.
    public typealias Folded<R> = (node: QueryNode, value: R)

    /// Folds the tree bottom-up.
    public func fold<R>(term: (QueryTerm) throws -> R,
                        and: ([Folded<R>]) throws -> R,
                        or: ([Folded<R>]) throws -> R,
                        not: (Folded<R>) throws -> R,
                        invalid: () throws -> R) rethrows -> R {
        switch self {
        case .term(let t): return try term(t)
        case .and(let items):
            return try and(items.map { ($0, try $0.fold(term: term, and: and, or: or, not: not, invalid: invalid)) })
        case .or(let items):
            return try or(items.map { ($0, try $0.fold(term: term, and: and, or: or, not: not, invalid: invalid)) })
        case .not(let child):
            return try not((child, try child.fold(term: term, and: and, or: or, not: not, invalid: invalid)))
        case .invalid: return try invalid()
        }
    }
}
