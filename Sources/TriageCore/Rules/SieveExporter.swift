/// Compiles the rules a mail server can evaluate at delivery exactly as triage does
/// into one Sieve script (RFC 5228 with `fileinto`, `imap4flags` RFC 5232 and
/// `variables` RFC 5229, all in Pigeonhole), and names every rule it leaves to triage.
///
/// Exact means: for every message the script acts on, the folder and flags it gives
/// equal what `triage test` plans. A message whose address fields Sieve's parser could
/// read otherwise than triage's (see `cleanAddressList`) is left alone by the script,
/// for triage to file at its next run. So only terms Sieve answers the same way are taken: whole
/// addresses, `me`, domains (`from:@bank.example`, with subdomains), `list:*` and
/// `header:NAME:*`, combined with AND, OR and NOT. Word matching (`subject:`, names,
/// bare words) is not: Sieve's `:contains` finds `cat` in `concatenate`, triage's
/// words do not. The triage semantics are kept with variables: of two moves (or
/// `archive`s) the first wins, the first `mark read` wins, `stop` ends the rules
/// but not the final filing, and every flag is set before the message is filed.
///
/// A rule that cannot be exported and changes the server or stops makes every later
/// rule unexportable too: what it would do is unknown to the script. Unless the
/// script can test a superset of what it matches (`superset`: its exportable AND
/// terms, or for `is:impersonating` a From that is not one plain mailbox): then the
/// script's guard leaves every message in that superset untouched, for triage, and
/// the later rules are exported for the rest, on which the rule cannot match.
public enum SieveExporter {
    /// The script and what it leaves out.
    public struct Result: Sendable {
        /// The Sieve script.
        public var script: String
        /// Rules (or parts) left to triage, each with its reason, in rule order.
        public var leftToTriage: [(rule: CompiledRule, reason: String)] = []
        /// Folders the script may file into (besides INBOX), in first-use order.
        public var folders: [String] = []
        /// Exported rules whose local actions (queue, remind, digest, webhook) triage
        /// still does when it processes the folder the script filed the message into.
        public var localActions: [CompiledRule] = []
    }

    /// Exports `rules` (`me` is their identities). `archiveFolder` is where `archive`
    /// files (the account's `archive =`, else `Archive`, as the rules name folders);
    /// `namespace` turns the rules' folder names into the server's for `fileinto`
    /// (`Lists/dev` is `INBOX.Lists.dev` on Courier); `Result.folders` keeps the rules' names.
    public static func export(_ rules: CompiledRules, archiveFolder: String, namespace: FolderNamespace = .plain) -> Result {
        var result = Result(script: "")
        let identities = rules.environment.identities.map { $0.lowercased() }
        var left = LeftToTriage()
        var body: [String] = []
        var reads = Reads()
        var supersets: [String] = []
        for rule in rules.rules where left.admits(rule) {
            do {
                var ruleReads = reads
                let test = try self.test(rule.queryNode, identities: identities, reads: &ruleReads)
                let actions = try self.actions(rule.actions, archiveFolder: archiveFolder, namespace: namespace, folders: &result.folders)
                body.append("# rule \(comment(rule.name)) (\(comment(rule.path)):\(rule.line))")
                body.append("if allof (string :is \"${stop}\" \"\", \(test)) {")
                body += actions.map { "  " + $0 }
                body.append("}")
                reads = ruleReads
                if rule.actions.contains(where: { $0.storeEffect != nil }) { result.localActions.append(rule) }
            } catch {
                var guardReads = reads
                if let superset = superset(rule.queryNode, identities: identities, reads: &guardReads) {
                    reads = guardReads
                    if !supersets.contains(superset) { supersets.append(superset) }
                    left.guarded(rule, error)
                } else {
                    left.refuse(rule, error)
                }
            }
        }
        result.leftToTriage = left.rules
        var extensions = ["fileinto", "imap4flags", "variables"]
        if reads.regex { extensions += ["regex", "index"] }
        if !reads.addressFields.isEmpty { extensions += ["relational", "comparator-i;ascii-numeric"] }
        var lines = [
            "# Made by triage export sieve: the rules a server can evaluate at delivery exactly",
            "# as triage does. triage does the rest, and the local actions, when it runs.",
            "require [" + extensions.map(quote).joined(separator: ", ") + "];",
            "",
        ]
        lines += guardLines(reads, supersets: supersets)
        lines += body
        if !body.isEmpty { lines.append("") }
        lines += [
            "# Filed last, so every flag the rules set goes with the message.",
            "if string :is \"${folder}\" \"\" {",
            "  keep;",
            "} else {",
            "  fileinto \"${folder}\";",
            "}",
        ]
        result.script = lines.joined(separator: "\n") + "\n"
        return result
    }

    // MARK: - Tests

    static func test(_ node: QueryNode, identities: [String], reads: inout Reads) throws -> String {
        try node.fold(term: { try test($0, identities: identities, reads: &reads) },
                      and: { "allof (" + $0.map(\.value).joined(separator: ", ") + ")" },
                      or: { "anyof (" + $0.map(\.value).joined(separator: ", ") + ")" },
                      not: { "not " + $0.value },
                      invalid: { throw Unexportable("the rule has an error") })
    }

    /// One term as a Sieve test. What the operator can never be is in its
    /// `QueryOperator.sieve`; the switch has no `default:`, so a new predicate is decided here.
    private static func test(_ term: QueryTerm, identities: [String], reads: inout Reads) throws -> String {
        let what = term.text
        let op = QueryOperator.of(term.predicate)
        switch term.predicate {
        case .address(_, let pattern):
            let header: String
            switch op.sieve {
            case .address(let name): header = name
            case .never(let reason): throw Unexportable(term, reason)
            case .someValues: throw Unexportable(term, "not an address field")
            }
            // triage reads the first From and Reply-To field, and every To and Cc field.
            let index = header == "from" || header == "reply-to" ? ":index 1 " : ""
            let test: String
            switch pattern {
            case .me:
                guard !identities.isEmpty, identities.allSatisfy(isPlainAddress) else {
                    throw Unexportable("\(what): an address of 'me' is not plain ASCII, which Sieve compares otherwise")
                }
                test = "address \(index):all :comparator \"i;ascii-casemap\" :is \"\(header)\" \(list(identities))"
            case .address(let address):
                guard isPlainAddress(address) else { throw Unexportable("\(what): not a plain ASCII address") }
                test = "address \(index):all :comparator \"i;ascii-casemap\" :is \"\(header)\" \(quote(address))"
            case .domain(let domain):
                guard isPlainDomain(domain) else { throw Unexportable("\(what): not a plain ASCII domain") }
                test = "anyof (address \(index):domain :comparator \"i;ascii-casemap\" :is \"\(header)\" \(quote(domain)), "
                    + "address \(index):domain :comparator \"i;ascii-casemap\" :matches \"\(header)\" \(quote("*." + domain)))"
            case .glob, .words, .domainOrWords:
                throw Unexportable("\(what): matches whole words of names and addresses, which Sieve's :contains cannot express")
            }
            if !reads.addressFields.contains(header) { reads.addressFields.append(header) }
            reads.regex = true
            return test
        case .list(let id):
            guard id == "*" else {
                throw Unexportable("\(what): triage compares the List-Id's <id> by domain-style suffix, which Sieve's header tests cannot take apart exactly")
            }
            reads.regex = true
            return listPresent

        case .header(let name, nil):
            guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else {
                throw Unexportable("\(what): not a plain header name")
            }
            return "exists \(quote(name))"
        case .header:
            throw Unexportable(term, QueryOperator.wholeWords)
        case .isUnread, .isRead, .isStarred, .isImportant:
            throw Unexportable("\(what): flags are not known at delivery")
        case .isImpersonating:
            throw Unexportable("\(what): display names are read by triage's address parser, which Sieve does not share")
        case .text, .subject, .label, .hasAttachment, .filename, .inFolder, .larger, .smaller, .olderThan, .newerThan, .after, .before:
            throw Unexportable(term, op.sieveRefusal ?? "not in Sieve")
        }
    }

    /// A Sieve test true of every message `node` may match, whatever the rules before it
    /// planned; nil when the script can give none narrower than every message. Exact
    /// terms are themselves; of an AND the terms that have one (the others can only
    /// narrow it); an OR only when each part has one; a NOT only of an exact test.
    static func superset(_ node: QueryNode, identities: [String], reads: inout Reads) -> String? {
        switch node {
        case .term(let term):
            if case .isImpersonating = term.predicate {
                reads.regex = true
                return impersonationSuperset
            }
            return try? test(term, identities: identities, reads: &reads)
        case .and(let items):
            let parts = items.compactMap { superset($0, identities: identities, reads: &reads) }
            if parts.count <= 1 { return parts.first }
            return "allof (" + parts.joined(separator: ", ") + ")"
        case .or(let items):
            var parts: [String] = []
            for item in items {
                guard let part = superset(item, identities: identities, reads: &reads) else { return nil }
                parts.append(part)
            }
            if parts.count <= 1 { return parts.first }
            return "anyof (" + parts.joined(separator: ", ") + ")"
        case .not(let child):
            return (try? test(child, identities: identities, reads: &reads)).map { "not " + $0 }
        case .invalid:
            return nil
        }
    }

    /// The first From field is one plain mailbox whose display name (if any) is made of
    /// ASCII letters, digits, blanks and a few marks: no `.`, no `@`, nothing that reads
    /// as one (`NameDisguise` looks for a part holding `.`, `@` or one of their full-width
    /// or ideographic forms), no `=`/`?` of an encoded word Sieve left undecoded, no `+`/`~`
    /// of UTF-7 or HZ text. Compared as octets, so no case folding lets a non-ASCII letter in.
    static let plainFrom: String = {
        let alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
        let address = "[\(alnum)_-]+([.][\(alnum)_-]+)*@[\(alnum)-]+([.][\(alnum)-]+)*"
        let nameChar = "[\(alnum)[:blank:]!#$%&'*/^_`{|}-]"
        let name = "(\(nameChar)+|\"\(nameChar)*\")"
        return "^[[:blank:]]*(\(address)|(\(name))?[[:blank:]]*<\(address)>)[[:blank:]]*$"
    }()

    /// True of every message `is:impersonating` matches (a From display name showing a
    /// domain): a first From field that is not `plainFrom`.
    static let impersonationSuperset = "not anyof (not exists \"from\", "
        + "header :index 1 :comparator \"i;octet\" :regex \"from\" \(quote(plainFrom)))"

    // MARK: - Headers read the same way

    /// What the exported tests read, for the guard in front of them.
    struct Reads {
        /// Address fields (`from`, `to`, `cc`, `reply-to`) that address tests read, in first-use order.
        var addressFields: [String] = []
        /// Whether the script needs `regex` and `index`.
        var regex = false
    }

    /// How many To or Cc fields the guard looks at; a message with more is left to triage.
    static let checkedFieldCount = 3

    /// `list:*` as triage reads the first List-Id: the text inside the last `<...>`
    /// (when that `<` is closed), else the whole value, must not be blank.
    static let listPresent = "anyof (header :index 1 :regex \"list-id\" \(quote("<[^<>]*[^<>[:space:][:cntrl:]][^<>]*>[^<]*$")), "
        + "allof (not header :index 1 :regex \"list-id\" \(quote("<[^<>]*>[^<]*$")), "
        + "header :index 1 :regex \"list-id\" \(quote("[^[:space:][:cntrl:]]"))))"

    /// An address field value both triage (libetpan's grammar, then its recovery of what
    /// the grammar refuses) and Sieve read as the same mailboxes: a comma-separated list of
    /// plain `local@domain`, each bare or in `<...>` after an optional name of plain words
    /// or one quoted string, or a group of such (`Team: a@x, b@y;`, `undisclosed-recipients:;`).
    /// Anything else (a name holding `@` or `<`
    /// unquoted, two `<...>`, a route, comments, a missing comma) the two read differently.
    static let cleanAddressList: String = {
        let address = "[A-Za-z0-9_+-]+([.][A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+([.][A-Za-z0-9-]+)*"
        let name = "([^][<>@,;:\\\\\"()[:cntrl:]]+|\"[^\"\\\\[:cntrl:]]*\")"
        let mailbox = "(\(address)|(\(name)[[:blank:]]*)?<\(address)>)"
        let mailboxes = "(\(mailbox)([[:blank:]]*,[[:blank:]]*\(mailbox))*)"
        let item = "(\(mailbox)|\(name)[[:blank:]]*:[[:blank:]]*\(mailboxes)?[[:blank:]]*;)"
        return "^[[:blank:]]*(\(item)([[:blank:]]*,[[:blank:]]*\(item))*)?[[:blank:]]*$"
    }()

    /// The script's first lines when a test reads addresses or a rule is left to triage
    /// behind a guard: a message whose address fields are not all in a form Sieve reads
    /// exactly as triage does, or that is in one of `supersets`, is left alone (kept in
    /// the inbox, nothing set), and `triage run` files it as it would any message.
    private static func guardLines(_ reads: Reads, supersets: [String]) -> [String] {
        guard !reads.addressFields.isEmpty || !supersets.isEmpty else { return [] }
        var tests: [String] = []
        for field in reads.addressFields {
            if field == "from" || field == "reply-to" {
                tests.append("anyof (not exists \(quote(field)), header :index 1 :regex \(quote(field)) \(quote(cleanAddressList)))")
                continue
            }
            tests.append("header :count \"le\" :comparator \"i;ascii-numeric\" \(quote(field)) \"\(checkedFieldCount)\"")
            for index in 1...checkedFieldCount {
                tests.append("anyof (header :count \"lt\" :comparator \"i;ascii-numeric\" \(quote(field)) \"\(index)\", "
                    + "header :index \(index) :regex \(quote(field)) \(quote(cleanAddressList)))")
            }
        }
        var comment: [String] = []
        if !reads.addressFields.isEmpty {
            comment += ["# Address fields Sieve could read otherwise than triage (a display name holding an",
                        "# address, two <...>, a route, comments, encoded addresses): such a message is left",
                        "# in the inbox untouched, and triage files it when it runs."]
        }
        if !supersets.isEmpty {
            comment += ["# Mail that a rule left to triage may match (is:impersonating: a From that is not one",
                        "# plain mailbox with a plain name) is left untouched too, so the later rules act exactly."]
            tests += supersets.map { "not " + $0 }
        }
        return comment + [
            "if not allof (" + tests.joined(separator: ",\n    ") + ") {",
            "  stop;",
            "}",
            "",
        ]
    }

    // MARK: - Actions

    private static func actions(_ actions: [Action], archiveFolder: String, namespace: FolderNamespace,
                                folders: inout [String]) throws -> [String] {
        var lines: [String] = []
        for action in actions {
            switch action {
            case .label(let name):
                guard !name.contains("{") else { throw Unexportable("label \(quote(name)): placeholders are filled in by triage") }
                guard let keyword = LabelCodec.keyword(for: name), !keyword.contains("${"), !keyword.contains(" ") else {
                    throw Unexportable("label \(quote(name)): no keyword Sieve can write as it is")
                }
                lines.append("addflag \(quote(keyword));")
            case .move(let folder):
                guard !folder.contains("{") else { throw Unexportable("move \(quote(folder)): placeholders are filled in by triage") }
                lines += try fileLines(folder, namespace, &folders)
            case .archive:
                lines += try fileLines(archiveFolder, namespace, &folders)
            case .markRead:
                lines.append("if string :is \"${read}\" \"\" { set \"read\" \"1\"; addflag \"\\\\Seen\"; }")
            case .flag:
                lines.append("addflag \"\\\\Flagged\";")
            case .stop:
                lines.append("set \"stop\" \"1\";")
            case .unlabel, .markUnread:
                throw Unexportable("\(ActionFormatter.text(action)): removes what a delivered message does not have yet; left to triage")
            case .snooze:
                throw Unexportable("\(ActionFormatter.text(action)): triage records when it wakes and brings it back; left to triage")
            case .queue, .remind, .followUp, .digest, .webhook:
                continue  // triage does them when it processes the folder
            }
        }
        return lines
    }

    /// The first folder action wins, as in triage.
    private static func fileLines(_ folder: String, _ namespace: FolderNamespace, _ folders: inout [String]) throws -> [String] {
        let target = namespace.serverName(folder)
        guard !target.contains("${") else { throw Unexportable("folder \(quote(folder)): '${' would be read as a Sieve variable") }
        if folder.uppercased() != "INBOX", !folders.contains(folder) { folders.append(folder) }
        return ["if string :is \"${folder}\" \"\" { set \"folder\" \(quote(target)); }"]
    }

    // MARK: - Strings

    private static func isPlainAddress(_ text: String) -> Bool {
        text.contains("@") && text.utf8.allSatisfy { $0 > 32 && $0 < 127 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
            && $0 != UInt8(ascii: "*") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "$") }
    }

    private static func isPlainDomain(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
            || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
    }

    /// A Sieve quoted string: `"` and `\` escaped (RFC 5228 2.4.2).
    static func quote(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }

    private static func list(_ items: [String]) -> String {
        items.count == 1 ? quote(items[0]) : "[" + items.map(quote).joined(separator: ", ") + "]"
    }

    /// Text for a `#` comment: one line, no controls.
    private static func comment(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.value < 32 || $0.value == 127 || (0x80..<0xA0).contains($0.value) ? " " : Character($0) })
    }
}
