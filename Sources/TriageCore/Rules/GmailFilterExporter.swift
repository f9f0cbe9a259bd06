/// The rules `SieveExporter` takes, as far as Gmail's filters can hold them, in the XML
/// Gmail's Settings → Filters and blocked addresses → Export writes and Import reads:
/// an Atom feed (`http://www.w3.org/2005/Atom`) with one `<entry>` per filter, each
/// with `<apps:property name=... value=...>` (`http://schemas.google.com/apps/2006`):
/// `hasTheWord` (a Gmail search query), `label`, `shouldArchive`, `shouldMarkAsRead`,
/// `shouldStar`.
///
/// Gmail runs every filter on every message, in no order and without stop, so on top
/// of what Sieve cannot evaluate, these are left to triage: rules after one with
/// `stop`, a second rule with a folder (`move` is a label and `shouldArchive` on
/// Gmail; of two, triage keeps the first, Gmail both), and terms Gmail's search has no
/// operator for (`list:*`, `header:`). Gmail evaluates `hasTheWord` with its own search.
public enum GmailFilterExporter {
    /// The feed and what it leaves out.
    public struct Result: Sendable {
        /// The XML document.
        public var xml: String
        /// Rules left to triage, with the reason, in rule order (Sieve's reasons included).
        public var leftToTriage: [(rule: CompiledRule, reason: String)] = []
        /// How many filters the feed holds.
        public var filters = 0
    }

    /// Exports `rules`; `updated` is the feed's time stamp (RFC 3339, injected).
    public static func export(_ rules: CompiledRules, updated: String) -> Result {
        let sieve = SieveExporter.export(rules, archiveFolder: "Archive")
        var result = Result(xml: "")
        result.leftToTriage = sieve.leftToTriage
        let left = Set(sieve.leftToTriage.map { $0.rule.path + ":\($0.rule.line)" })
        var entries: [String] = []
        var own = LeftToTriage()
        var stopper: CompiledRule?
        var folderRule: CompiledRule?
        for rule in rules.rules where !left.contains(rule.path + ":\(rule.line)") && own.admits(rule) {
            if let stopper {
                own.leave(rule, "Gmail filters have no stop: \"\(stopper.name)\" would not stop this one")
                continue
            }
            let files = rule.actions.contains { if case .move = $0 { return true } else { return false } }
            if files, let folderRule {
                own.leave(rule, "Gmail would apply both this folder and \"\(folderRule.name)\"'s; triage keeps the first")
                continue
            }
            do {
                let query = try self.query(rule.queryNode)
                var properties = [("hasTheWord", query)]
                for action in rule.actions {
                    switch action {
                    case .label(let name): properties.append(("label", name))
                    case .move(let folder): properties += [("label", folder), ("shouldArchive", "true")]
                    case .archive: properties.append(("shouldArchive", "true"))
                    case .markRead: properties.append(("shouldMarkAsRead", "true"))
                    case .flag: properties.append(("shouldStar", "true"))
                    case .stop, .queue, .remind, .followUp, .digest, .webhook, .unlabel, .markUnread: continue
                    case .snooze:
                        throw Unexportable("\(ActionFormatter.text(action)): triage records when it wakes and brings it back; left to triage")
                    }
                }
                guard properties.allSatisfy({ !$0.1.unicodeScalars.contains { ControlCharacters.isControl($0) } }) else {
                    throw Unexportable("a value holds a control character, which XML cannot carry")
                }
                // Gmail's filters set one label each: a rule with more becomes one filter per label.
                let labels = properties.filter { $0.0 == "label" }
                let rest = properties.filter { $0.0 != "label" }
                for (index, label) in (labels.isEmpty ? [nil] : labels.map { Optional($0) }).enumerated() {
                    let own = index == 0 ? rest : rest.filter { $0.0 == "hasTheWord" }
                    entries.append(entry(own + (label.map { [$0] } ?? []), id: entries.count + 1, updated: updated))
                }
                // A later archive is harmless (Gmail archives once); a later move is not.
                if files || rule.actions.contains(.archive) { folderRule = folderRule ?? rule }
                if rule.actions.contains(.stop) { stopper = rule }
            } catch {
                own.refuse(rule, error)
            }
        }
        result.leftToTriage += own.rules
        result.filters = entries.count
        result.leftToTriage.sort { ($0.rule.path, $0.rule.line) < ($1.rule.path, $1.rule.line) }
        result.xml = """
        <?xml version='1.0' encoding='UTF-8'?>
        <feed xmlns='http://www.w3.org/2005/Atom' xmlns:apps='http://schemas.google.com/apps/2006'>
        \t<title>Mail Filters</title>
        \t<id>tag:mail.google.com,2008:filters:triage</id>
        \t<updated>\(updated)</updated>
        \t<author>
        \t\t<name>triage</name>
        \t</author>

        """ + entries.joined() + "</feed>\n"
        return result
    }

    private static func entry(_ properties: [(String, String)], id: Int, updated: String) -> String {
        var text = "\t<entry>\n\t\t<category term='filter'></category>\n\t\t<title>Mail Filter</title>\n"
            + "\t\t<id>tag:mail.google.com,2008:filter:triage\(id)</id>\n\t\t<updated>\(updated)</updated>\n\t\t<content></content>\n"
        for (name, value) in properties {
            text += "\t\t<apps:property name='\(name)' value='\(HTMLEscaper.escape(value))'/>\n"
        }
        return text + "\t</entry>\n"
    }

    /// The query in Gmail's search syntax (triage's own, for the terms taken).
    static func query(_ node: QueryNode) throws -> String {
        try node.fold(term: term,
                      and: { $0.map(group).joined(separator: " ") },
                      or: { "{" + $0.map(group).joined(separator: " ") + "}" },
                      not: { "-" + group($0) },
                      invalid: { throw Unexportable("the rule has an error") })
    }

    /// A term Gmail's search answers as triage does: an address operator the table
    /// marks `gmail` with a whole address, `@domain` or `me`.
    private static func term(_ term: QueryTerm) throws -> String {
        if case .address(let field, let pattern) = term.predicate, QueryOperator[field].gmail {
            switch pattern {
            case .me: return field.spelling + "me"
            case .address(let address): return field.spelling + address
            case .domain(let domain): return field.spelling + "@" + domain
            case .glob, .words, .domainOrWords: break
            }
        }
        throw Unexportable("\(term.text): Gmail's search has no operator that answers it as triage does")
    }

    /// A child as written inside a group: an AND in parentheses.
    private static func group(_ child: QueryNode.Folded<String>) -> String {
        if case .and = child.node { return "(" + child.value + ")" }
        return child.value
    }
}
