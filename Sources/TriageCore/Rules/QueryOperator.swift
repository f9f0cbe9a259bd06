/// One query operator of the rule language, described once: its spelling, how its
/// value is read, what of a message it needs fetched, and which of the places rules
/// go besides triage (a Sieve script, Gmail's filters, the server's `UID SEARCH`)
/// can answer it. The parser, `CompiledRules.neededParts` and `neededHeaderFields`,
/// both exporters, `ServerNarrowing`, the man page test and the docs test read it.
///
/// How to add an operator: a `QueryField` case (its spelling) and a `QueryPredicate`
/// case, then build: the compiler names every switch without `default:` (the entry
/// in `describe`, `QueryPredicate.field`, `RuleCompiler.compileTerm` with its
/// `CompiledTerm` and match, `SieveExporter`'s term). Document it in docs/rules.md and
/// man/triage-rules.5 (`OperatorTableTests`, `ManPageTests` check both) and add a
/// `Tests/TriageCoreTests/RuleCases` file.
public struct QueryOperator: Sendable {
    /// The operator; nil for a bare word or phrase.
    public let field: QueryField?
    /// How its value is read.
    let syntax: ValueSyntax
    /// The header fields it reads (upper-case), besides `CompiledRules.fixedHeaderFields`.
    let headers: [String]
    /// The parts beyond the header it needs fetched.
    let parts: MessageParts
    /// Whether it reads the whole header block (the MIME parse of the text needs the Content-* fields).
    let wholeHeader: Bool
    /// What a Sieve script can make of it.
    let sieve: SieveReach
    /// Whether Gmail's search has the same operator, for a whole address, `@domain` or `me`.
    let gmail: Bool
    /// The IMAP SEARCH key that finds every address the operator can match (`ServerNarrowing`).
    let search: SearchKey.Field?
    /// The `AddressField` bit of an address operator, 0 for the others.
    let addressBit: UInt8

    /// The fixed values it takes (`is:unread`, `has:attachment`), in the order they are
    /// listed; empty when the value is free.
    public var keywords: [String] {
        if case .keyword(let table) = syntax { return table.map(\.word) }
        return []
    }

    /// The operator as written with a keyword value, or with its colon: `is:unread`, `from:`.
    public var spellings: [String] {
        guard let field else { return [] }
        return keywords.isEmpty ? [field.spelling] : keywords.map { field.spelling + $0 }
    }

    /// How an operator's value is read (`RuleParser.makeTerm`).
    enum ValueSyntax: Sendable {
        /// `me`, an address, `@domain`, `domain.or.words`, words or a wildcard.
        case address
        /// Words, a phrase or a one-word wildcard.
        case text(@Sendable (TextPattern) -> QueryPredicate)
        /// A List-Id or a suffix of it.
        case list
        /// A label name.
        case label
        /// An attachment's name, extension or word.
        case filename
        /// One of a few words.
        case keyword([(word: String, predicate: QueryPredicate)])
        /// A size with an optional K or M.
        case size(@Sendable (Int) -> QueryPredicate)
        /// An age with d, m or y.
        case age(@Sendable (Int64) -> QueryPredicate)
        /// A day, `YYYY/MM/DD`.
        case date(@Sendable (CivilDate) -> QueryPredicate)
        /// `NAME:VALUE`.
        case header
        /// A folder as rules name it.
        case folder
        /// An operator that cannot work, with the reason.
        case refused(String)
    }

    /// What a Sieve script at delivery can make of an operator (`SieveExporter`).
    enum SieveReach: Sendable {
        /// An address test on this header.
        case address(String)
        /// Some values, as the exporter decides term by term.
        case someValues
        /// None, for this reason.
        case never(String)
    }

    /// The reason Sieve cannot answer the operator; nil when some value can be.
    var sieveRefusal: String? {
        if case .never(let reason) = sieve { return reason }
        return nil
    }

    /// Every operator, in `QueryField` order.
    public static let all: [QueryOperator] = QueryField.allCases.map(describe)

    /// The operator of `field`.
    public static subscript(_ field: QueryField) -> QueryOperator {
        all[QueryField.allCases.firstIndex(of: field)!]
    }

    /// The operator a predicate comes from (bare words and phrases included).
    static func of(_ predicate: QueryPredicate) -> QueryOperator {
        predicate.field.map { self[$0] } ?? bareWords
    }

    /// A bare word or phrase: the subject, the sender or the text snippet.
    static let bareWords = QueryOperator(field: nil, syntax: .text { .text($0) }, headers: [], parts: .text, wholeHeader: true,
                                         sieve: .never(wholeWords + " (it finds 'cat' in 'concatenate')"))

    static let wholeWords = "matches whole words, which Sieve's :contains cannot express"

    init(field: QueryField?, syntax: ValueSyntax, headers: [String] = [], parts: MessageParts = [], wholeHeader: Bool = false,
         sieve: SieveReach, gmail: Bool = false, search: SearchKey.Field? = nil, addressBit: UInt8 = 0) {
        self.field = field
        self.syntax = syntax
        self.headers = headers
        self.parts = parts
        self.wholeHeader = wholeHeader
        self.sieve = sieve
        self.gmail = gmail
        self.search = search
        self.addressBit = addressBit
    }

    /// The table's entry for `field`: one exhaustive switch, so a new `QueryField` case
    /// does not build until it is described.
    private static func describe(_ field: QueryField) -> QueryOperator {
        let attachments = "attachments are found by triage's MIME reading, which Sieve does not share"
        let sizes = "servers count the size with CRLF line ends, triage test counts a file's bytes"
        let dates = "dates are compared with the time triage runs, not delivery"
        switch field {
        case .from:
            return QueryOperator(field: field, syntax: .address, headers: ["FROM"], sieve: .address("from"), gmail: true,
                                 search: .from, addressBit: AddressField.from)
        case .to:
            return QueryOperator(field: field, syntax: .address, headers: ["TO"], sieve: .address("to"), gmail: true,
                                 search: .to, addressBit: AddressField.to)
        case .cc:
            return QueryOperator(field: field, syntax: .address, headers: ["CC"], sieve: .address("cc"), gmail: true,
                                 search: .cc, addressBit: AddressField.cc)
        case .bcc:
            return QueryOperator(field: field, syntax: .address, headers: ["BCC"],
                                 sieve: .never("Bcc is not in a delivered message's header"), search: .bcc, addressBit: AddressField.bcc)
        case .replyto:
            // No SEARCH key of its own: a HEADER search does not parse addresses.
            return QueryOperator(field: field, syntax: .address, headers: ["REPLY-TO"], sieve: .address("reply-to"),
                                 addressBit: AddressField.replyTo)
        case .deliveredto:
            return QueryOperator(field: field, syntax: .address, headers: ["DELIVERED-TO"],
                                 sieve: .never("the server adds Delivered-To at delivery, around the script"),
                                 addressBit: AddressField.deliveredTo)
        case .subject:
            return QueryOperator(field: field, syntax: .text { .subject($0) }, sieve: .never(wholeWords + " (it finds 'cat' in 'concatenate')"))
        case .list:
            return QueryOperator(field: field, syntax: .list, headers: ["LIST-ID"], sieve: .someValues)
        case .label:
            return QueryOperator(field: field, syntax: .label, sieve: .never("labels other rules or clients set are not known at delivery"))
        case .has:
            return QueryOperator(field: field, syntax: .keyword([("attachment", .hasAttachment)]), parts: .structure,
                                 sieve: .never(attachments))
        case .filename:
            return QueryOperator(field: field, syntax: .filename, parts: .structure, sieve: .never(attachments))
        case .is:
            // Flags and labels are server facts; is:impersonating reads From, which is always fetched.
            return QueryOperator(field: field, syntax: .keyword([("unread", .isUnread), ("read", .isRead), ("starred", .isStarred),
                                                                 ("important", .isImportant), ("impersonating", .isImpersonating)]),
                                 sieve: .someValues)
        case .larger:
            return QueryOperator(field: field, syntax: .size { .larger($0) }, sieve: .never(sizes))
        case .smaller:
            return QueryOperator(field: field, syntax: .size { .smaller($0) }, sieve: .never(sizes))
        case .olderThan:
            return QueryOperator(field: field, syntax: .age { .olderThan($0) }, sieve: .never(dates))
        case .newerThan:
            return QueryOperator(field: field, syntax: .age { .newerThan($0) }, sieve: .never(dates))
        case .after:
            return QueryOperator(field: field, syntax: .date { .after($0) }, sieve: .never(dates))
        case .before:
            return QueryOperator(field: field, syntax: .date { .before($0) }, sieve: .never(dates))
        case .header:
            // Reads the field its value names (`CompiledRules.neededHeaderFields`).
            return QueryOperator(field: field, syntax: .header, sieve: .someValues)
        case .in:
            return QueryOperator(field: field, syntax: .folder, sieve: .never("the folder is not known at delivery"))
        case .category:
            return QueryOperator(field: field, syntax: .refused(
                "category: cannot work: Gmail's IMAP does not say which category (Promotions, Social, "
                    + "Updates, Forums) a message is in; have a Gmail filter add a label to such mail and use label: instead"),
                                 sieve: .never("Gmail's IMAP does not report categories"))
        }
    }
}

extension QueryPredicate {
    /// The operator the predicate is written with; nil for a bare word or phrase.
    var field: QueryField? {
        switch self {
        case .text: return nil
        case .address(let field, _): return field
        case .subject: return .subject
        case .list: return .list
        case .label: return .label
        case .hasAttachment: return .has
        case .filename: return .filename
        case .isUnread, .isRead, .isStarred, .isImportant, .isImpersonating: return .is
        case .header: return .header
        case .inFolder: return .in
        case .larger: return .larger
        case .smaller: return .smaller
        case .olderThan: return .olderThan
        case .newerThan: return .newerThan
        case .after: return .after
        case .before: return .before
        }
    }
}
