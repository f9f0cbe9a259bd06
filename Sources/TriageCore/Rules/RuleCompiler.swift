/// Compiles parsed rules once per run: checks what needs the whole set or the
/// configuration (duplicate names, `me` without identities), interns every word,
/// and turns dates into instants in the configured time zone.
public enum RuleCompiler {
    /// Compiles `rules` (from every file, in order). The result is usable only when
    /// the diagnostics are empty.
    public static func compile(_ rules: [RuleDefinition], environment: RuleEnvironment) -> (CompiledRules, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var vocabulary = Vocabulary()
        var program = QueryProgram()
        var keepsText = false
        var compiled: [CompiledRule] = []
        var firstByName: [String: RuleDefinition] = [:]
        var headerNames: [String] = []
        var importantRules: [CompiledRule] = []
        var predicates: [QueryPredicate] = []
        let identityIDs = environment.identities.map { vocabulary.intern($0.lowercased()) }

        for rule in rules {
            if let first = firstByName[rule.name] {
                diagnostics.append(Diagnostic(path: rule.path, line: rule.nameSpan.line, column: rule.nameSpan.column,
                                              length: rule.nameSpan.length,
                                              message: "duplicate rule name \"\(rule.name)\"; it is first used at \(first.path):\(first.nameSpan.line)"))
            } else {
                firstByName[rule.name] = rule
            }
            var readsImportant = false
            let root = program.append(rule.query) { term, program in
                if case .isImportant = term.predicate { readsImportant = true }
                predicates.append(term.predicate)
                return compileTerm(term, path: rule.path, environment: environment, program: &program, vocabulary: &vocabulary,
                                   keepsText: &keepsText, headerNames: &headerNames, diagnostics: &diagnostics)
            }
            var made = CompiledRule(name: rule.name, path: rule.path, line: rule.nameSpan.line, actions: rule.actions,
                                    query: rule.query.display, root: root)
            made.queryNode = rule.query
            compiled.append(made)
            if readsImportant { importantRules.append(made) }
        }
        let reads = CompiledRules.reads(predicates)
        // Follow-ups read every message's In-Reply-To and References (an answer closes
        // one) and a sent message's recipients (the title).
        let followsUp = compiled.contains { $0.actions.contains { if case .followUp = $0 { return true } else { return false } } }
        let headerFields = followsUp ? reads.headerFields.map { Array(Set($0).union(FollowUpTracker.headerFields)).sorted() }
            : reads.headerFields
        var result = CompiledRules(rules: compiled, environment: environment, program: program, vocabulary: vocabulary,
                                   identityIDs: identityIDs, keepsText: keepsText, headerNames: headerNames,
                                   importantRules: importantRules, neededParts: reads.parts,
                                   neededHeaderFields: headerFields)
        result.readsSent = predicates.contains { $0 == .inFolder(FollowUpTracker.sentFolder) }
        return (result, diagnostics)
    }

    /// The index of a header name in the rules' table, adding it when new.
    private static func headerSlot(_ name: String, _ names: inout [String]) -> Int32 {
        if let i = names.firstIndex(of: name) { return Int32(i) }
        names.append(name)
        return Int32(names.count - 1)
    }

    private static func compileTerm(_ term: QueryTerm, path: String, environment: RuleEnvironment,
                                    program: inout QueryProgram, vocabulary: inout Vocabulary, keepsText: inout Bool,
                                    headerNames: inout [String], diagnostics: inout [Diagnostic]) -> CompiledTerm {
        func ids(_ words: [String]) -> Phrase { program.phrase(words.map { vocabulary.intern($0) }) }
        func glob(_ pattern: String) -> Int32 {
            keepsText = true
            return program.glob(pattern)
        }
        switch term.predicate {
        case .text(.words(let words)): return .text(ids(words))
        case .text(.glob(let pattern)): return .textGlob(glob(pattern))
        case .subject(.words(let words)): return .subject(ids(words))
        case .subject(.glob(let pattern)): return .subjectGlob(glob(pattern))
        case .address(let field, let pattern):
            let bit = AddressField.bit(field)
            switch pattern {
            case .me:
                if environment.identities.isEmpty {
                    diagnostics.append(Diagnostic(path: path, line: term.span.line, column: term.span.column, length: term.span.length,
                                                  message: "'me' is used but no identities are configured; list your addresses in 'me = ...' in the [triage] section of the configuration"))
                }
                return .addressMe(bit)
            case .glob(let pattern): return .addressGlob(bit, glob(pattern))
            case .domain(let domain): return .addressDomain(bit, vocabulary.intern(domain))
            case .address(let address): return .addressID(bit, vocabulary.intern(address))
            case .domainOrWords(let domain, let words): return .addressDomainOrWords(bit, vocabulary.intern(domain), ids(words))
            case .words(let words): return .addressWords(bit, ids(words))
            }
        case .list(let id):
            return id.contains("*") ? .listGlob(glob(id)) : .list(vocabulary.intern(id))
        case .label(let name): return .label(vocabulary.intern(name))
        case .hasAttachment: return .hasAttachment
        case .filename(let name):
            if name.contains("*") { return .filenameGlob(glob(name)) }
            return .filename(vocabulary.intern(name), ids(WordSplitter.words(name)))
        case .isUnread: return .isUnread
        case .isRead: return .isRead
        case .isStarred: return .isStarred
        case .isImportant: return .isImportant
        case .isImpersonating: return .isImpersonating
        case .header(let name, let pattern):
            let slot = headerSlot(name, &headerNames)
            switch pattern {
            case nil: return .headerPresent(slot)
            case .words(let words)?: return .header(slot, ids(words))
            case .glob(let pattern)?: return .headerGlob(slot, glob(pattern))
            }
        case .inFolder(let folder): return .inFolder(vocabulary.intern(folder))
        case .larger(let n): return .larger(n)
        case .smaller(let n): return .smaller(n)
        case .olderThan(let age): return .olderThan(age)
        case .newerThan(let age): return .newerThan(age)
        case .after(let day): return .atOrAfter(ZonedTime.startOfDay(day, in: environment.timeZone))
        case .before(let day): return .before(ZonedTime.startOfDay(day, in: environment.timeZone))
        }
    }
}
