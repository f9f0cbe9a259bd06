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
        var stopper: CompiledRule?
        var blocker: CompiledRule?
        var folderRule: CompiledRule?
        for rule in rules.rules where !left.contains(rule.path + ":\(rule.line)") {
            if let blocker {
                result.leftToTriage.append((rule, "an earlier rule, \"\(blocker.name)\", is left to triage and may change what this one does"))
                continue
            }
            if let stopper {
                result.leftToTriage.append((rule, "Gmail filters have no stop: \"\(stopper.name)\" would not stop this one"))
                continue
            }
            let files = rule.actions.contains { if case .move = $0 { return true } else { return false } }
            if files, let folderRule {
                result.leftToTriage.append((rule, "Gmail would apply both this folder and \"\(folderRule.name)\"'s; triage keeps the first"))
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
                    case .stop, .queue, .remind, .digest, .webhook, .unlabel, .markUnread: continue
                    }
                }
                guard properties.allSatisfy({ !$0.1.unicodeScalars.contains { ControlCharacters.isControl($0) } }) else {
                    throw SieveExporter.Unexportable("a value holds a control character, which XML cannot carry")
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
            } catch let reason as SieveExporter.Unexportable {
                result.leftToTriage.append((rule, reason.text))
                blocker = rule
            } catch {
                result.leftToTriage.append((rule, "\(error)"))
                blocker = rule
            }
        }
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
        switch node {
        case .and(let items): return try items.map { try group($0) }.joined(separator: " ")
        case .or(let items): return "{" + (try items.map { try group($0) }).joined(separator: " ") + "}"
        case .not(let child): return "-" + (try group(child))
        case .invalid: throw SieveExporter.Unexportable("the rule has an error")
        case .term(let term):
            switch term.predicate {
            case .address(let field, .me) where [.from, .to, .cc].contains(field): return field.spelling + "me"
            case .address(let field, .address(let address)) where [.from, .to, .cc].contains(field): return field.spelling + address
            case .address(let field, .domain(let domain)) where [.from, .to, .cc].contains(field): return field.spelling + "@" + domain
            default: throw SieveExporter.Unexportable("\(term.text): Gmail's search has no operator that answers it as triage does")
            }
        }
    }

    private static func group(_ node: QueryNode) throws -> String {
        if case .and = node { return "(" + (try query(node)) + ")" }
        return try query(node)
    }
}
