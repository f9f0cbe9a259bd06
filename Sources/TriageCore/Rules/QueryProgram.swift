/// Every rule's query flattened into one array of nodes, so matching walks
/// plain integers instead of a tree of references.
struct QueryProgram: Sendable {
    enum Kind: UInt8, Sendable { case and, or, not, term, never }

    /// One node: for `and`/`or`, `a..<b` indexes `children`; for `not`, `a` is the
    /// child node; for `term`, `a` indexes `terms`.
    struct Node: Sendable {
        var kind: Kind
        var a: Int32
        var b: Int32
    }

    var nodes: [Node] = []
    var children: [Int32] = []
    var terms: [CompiledTerm] = []
    /// Word ids of every phrase, pointed into by `Phrase`.
    var words: [Int32] = []
    /// Every wildcard pattern, indexed by the glob terms.
    var globs: [Glob] = []
    /// Each node as written (`-to:me`, `from:boss@example.test`), for "why" output.
    var texts: [String] = []

    /// Whether node `n` matches.
    func matches(_ n: Int32, _ ix: MessageIndex, now: Int64) -> Bool {
        nodes.withUnsafeBufferPointer { nodes in
            children.withUnsafeBufferPointer { children in
                terms.withUnsafeBufferPointer { terms in
                    words.withUnsafeBufferPointer { pool in
                        Self.evaluate(n, nodes, children, terms, pool, globs, ix, now)
                    }
                }
            }
        }
    }

    private static func evaluate(_ n: Int32, _ nodes: UnsafeBufferPointer<Node>, _ children: UnsafeBufferPointer<Int32>,
                                 _ terms: UnsafeBufferPointer<CompiledTerm>, _ pool: UnsafeBufferPointer<Int32>,
                                 _ globs: [Glob], _ ix: MessageIndex, _ now: Int64) -> Bool {
        let node = nodes[Int(n)]
        switch node.kind {
        case .term:
            return terms[Int(node.a)].matches(ix, now: now, pool: pool, globs: globs)
        case .and:
            var i = Int(node.a)
            while i < Int(node.b) {
                if !evaluate(children[i], nodes, children, terms, pool, globs, ix, now) { return false }
                i += 1
            }
            return true
        case .or:
            var i = Int(node.a)
            while i < Int(node.b) {
                if evaluate(children[i], nodes, children, terms, pool, globs, ix, now) { return true }
                i += 1
            }
            return false
        case .not:
            return !evaluate(node.a, nodes, children, terms, pool, globs, ix, now)
        case .never:
            return false
        }
    }

    /// Stores a phrase's word ids and returns where.
    mutating func phrase(_ ids: [Int32]) -> Phrase {
        let start = Int32(words.count)
        words.append(contentsOf: ids)
        return Phrase(start: start, count: Int32(ids.count))
    }

    /// Stores a wildcard pattern and returns its index.
    mutating func glob(_ pattern: String) -> Int32 {
        globs.append(Glob(pattern))
        return Int32(globs.count - 1)
    }

    /// The terms that make node `n` match (call only when it does): every term of an
    /// AND, the matching branches of an OR, and a NOT as written (`-to:me`).
    func explain(_ n: Int32, _ ix: MessageIndex, now: Int64, into why: inout [String]) {
        let node = nodes[Int(n)]
        switch node.kind {
        case .term, .not:
            if !why.contains(texts[Int(n)]) { why.append(texts[Int(n)]) }
        case .and:
            for i in Int(node.a)..<Int(node.b) { explain(children[i], ix, now: now, into: &why) }
        case .or:
            for i in Int(node.a)..<Int(node.b) where matches(children[i], ix, now: now) {
                explain(children[i], ix, now: now, into: &why)
            }
        case .never:
            break
        }
    }

    /// Appends `query` and returns its root node.
    mutating func append(_ query: QueryNode, compile: (QueryTerm, inout QueryProgram) -> CompiledTerm) -> Int32 {
        query.fold(
            term: { term in
                let compiled = compile(term, &self)
                terms.append(compiled)
                return add(Node(kind: .term, a: Int32(terms.count - 1), b: 0), term.text)
            },
            and: { kids in group(.and, kids, QueryNode.and(kids.map(\.node)).display) },
            or: { kids in group(.or, kids, QueryNode.or(kids.map(\.node)).display) },
            not: { child in add(Node(kind: .not, a: child.value, b: 0), QueryNode.not(child.node).display) },
            invalid: { add(Node(kind: .never, a: 0, b: 0), "?") })
    }

    private mutating func group(_ kind: Kind, _ kids: [QueryNode.Folded<Int32>], _ text: String) -> Int32 {
        let start = Int32(children.count)
        children.append(contentsOf: kids.map(\.value))
        return add(Node(kind: kind, a: start, b: Int32(children.count)), text)
    }

    private mutating func add(_ node: Node, _ text: String) -> Int32 {
        nodes.append(node)
        texts.append(text)
        return Int32(nodes.count - 1)
    }
}
