/// A recursive-descent parser for rule files (after Crafting Interpreters): it
/// collects every error as a `Diagnostic` in one pass and, after an error that
/// leaves the rule's structure unclear, recovers at the next `rule` keyword.
///
/// Grammar (keywords case-insensitive except `OR` and `AND`; `OR` binds tighter
/// than terms side by side, as in Gmail):
/// ```
/// file     = rule*
/// rule     = "rule" NAME "when" and "then" action ("," action)*
/// and      = or (["AND"] or)*
/// or       = unary ("OR" unary)*
/// unary    = "-" unary | primary
/// primary  = "(" and ")" | "{" unary* "}" | OPERATOR value | WORD | STRING
/// value    = WORD | STRING | "(" and ")" | "{" unary* "}"   (the operator applies inside)
/// ```
public struct RuleParser {
    /// Thrown to leave a rule whose structure is broken; the diagnostic is already recorded.
    struct Failure: Error {}

    private let tokens: [Token]
    private let path: String
    private var current = 0
    private var diagnostics: [Diagnostic] = []
    /// The rule being parsed once its query is complete, kept if its actions fail.
    private var recovered: RuleDefinition?
    /// Named places (`[place NAME]`) by lower-cased name, for `near "NAME"`.
    private var places: [String: Place] = [:]
    /// When set (`triage check`), a reminder due on a fixed day before it is a warning.
    private var today: CivilDate?

    private init(tokens: [Token], path: String) {
        self.tokens = tokens
        self.path = path
    }

    /// Parses one rule file. Returns the rules that parsed (with those whose actions had an
    /// error, so whole-set checks see them) and every diagnostic, in source order. A file
    /// with diagnostics must not be run.
    public static func parse(_ source: String, path: String, places: [String: Place] = [:],
                             today: CivilDate? = nil) -> ([RuleDefinition], [Diagnostic]) {
        let (tokens, lexical) = RuleLexer.tokenize(source, path: path)
        var parser = RuleParser(tokens: tokens, path: path)
        parser.places = places
        parser.today = today
        let rules = parser.parseFile()
        return (rules, sorted(lexical + parser.diagnostics))
    }

    /// Parses the reminder grammar alone (for `triage remind add`): a title in quotes,
    /// then the optional clauses, as after the `remind` action.
    static func parseReminder(_ source: String, path: String, places: [String: Place],
                              today: CivilDate?) -> (ReminderSpec?, [Diagnostic]) {
        let (tokens, lexical) = RuleLexer.tokenize(source, path: path)
        var parser = RuleParser(tokens: tokens, path: path)
        parser.places = places
        parser.today = today
        var spec: ReminderSpec?
        do {
            let parsed = try parser.parseReminder(templates: false)
            if parser.peek.kind != .end {
                parser.error(parser.peek.span, "unexpected \(parser.peek.quoted) in the reminder; clauses are in, on, tomorrow, next, at, near and note")
            } else {
                spec = parsed
            }
        } catch {}
        let diagnostics = sorted(lexical + parser.diagnostics)
        return (diagnostics.contains { $0.severity == .error } ? nil : spec, diagnostics)
    }

    static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted {
            ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset)
        }.map(\.element)
    }

    // MARK: - Token helpers

    private var peek: Token { tokens[current] }
    private var previous: Token { tokens[max(0, current - 1)] }

    @discardableResult
    private mutating func advance() -> Token {
        let token = tokens[current]
        if token.kind != .end { current += 1 }
        return token
    }

    /// Where a missing token should have been: just after the previous token when the
    /// next one is on a later line or is the end, else the next token.
    private var expectedSpan: SourceSpan {
        let next = peek
        if current > 0, next.kind == .end || next.span.line > previous.span.line {
            return SourceSpan(line: previous.span.line, column: previous.span.column + previous.span.length, length: 1)
        }
        return next.span
    }

    private mutating func warn(_ span: SourceSpan, _ message: String) {
        diagnostics.append(Diagnostic(path: path, line: span.line, column: span.column, length: span.length,
                                      severity: .warning, message: message))
    }

    @discardableResult
    private mutating func error(_ span: SourceSpan, _ message: String) -> Failure {
        diagnostics.append(Diagnostic(path: path, line: span.line, column: span.column, length: span.length, message: message))
        return Failure()
    }

    private var atRuleEnd: Bool { peek.kind == .end || peek.isWord("rule") }

    /// Whether the query (or a group in it) ends here.
    private var atQueryEnd: Bool {
        switch peek.kind {
        case .end, .rightParen, .rightBrace, .comma: return true
        default: return peek.isWord("then") || peek.isWord("rule")
        }
    }

    private func isExactly(_ word: String) -> Bool { peek.kind == .word && peek.text == word }

    // MARK: - Rules

    private mutating func parseFile() -> [RuleDefinition] {
        var rules: [RuleDefinition] = []
        while peek.kind != .end {
            if peek.isWord("rule") {
                do {
                    rules.append(try parseRule())
                } catch {
                    // A rule whose actions failed still has a good name and query: keep it so
                    // that checks over all rules (duplicate names, 'me') see it too.
                    if let partial = recovered { rules.append(partial) }
                    synchronize()
                }
                recovered = nil
            } else {
                error(peek.span, "expected 'rule' to start a rule, found \(peek.quoted)")
                advance()
                synchronize()
            }
        }
        return rules
    }

    /// Panic mode: skip to the next `rule`.
    private mutating func synchronize() {
        while peek.kind != .end, !peek.isWord("rule") { advance() }
    }

    private mutating func parseRule() throws -> RuleDefinition {
        advance()  // rule
        let nameToken = peek
        let name: String
        switch nameToken.kind {
        case .string:
            advance()
            name = nameToken.text
            if name.allSatisfy(\.isWhitespace) { error(nameToken.span, "a rule name cannot be empty") }
        case .word where !nameToken.isWord("when") && !nameToken.isWord("then") && !nameToken.isWord("rule"):
            advance()
            name = nameToken.text
        default:
            throw error(expectedSpan, "expected the rule's name after 'rule', as in rule \"receipts\"")
        }
        guard peek.isWord("when") else {
            throw error(expectedSpan, "expected 'when' after the name of rule \"\(name)\", found \(peek.quoted)")
        }
        let when = advance()
        var query = QueryNode.invalid
        if peek.isWord("then") || atRuleEnd {
            error(when.span, "empty query: say what to match between 'when' and 'then'")
        } else {
            query = try parseAnd(field: nil)
        }
        switch peek.kind {
        case .rightParen: throw error(peek.span, "unbalanced ')': there is no '(' to close")
        case .rightBrace: throw error(peek.span, "unbalanced '}': there is no '{' to close")
        case .comma: throw error(peek.span, "unexpected ',' in the query; terms are separated by spaces (commas separate actions)")
        default: break
        }
        guard peek.isWord("then") else {
            throw error(expectedSpan, "missing 'then' after the query of rule \"\(name)\"")
        }
        advance()
        recovered = RuleDefinition(name: name, nameSpan: nameToken.span, path: path, query: query, actions: [])
        let actions = try parseActions()
        return RuleDefinition(name: name, nameSpan: nameToken.span, path: path, query: query, actions: actions)
    }

    // MARK: - Queries

    /// Terms side by side (or joined by `AND`), each an `OR` group: `OR` binds tighter,
    /// as in Gmail, so `from:amy OR from:david subject:dinner` is
    /// `(from:amy OR from:david) subject:dinner`. Such a mix without parentheses gets a
    /// warning that shows the reading (the opposite of what triage read before).
    private mutating func parseAnd(field: QueryField?) throws -> QueryNode {
        var items: [QueryNode] = []
        var mixed = false
        let start = peek.span
        while true {
            if isExactly("AND") {
                let and = advance()
                if items.isEmpty { throw error(and.span, "'AND' needs a term before it") }
                if atQueryEnd || isExactly("OR") || isExactly("AND") { throw error(and.span, "'AND' needs a term after it") }
                continue
            }
            if atQueryEnd { break }
            if isExactly("OR") { throw error(peek.span, "'OR' needs a term before it") }
            if !items.isEmpty { warnIfLowerCaseKeyword() }
            let (node, hasOr) = try parseOr(field: field)
            items.append(node)
            if hasOr { mixed = true }
        }
        if items.isEmpty {
            throw error(expectedSpan, "expected a search term, found \(peek.quoted)")
        }
        if mixed, items.count > 1 {
            let node = QueryNode.and(items)
            warn(start.through(previous.span),
                 "'OR' binds tighter than terms side by side, as in Gmail: this reads as \(node.display) "
                 + "(earlier versions of triage read it the other way); write the parentheses to say which you mean")
        }
        return items.count == 1 ? items[0] : .and(items)
    }

    /// `a OR b OR c`, and whether there was an `OR` (not one inside parentheses).
    private mutating func parseOr(field: QueryField?) throws -> (QueryNode, Bool) {
        var items = [try parseUnary(field: field)]
        while isExactly("OR") {
            let or = advance()
            if atQueryEnd || isExactly("OR") || isExactly("AND") { throw error(or.span, "'OR' needs a term after it") }
            warnIfLowerCaseKeyword()
            items.append(try parseUnary(field: field))
        }
        return (items.count == 1 ? items[0] : .or(items), items.count > 1)
    }

    /// A bare `or` or `and` between terms is a word to search for, which is rarely
    /// what was meant (`from:a or from:b` never matches): warn, and keep the word.
    private mutating func warnIfLowerCaseKeyword() {
        let token = peek
        guard token.kind == .word, current + 1 < tokens.count else { return }
        let lower = token.text.lowercased()
        guard lower == "or" || lower == "and", token.text != lower.uppercased() else { return }
        let next = tokens[current + 1]
        switch next.kind {
        case .end, .rightParen, .rightBrace, .comma: return
        default:
            if next.isWord("then") || next.isWord("rule") || next.isWord("when") { return }
        }
        let upper = lower.uppercased()
        let meaning = upper == "OR" ? "either term" : "both terms"
        warn(token.span, "'\(token.text)' between terms is a word to search for, so the message must contain it; "
             + "did you mean '\(upper)' (\(meaning))? Write \"\(token.text)\" in quotes to search for the word")
    }

    private mutating func parseUnary(field: QueryField?) throws -> QueryNode {
        if peek.kind == .minus {
            let minus = advance()
            if peek.spaceBefore || atQueryEnd {
                throw error(minus.span, "'-' must stand right before the term it excludes, as in -to:me")
            }
            return .not(try parseUnary(field: field))
        }
        return try parsePrimary(field: field)
    }

    private mutating func parsePrimary(field: QueryField?) throws -> QueryNode {
        let token = peek
        switch token.kind {
        case .leftParen:
            advance()
            if peek.kind == .rightParen {
                let close = advance()
                error(token.span.through(close.span), "empty parentheses: put terms inside or remove them")
                return .invalid
            }
            let inner = try parseAnd(field: field)
            guard peek.kind == .rightParen else { throw error(token.span, "unbalanced '(': no ')' closes it") }
            advance()
            return inner
        case .leftBrace:
            advance()
            var items: [QueryNode] = []
            while peek.kind != .rightBrace {
                if atQueryEnd { throw error(token.span, "unbalanced '{': no '}' closes it") }
                if isExactly("OR") || isExactly("AND") { advance(); continue }
                if !items.isEmpty { warnIfLowerCaseKeyword() }
                items.append(try parseUnary(field: field))
            }
            let close = advance()
            if items.isEmpty {
                error(token.span.through(close.span), "empty braces: list the terms any of which may match, as in {a b}")
                return .invalid
            }
            return items.count == 1 ? items[0] : .or(items)
        case .op:
            return try parseOperator()
        case .word where token.isWord("when"):
            throw error(token.span, "unexpected 'when' in the query; put it in quotes to search for the word")
        case .word, .string:
            advance()
            return makeTerm(field: field, token: token)
        case .rightParen:
            throw error(token.span, "unbalanced ')': there is no '(' to close")
        case .rightBrace:
            throw error(token.span, "unbalanced '}': there is no '{' to close")
        case .comma, .minus, .end:
            throw error(expectedSpan, "expected a search term, found \(token.quoted)")
        }
    }

    private mutating func parseOperator() throws -> QueryNode {
        let op = advance()
        let field = QueryField(name: op.text)
        if field == nil {
            let names = QueryOperator.all.compactMap { $0.field?.rawValue }
            if let guess = Suggestion.closest(to: op.text, in: names) {
                error(op.span, "unknown operator '\(op.text):'; did you mean '\(guess):'?")
            } else {
                error(op.span, "unknown operator '\(op.text):'; operators are " + names.map { $0 + ":" }.joined(separator: " "))
            }
        }
        var value = peek
        switch value.kind {
        case .word where !value.isWord("then") && !value.isWord("rule"), .string:
            advance()
            guard let field else { return .invalid }
            // header:Subject:"two words": the quoted value belongs to the name before it.
            if field == .header, value.kind == .word, value.text.hasSuffix(":"), peek.kind == .string, !peek.spaceBefore {
                let quoted = advance()
                value = Token(kind: .word, text: value.text + quoted.text, span: value.span.through(quoted.span), spaceBefore: false)
            }
            return makeTerm(field: field, token: value)
        case .leftParen, .leftBrace:
            let group = try parsePrimary(field: field)
            return field == nil ? .invalid : group
        default:
            error(expectedSpan, "expected a value after '\(op.text):'")
            return .invalid
        }
    }

    /// One term from a value token, validated for its operator (nil: a bare word or phrase).
    private mutating func makeTerm(field: QueryField?, token: Token) -> QueryNode {
        let raw = token.text
        let lower = raw.lowercased()
        let written = token.kind == .string ? "\"\(raw)\"" : raw
        let text = (field?.spelling ?? "") + written
        func term(_ predicate: QueryPredicate) -> QueryNode {
            .term(QueryTerm(predicate: predicate, text: text, span: token.span))
        }
        func textPattern() -> TextPattern? {
            if lower.contains("*") { return .glob(lower) }
            let words = WordSplitter.words(raw)
            if words.isEmpty {
                error(token.span, "\(written) has no letters or digits to search for")
                return nil
            }
            return .words(words)
        }
        guard let field else {
            return textPattern().map { term(.text($0)) } ?? .invalid
        }
        switch QueryOperator[field].syntax {
        case .address:
            if lower == "me" { return term(.address(field, .me)) }
            if lower.contains("*") { return term(.address(field, .glob(lower))) }
            if lower.hasPrefix("@") {
                let domain = String(lower.dropFirst())
                guard !domain.isEmpty else { error(token.span, "'@' needs a domain after it, as in @example.test"); return .invalid }
                return term(.address(field, .domain(domain)))
            }
            if lower.contains("@") { return term(.address(field, .address(lower))) }
            let words = WordSplitter.words(raw)
            guard !words.isEmpty else { error(token.span, "\(written) has no letters or digits to search for"); return .invalid }
            if lower.contains("."), !lower.contains(where: \.isWhitespace) {
                return term(.address(field, .domainOrWords(lower, words)))
            }
            return term(.address(field, .words(words)))
        case .text(let predicate):
            return textPattern().map { term(predicate($0)) } ?? .invalid
        case .list:
            guard !lower.isEmpty else { error(token.span, "list: needs a List-Id, as in list:dev.lists.example"); return .invalid }
            // Gmail accepts list:info@example.test for the List-Id info.example.test.
            return term(.list(lower.replacing("@", with: ".")))
        case .label:
            guard !lower.isEmpty else { error(token.span, "label: needs a label name"); return .invalid }
            return term(.label(LabelName.key(raw)))
        case .keyword(let table):
            if let known = table.first(where: { $0.word == lower }) { return term(known.predicate) }
            let words = table.map(\.word)
            let hint: String
            if words.count == 1 {
                hint = "did you mean '\(words[0])'?"
            } else {
                hint = Suggestion.closest(to: lower, in: words).map { "did you mean '\(field.spelling)\($0)'?" }
                    ?? "use " + words.dropLast().map { field.spelling + $0 }.joined(separator: ", ") + " or " + field.spelling + words[words.count - 1]
            }
            error(token.span, "unknown value '\(raw)' for \(field.spelling); \(hint)")
            return .invalid
        case .filename:
            guard !lower.isEmpty else { error(token.span, "filename: needs a name or an extension, as in filename:pdf"); return .invalid }
            return term(.filename(lower))
        case .size(let predicate):
            guard let size = parseSize(token, field: field) else { return .invalid }
            return term(predicate(size))
        case .age(let predicate):
            guard let age = parseAge(token, field: field) else { return .invalid }
            return term(predicate(age))
        case .header:
            return headerTerm(token, raw: raw, written: written).map(term) ?? .invalid
        case .folder:
            var folder = lower
            while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
            guard !folder.allSatisfy(\.isWhitespace) else {
                error(token.span, "in: needs a folder, as in in:INBOX or in:Lists/dev")
                return .invalid
            }
            return term(.inFolder(folder))
        case .refused(let reason):
            error(token.span, reason)
            return .invalid
        case .date(let predicate):
            guard raw.count == 10, let date = CivilDate(iso: raw) else {
                error(token.span, "bad date '\(raw)' for \(field.spelling); write YYYY/MM/DD, as in \(field.spelling)2026/01/31")
                return .invalid
            }
            return term(predicate(date))
        }
    }

    /// `header:NAME:VALUE`: NAME a field name, VALUE words, a phrase, a `*` pattern,
    /// or `*` alone for any value.
    private mutating func headerTerm(_ token: Token, raw: String, written: String) -> QueryPredicate? {
        let example = "as in header:X-Spam-Flag:yes, or header:List-Unsubscribe:* for any value"
        guard let colon = raw.firstIndex(of: ":") else {
            error(token.span, "header: needs a header name, ':' and a value, \(example)")
            return nil
        }
        let name = String(raw[..<colon])
        let value = String(raw[raw.index(after: colon)...])
        guard HeaderField.isValidName(name) else {
            error(token.span, name.isEmpty ? "header: needs a header name before ':', \(example)"
                  : "'\(name)' is not a header name (printable ASCII, no spaces), \(example)")
            return nil
        }
        guard !value.isEmpty else {
            error(token.span, "header:\(name): needs a value after ':', \(example)")
            return nil
        }
        if value == "*" { return .header(name.lowercased(), nil) }
        if value.contains("*") { return .header(name.lowercased(), .glob(value.lowercased())) }
        let words = WordSplitter.words(value)
        guard !words.isEmpty else {
            error(token.span, "\(written) has no letters or digits to search for")
            return nil
        }
        return .header(name.lowercased(), .words(words))
    }

    /// Splits `10M` into its digits and its unit; nil digits when it does not start with one.
    private static func numberAndUnit(_ text: String) -> (Int?, String) {
        let digits = text.prefix(while: { $0.isASCII && $0.isNumber })
        let unit = String(text.dropFirst(digits.count))
        guard !digits.isEmpty, digits.count <= 12 else { return (nil, unit) }
        return (Int(digits), unit)
    }

    private mutating func parseSize(_ token: Token, field: QueryField) -> Int? {
        let (number, unit) = Self.numberAndUnit(token.text)
        guard let number else {
            error(token.span, "bad number '\(token.text)' for \(field.spelling); write a size such as \(field.spelling)5M or \(field.spelling)500K")
            return nil
        }
        switch unit.lowercased() {
        case "": return number
        case "k", "kb": return number * 1024
        case "m", "mb": return number * 1024 * 1024
        default:
            error(token.span, "unknown unit '\(unit)' in \(field.spelling)\(token.text); use K or M, as in \(field.spelling)5M")
            return nil
        }
    }

    private mutating func parseAge(_ token: Token, field: QueryField) -> Int64? {
        let (number, unit) = Self.numberAndUnit(token.text)
        guard let number else {
            error(token.span, "bad number '\(token.text)' for \(field.spelling); write an age such as \(field.spelling)7d")
            return nil
        }
        let day: Int64 = 86_400
        switch unit.lowercased() {
        case "d": return Int64(number) * day
        case "m": return Int64(number) * 30 * day
        case "y": return Int64(number) * 365 * day
        case "":
            error(token.span, "\(field.spelling)\(token.text) needs a unit: d (days), m (months) or y (years), as in \(field.spelling)\(token.text)d")
            return nil
        default:
            error(token.span, "unknown unit '\(unit)' in \(field.spelling)\(token.text); use d (days), m (months) or y (years)")
            return nil
        }
    }

    // MARK: - Actions

    private mutating func parseActions() throws -> [Action] {
        var actions: [Action] = []
        var stopToken: Token?
        if atRuleEnd { throw error(expectedSpan, "expected actions after 'then', such as label \"X\" or move \"Folder\"") }
        while true {
            let start = peek
            let action = try parseAction()
            if let stop = stopToken {
                error(stop.span, "'stop' ends the rule's actions; put it last")
                stopToken = nil
            }
            if action == .stop { stopToken = start }
            actions.append(action)
            if peek.kind == .comma {
                let comma = advance()
                if atRuleEnd { throw error(comma.span, "expected an action after ','") }
                continue
            }
            if atRuleEnd { break }
            throw error(peek.span, "expected ',' between actions, found \(peek.quoted)")
        }
        return actions
    }

    private mutating func parseAction() throws -> Action {
        let token = peek
        guard token.kind == .word else { throw error(expectedSpan, "expected an action, found \(token.quoted)") }
        advance()
        let name = token.text.lowercased()
        switch ActionWord.Name(rawValue: name) {
        case .label: return .label(try labelArgument(after: token))
        case .unlabel: return .unlabel(try labelArgument(after: token))
        case .move: return .move(try argument(after: token, what: "a folder name"))
        case .mark:
            if peek.isWord("read") { advance(); return .markRead }
            if peek.isWord("unread") { advance(); return .markUnread }
            throw error(expectedSpan, "mark needs 'read' or 'unread', found \(peek.quoted)")
        case .flag: return .flag
        case .archive: return .archive
        case .stop: return .stop
        case .queue:
            let nameToken = peek
            guard nameToken.kind == .word || nameToken.kind == .string, !atRuleEnd else {
                throw error(expectedSpan, "queue needs a queue name, as in queue rec")
            }
            advance()
            let queue = nameToken.text
            if queue.isEmpty || !queue.allSatisfy({ ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) {
                error(nameToken.span, "bad queue name '\(queue)'; use letters, digits, '-' and '_'")
            }
            var days: Int?
            if peek.isWord("in") {
                advance()
                days = try parseDays()
            }
            return .queue(name: queue, inDays: days)
        case .remind: return .remind(try parseReminder(templates: true))
        case .follow: return .followUp(try parseFollowUp())
        case .snooze: return .snooze(try parseSnooze())
        case .digest:
            if peek.kind == .string {
                return .digest(section: try argument(after: token, what: "a section name"))
            }
            return .digest(section: "FYI")
        case .webhook:
            let url = peek
            guard url.kind == .string else {
                throw error(expectedSpan, "webhook needs a URL in quotes, as in webhook \"https://example.test/hook\"")
            }
            advance()
            let lower = url.text.lowercased()
            if !(lower.hasPrefix("https://") || lower.hasPrefix("http://")) || url.text.count < 9 {
                error(url.span, "webhook needs an http:// or https:// URL, not \"\(url.text)\"")
            }
            return .webhook(url: url.text)
        case nil:
            if let guess = Suggestion.closest(to: name, in: ActionWord.names) {
                throw error(token.span, "unknown action '\(token.text)'; did you mean '\(guess)'?")
            }
            throw error(token.span, "unknown action '\(token.text)'; actions are " + ActionWord.names.joined(separator: ", "))
        }
    }

    /// A string (or bare word) argument that may hold placeholders.
    private mutating func argument(after action: Token, what: String) throws -> String {
        let token = peek
        guard token.kind == .string || (token.kind == .word && !atRuleEnd) else {
            throw error(expectedSpan, "\(action.text) needs \(what), as in \(action.text) \"Example\"")
        }
        advance()
        if token.text.allSatisfy(\.isWhitespace) { error(token.span, "\(action.text) needs \(what); this one is empty") }
        checkPlaceholders(token)
        return token.text
    }

    /// A label name. One without placeholders must fit in one IMAP keyword: servers
    /// refuse longer ones, and a label the rule names outright is better shortened by
    /// its author than hashed (labels from placeholders are shortened, see `LabelCodec`).
    private mutating func labelArgument(after action: Token) throws -> String {
        let token = peek
        let name = try argument(after: action, what: "a label name")
        let known = MessageTemplate.placeholders(in: name).contains { MessageTemplate.names.contains($0.name) }
        let length = LabelCodec.encodedLength(name)
        if !known, length > LabelCodec.maxKeywordBytes {
            error(token.span, "label \(token.quoted) is too long for an IMAP keyword: \(length) bytes once encoded "
                  + "(a non-ASCII letter takes 6 or more, a symbol such as + or % 3), and servers take at most \(LabelCodec.maxKeywordBytes); shorten it")
        }
        return name
    }

    private mutating func checkPlaceholders(_ token: Token) {
        let quote = token.kind == .string ? 1 : 0
        for placeholder in MessageTemplate.placeholders(in: token.text) where !MessageTemplate.names.contains(placeholder.name) {
            let span = SourceSpan(line: token.span.line, column: token.span.column + quote + placeholder.offset, length: placeholder.length)
            if let guess = Suggestion.closest(to: placeholder.name, in: MessageTemplate.names) {
                error(span, "unknown placeholder '{\(placeholder.name)}'; did you mean '{\(guess)}'?")
            } else {
                error(span, "unknown placeholder '{\(placeholder.name)}'; use " + MessageTemplate.names.map { "{\($0)}" }.joined(separator: ", "))
            }
        }
    }

    /// `N days` or `N weeks` after an `in`, in days.
    private mutating func parseDays() throws -> Int {
        let number = peek
        var days = 0
        switch number.kind {
        case .minus:
            advance()
            let digits = peek.kind == .word ? advance() : number
            error(number.span.through(digits.span), "bad number of days '-\(digits.text)' after 'in'; write a whole number from 0 to 36500, as in in 3 days")
        case .word where !atRuleEnd:
            advance()
            if number.text.count <= 6, number.text.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(number.text), n <= 36_500 {
                days = n
            } else {
                error(number.span, "bad number of days '\(number.text)' after 'in'; write a whole number from 0 to 36500, as in in 3 days")
            }
        default:
            throw error(expectedSpan, "expected a number of days after 'in', as in in 3 days")
        }
        if peek.isWord("days") || peek.isWord("day") {
            advance()
        } else if peek.isWord("weeks") || peek.isWord("week") {
            advance()
            if days > 36_500 / 7 {
                error(number.span, "bad number of weeks '\(number.text)' after 'in'; write a whole number from 0 to \(36_500 / 7)")
            }
            days *= 7
        } else if peek.kind == .word, !atRuleEnd, !Self.clauses.contains(peek.text.lowercased()) {
            error(peek.span, "unknown unit '\(peek.text)' after 'in \(days)'; write days or weeks, as in in \(Counted.of(days, "day"))")
            advance()
        } else {
            error(expectedSpan, "expected 'days' or 'weeks' after 'in \(days)'")
        }
        return days
    }

    // MARK: - Follow-ups

    /// After `follow`: `up in N hours|days|weeks`, or `up [on] DAY [at TIME]` with DAY
    /// `tomorrow`, `next WEEKDAY`, `WEEKDAY` or `YYYY-MM-DD` (the day phrases of
    /// `remind`), counted from the day the message was sent.
    private mutating func parseFollowUp() throws -> FollowUpSpec {
        let example = "as in follow up in 3 days or follow up on monday at 9am"
        guard peek.isWord("up") else { throw error(expectedSpan, "expected 'up' after 'follow', \(example)") }
        advance()
        var spec: FollowUpSpec
        if peek.isWord("in") {
            advance()
            let number = peek
            guard number.kind == .word, !atRuleEnd else {
                throw error(expectedSpan, "expected a number after 'follow up in', \(example)")
            }
            advance()
            guard number.text.count <= 5, number.text.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(number.text),
                  n >= 1, n <= 36_500 else {
                throw error(number.span, "bad wait '\(number.text)' after 'follow up in'; write a whole number from 1, \(example)")
            }
            let unit = peek
            guard unit.kind == .word, !atRuleEnd else {
                throw error(expectedSpan, "expected 'hours', 'days' or 'weeks' after 'follow up in \(n)'")
            }
            advance()
            switch unit.text.lowercased() {
            case "hour", "hours":
                guard n <= 24 * 366 else { throw error(number.span, "at most \(24 * 366) hours; write days or weeks") }
                spec = FollowUpSpec(wait: .hours(n))
            case "day", "days": spec = FollowUpSpec(wait: .day(.inDays(n)))
            case "week", "weeks":
                guard n <= 36_500 / 7 else { throw error(number.span, "at most \(36_500 / 7) weeks") }
                spec = FollowUpSpec(wait: .day(.inDays(n * 7)))
            default:
                throw error(unit.span, "unknown unit '\(unit.text)' after 'follow up in \(n)'; write hours, days or weeks")
            }
        } else {
            if peek.isWord("on") { advance() }
            let day = peek
            guard day.kind == .word, !atRuleEnd else {
                throw error(expectedSpan, "expected 'in N days' or a day after 'follow up', \(example)")
            }
            advance()
            let word = day.text.lowercased()
            if word == "tomorrow" {
                spec = FollowUpSpec(wait: .day(.inDays(1)))
            } else if word == "next" {
                let name = peek
                guard name.kind == .word, !atRuleEnd, let weekday = ReminderSyntax.weekdays.firstIndex(of: name.text.lowercased()) else {
                    throw error(expectedSpan, "expected a weekday after 'next', as in follow up next monday")
                }
                advance()
                spec = FollowUpSpec(wait: .day(.next(weekday: weekday)))
            } else if let weekday = ReminderSyntax.weekdays.firstIndex(of: word) {
                spec = FollowUpSpec(wait: .day(.next(weekday: weekday)))
            } else if day.text.count == 10, let date = CivilDate(iso: day.text) {
                spec = FollowUpSpec(wait: .day(.on(date)))
            } else if let guess = Suggestion.closest(to: word, in: ReminderSyntax.weekdays + ["tomorrow"]) {
                throw error(day.span, "unknown day '\(day.text)' after 'follow up'; did you mean '\(guess)'?")
            } else {
                throw error(day.span, "unknown day '\(day.text)' after 'follow up'; write tomorrow, a weekday, next WEEKDAY "
                            + "or YYYY-MM-DD, or in N days")
            }
        }
        if peek.isWord("at") {
            let keyword = advance()
            if case .hours = spec.wait {
                error(keyword.span, "'at' goes with a day, not with hours: follow up in N hours is due N hours after sending")
            }
            let time = peek
            guard time.kind == .word, !atRuleEnd else { throw error(expectedSpan, "expected a time after 'at', as in at 09:00") }
            advance()
            if let t = TimeOfDay(phrase: time.text) { spec.at = t } else {
                error(time.span, "bad time '\(time.text)'; write HH:MM from 00:00 to 23:59 or a time with am/pm, as in at 09:00 or at 6:30pm")
            }
        }
        return spec
    }

    // MARK: - Snooze

    /// After `snooze`: `until DAY [at TIME]` (DAY: `tomorrow`, a weekday, `next WEEKDAY`,
    /// `YYYY-MM-DD`, `on YYYY-MM-DD`, `in N days|weeks`) or `for N hours|days|weeks`.
    private mutating func parseSnooze() throws -> SnoozeSpec {
        if peek.isWord("for") {
            advance()
            let number = peek
            guard number.kind == .word, !atRuleEnd else {
                throw error(expectedSpan, "expected a number after 'snooze for', as in snooze for 3 days")
            }
            advance()
            guard number.text.count <= 6, number.text.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(number.text), n > 0 else {
                throw error(number.span, "bad number '\(number.text)' after 'snooze for'; write a whole number above 0, as in snooze for 3 days")
            }
            let unit = peek
            let hoursPer: Int
            switch unit.kind == .word ? unit.text.lowercased() : "" {
            case "hour", "hours": hoursPer = 1
            case "day", "days": hoursPer = 24
            case "week", "weeks": hoursPer = 168
            default:
                throw error(unit.kind == .word && !atRuleEnd ? unit.span : expectedSpan,
                            "expected hours, days or weeks after 'snooze for \(n)', as in snooze for \(n) days")
            }
            advance()
            if n * hoursPer > SnoozeSpec.maxHours {
                error(number.span, "snooze for \(number.text) \(unit.text) is more than 100 years; write a shorter time")
            }
            return .hours(n * hoursPer)
        }
        guard peek.isWord("until") else {
            throw error(peek.kind == .word && !atRuleEnd ? peek.span : expectedSpan,
                        "snooze needs 'until DAY [at TIME]' or 'for N hours|days|weeks', as in snooze until monday at 9am")
        }
        advance()
        let day = peek
        guard day.kind == .word, !atRuleEnd else {
            throw error(expectedSpan, "expected a day after 'snooze until': tomorrow, a weekday, next WEEKDAY or YYYY-MM-DD")
        }
        advance()
        let word = day.text.lowercased()
        var due: DueSpec
        switch word {
        case "tomorrow": due = .inDays(1)
        case "today": due = .inDays(0)
        case "in": due = .inDays(try parseDays())
        case "next", "on":
            let what = peek
            guard what.kind == .word, !atRuleEnd else {
                throw error(expectedSpan, word == "next" ? "expected a weekday after 'next', as in next monday"
                                                          : "expected a date after 'on', as in on 2026-12-01")
            }
            advance()
            due = try snoozeDay(what, allowWeekday: word == "next", allowDate: word == "on")
        default:
            due = try snoozeDay(day, allowWeekday: true, allowDate: true)
        }
        var at: TimeOfDay?
        if peek.isWord("at") {
            advance()
            let time = peek
            guard time.kind == .word else { throw error(expectedSpan, "expected a time after 'at', as in at 09:00") }
            advance()
            if let t = TimeOfDay(phrase: time.text) { at = t } else {
                error(time.span, "bad time '\(time.text)'; write HH:MM from 00:00 to 23:59 or a time with am/pm, as in at 09:00 or at 6:30pm")
            }
        }
        if case .on(let date) = due, let today, date < today {
            warn(day.span, "the snooze ends on \(date.iso), which is past (today is \(today.iso)); "
                 + "every message it matches comes back at the next run")
        }
        return .until(due, at: at)
    }

    /// A weekday (`monday`: the next one after today, as `next monday`) or a date `YYYY-MM-DD`.
    private mutating func snoozeDay(_ token: Token, allowWeekday: Bool, allowDate: Bool) throws -> DueSpec {
        let lower = token.text.lowercased()
        if allowWeekday, let weekday = ReminderSyntax.weekdays.firstIndex(of: lower) { return .next(weekday: weekday) }
        if allowDate, token.text.count == 10, let date = CivilDate(iso: token.text) { return .on(date) }
        if allowWeekday, let guess = Suggestion.closest(to: lower, in: ReminderSyntax.weekdays + ["tomorrow"]) {
            throw error(token.span, "unknown day '\(token.text)' after 'snooze until'; did you mean '\(guess)'?")
        }
        throw error(token.span, "bad day '\(token.text)' after 'snooze until'; write tomorrow, a weekday (monday), next WEEKDAY "
                    + "or a date YYYY-MM-DD, as in snooze until 2026-12-05")
    }

    // MARK: - Reminders

    private static let clauses = ReminderSyntax.clauses

    private mutating func parseReminder(templates: Bool) throws -> ReminderSpec {
        let titleToken = peek
        guard titleToken.kind == .string else {
            throw error(expectedSpan, "remind needs a title in quotes, as in remind \"Call back\"")
        }
        advance()
        let title = titleToken.text
        if templates { checkPlaceholders(titleToken) }
        if title.allSatisfy(\.isWhitespace) { error(titleToken.span, "a reminder needs a title; this one is empty") }
        var spec = ReminderSpec(title: title)
        var seen: Set<String> = []
        while peek.kind == .word, Self.clauses.contains(peek.text.lowercased()) {
            let keyword = advance()
            let clause = keyword.text.lowercased()
            let dueClauses: Set<String> = ["in", "on", "tomorrow", "next"]
            if seen.contains(clause) {
                error(keyword.span, "'\(clause)' is given twice in one reminder")
            } else if dueClauses.contains(clause), !seen.isDisjoint(with: dueClauses) {
                error(keyword.span, "give one due date: 'in N days', 'tomorrow', 'next WEEKDAY' or 'on YYYY-MM-DD', not two")
            }
            seen.insert(clause)
            switch clause {
            case "in":
                spec.due = .inDays(try parseDays())
            case "tomorrow":
                spec.due = .inDays(1)
            case "next":
                let day = peek
                guard day.kind == .word, !atRuleEnd else { throw error(expectedSpan, "expected a weekday after 'next', as in next monday") }
                advance()
                if let weekday = ReminderSyntax.weekdays.firstIndex(of: day.text.lowercased()) {
                    spec.due = .next(weekday: weekday)
                } else if let guess = Suggestion.closest(to: day.text.lowercased(), in: ReminderSyntax.weekdays) {
                    error(day.span, "unknown weekday '\(day.text)' after 'next'; did you mean '\(guess)'?")
                } else {
                    error(day.span, "unknown weekday '\(day.text)' after 'next'; write monday ... sunday, as in next monday")
                }
            case "on":
                let date = peek
                guard date.kind == .word else { throw error(expectedSpan, "expected a date after 'on', as in on 2026-12-01") }
                advance()
                if date.text.count == 10, let day = CivilDate(iso: date.text) {
                    spec.due = .on(day)
                    if let today, day < today {
                        warn(date.span, "the reminder is due on \(day.iso), which is past (today is \(today.iso)); "
                             + "every message it matches gets a reminder that is already late")
                    }
                } else {
                    error(date.span, "bad date '\(date.text)'; write YYYY-MM-DD, as in on 2026-12-01")
                }
            case "at":
                let time = peek
                guard time.kind == .word else { throw error(expectedSpan, "expected a time after 'at', as in at 09:00") }
                advance()
                if let t = TimeOfDay(phrase: time.text) { spec.at = t } else {
                    error(time.span, "bad time '\(time.text)'; write HH:MM from 00:00 to 23:59 or a time with am/pm, as in at 09:00 or at 6:30pm")
                }
            case "near":
                spec.place = try parsePlace()
            default:  // note
                let note = peek
                guard note.kind == .string else { throw error(expectedSpan, "note needs text in quotes, as in note \"bring the form\"") }
                advance()
                if templates { checkPlaceholders(note) }
                spec.note = note.text
            }
        }
        return spec
    }

    /// `"NAME" [arriving|leaving]` (a `[place NAME]` of the configuration), or
    /// `["NAME"] LAT,LON radius N m|km|mi [arriving|leaving]`; the name is the place's title.
    private mutating func parsePlace() throws -> Place {
        var title: String?
        if peek.kind == .string {
            let name = advance()
            title = name.text
            if name.text.allSatisfy(\.isWhitespace) { error(name.span, "a place name cannot be empty") }
            let coordinatesFollow = peek.kind == .minus || (peek.kind == .word && !atRuleEnd && ReminderSyntax.decimal(peek.text) != nil)
            if !coordinatesFollow {
                var place: Place
                if let known = places[name.text.lowercased()] {
                    place = known
                } else {
                    let names = places.values.compactMap(\.title).sorted()
                    if let guess = Suggestion.closest(to: name.text, in: names) {
                        error(name.span, "unknown place \(name.quoted); did you mean \"\(guess)\"?")
                    } else {
                        error(name.span, "unknown place \(name.quoted); define it in the configuration as [place \(name.text)] "
                              + "with at = LAT,LON and radius = N m, or give its coordinates: near \(name.quoted) LAT,LON radius N m")
                    }
                    place = Place(latitude: 0, longitude: 0, radiusMeters: 1, title: name.text)
                }
                if peek.isWord("arriving") { advance(); place.proximity = .arriving } else if peek.isWord("leaving") { advance(); place.proximity = .leaving }
                return place
            }
        }
        let latitude = try parseCoordinate(name: "latitude", limit: 90)
        guard peek.kind == .comma else {
            throw error(expectedSpan, "expected ',' between latitude and longitude, as in near 38.9717,-95.2353")
        }
        advance()
        let longitude = try parseCoordinate(name: "longitude", limit: 180)
        guard peek.isWord("radius") else {
            throw error(expectedSpan, "expected 'radius N m|km|mi' after the coordinates, as in radius 3 mi")
        }
        advance()
        let radiusToken = peek
        guard radiusToken.kind == .word else { throw error(expectedSpan, "expected a radius, as in radius 3 mi") }
        advance()
        let digits = radiusToken.text.prefix(while: { ($0.isASCII && $0.isNumber) || $0 == "." })
        var unit = String(radiusToken.text.dropFirst(digits.count))
        var unitSpan = radiusToken.span
        guard let amount = Self.decimal(String(digits)) else {
            throw error(radiusToken.span, "bad radius '\(radiusToken.text)'; write a number and a unit, as in radius 3 mi")
        }
        if unit.isEmpty {
            guard peek.kind == .word, !atRuleEnd else { throw error(expectedSpan, "radius needs a unit: m, km or mi") }
            unit = advance().text
            unitSpan = previous.span
        }
        guard let per = ReminderSyntax.metres(per: unit) else {
            throw error(unitSpan, "unknown unit '\(unit)' for the radius; use m, km or mi (or meters, kilometers, miles)")
        }
        let metres = amount * per
        if !(metres > 0) { error(radiusToken.span, "the radius must be more than 0") }
        var proximity = Proximity.arriving
        if peek.isWord("arriving") { advance() } else if peek.isWord("leaving") { advance(); proximity = .leaving }
        return Place(latitude: latitude, longitude: longitude, radiusMeters: metres, proximity: proximity, title: title)
    }

    private mutating func parseCoordinate(name: String, limit: Double) throws -> Double {
        var sign = 1.0
        var span = peek.span
        if peek.kind == .minus {
            let minus = advance()
            sign = -1
            span = minus.span
        }
        let token = peek
        if sign < 0 { span = span.through(token.span) }
        guard token.kind == .word, let value = Self.decimal(token.text) else {
            if token.kind == .word {
                throw error(span.through(token.span), "bad \(name) '\(token.text)'; write decimal degrees, as in near 38.9717,-95.2353")
            }
            throw error(expectedSpan, "expected a \(name) in decimal degrees, as in near 38.9717,-95.2353")
        }
        advance()
        let degrees = sign * value
        if abs(degrees) > limit {
            error(span, "\(name) \(sign < 0 ? "-" : "")\(token.text) is outside -\(Int(limit))..\(Int(limit))")
        }
        return degrees
    }

    private static func decimal(_ text: String) -> Double? { ReminderSyntax.decimal(text) }
}
