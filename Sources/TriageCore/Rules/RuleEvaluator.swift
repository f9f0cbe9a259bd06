import Foundation

/// Runs compiled rules on a message, with Sieve's semantics: every rule whose
/// query matches applies its actions in order until a `stop`; an action already
/// planned happens once; of two moves (or marks, or digest sections) the first wins;
/// a later rule sees the labels, flags and folder the earlier ones planned
/// (`PlannedFacts`), as Sieve's `hasflag` sees an earlier `addflag`.
///
/// Pure: the message, the compiled rules (with identities and time zone) and `now`
/// in, the plan out.
public enum RuleEvaluator {
    /// Evaluates `message`. With `explain`, each match lists the terms that matched.
    /// `folders` is the namespace of the message's server, for `in:` (see `MessageIndex`).
    public static func evaluate(_ message: Message, rules: CompiledRules, now: Date, explain: Bool = false,
                                folders: FolderNamespace = .plain) -> Evaluation {
        evaluate(message, index: MessageIndex(message, rules: rules, folders: folders), rules: rules, now: now, explain: explain)
    }

    /// Evaluates a message already indexed against `rules`.
    public static func evaluate(_ message: Message, index: MessageIndex, rules: CompiledRules, now: Date,
                                explain: Bool = false) -> Evaluation {
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        var evaluation = Evaluation()
        var index = index
        for position in rules.rules.indices {
            // Asked of the index as it stands now, with the earlier rules' actions applied.
            guard rules.matches(ruleAt: position, in: index, now: seconds) else { continue }
            let rule = rules.rules[position]
            var match = RuleMatch(rule: rule.name, path: rule.path, line: rule.line,
                                  why: explain ? rules.why(ruleAt: position, in: index, now: seconds) : [])
            var stopped = false
            for written in rule.actions {
                if written == .stop {
                    match.actions.append(.stop)
                    stopped = true
                    break
                }
                let action = expand(written, message: message, timeZone: rules.timeZone)
                if let kept = evaluation.planned.first(where: { $0.action == action }) {
                    evaluation.dropped.append(DroppedAction(action: action, rule: rule.name, kept: kept, reason: .duplicate))
                } else if let kept = evaluation.planned.first(where: { conflicts($0.action, action) }) {
                    evaluation.dropped.append(DroppedAction(action: action, rule: rule.name, kept: kept, reason: .conflict))
                } else {
                    evaluation.planned.append(PlannedAction(action: action, rule: rule.name))
                    match.actions.append(action)
                    index.plan(action, rules: rules)
                }
            }
            evaluation.matches.append(match)
            if stopped {
                evaluation.stoppedBy = rule.name
                break
            }
        }
        return evaluation
    }

    /// Whether two different actions cannot both happen: a message lands in one
    /// folder, is read or unread, and appears in one digest section.
    static func conflicts(_ a: Action, _ b: Action) -> Bool {
        guard let group = exclusiveGroup(a) else { return false }
        return a != b && exclusiveGroup(b) == group
    }

    /// The actions of which a message can have only one; nil for actions that go
    /// with any other. No `default:`: a new action does not compile until it says.
    static func exclusiveGroup(_ action: Action) -> String? {
        switch action {
        case .move, .archive, .snooze: return "folder"
        case .markRead, .markUnread: return "read"
        case .digest: return "digest section"
        case .label, .unlabel, .flag, .queue, .remind, .followUp, .webhook, .stop: return nil
        }
    }

    /// The action with `{subject}`-style placeholders filled in from the message.
    static func expand(_ action: Action, message: Message, timeZone: TimeZone) -> Action {
        func x(_ text: String) -> String { MessageTemplate.expand(text, message: message, timeZone: timeZone) }
        switch action {
        case .label(let name): return .label(x(name))
        case .unlabel(let name): return .unlabel(x(name))
        case .move(let folder): return .move(x(folder))
        case .digest(let section): return .digest(section: x(section))
        case .remind(var spec):
            spec.title = x(spec.title)
            spec.note = spec.note.map(x)
            return .remind(spec)
        // A queue name is a plain word; a webhook URL never takes text from the sender;
        // a follow-up's title is made from the message when the record is.
        case .queue, .webhook, .followUp, .markRead, .markUnread, .flag, .archive, .stop, .snooze: return action
        }
    }
}
