import Foundation

/// Actions as people write them in rules, for `--verbose`, `--dry-run` and `triage test`.
public enum ActionText {
    /// The action in rule syntax, e.g. `label "no push"`, `queue rec in 3 days`.
    public static func describe(_ action: Action) -> String {
        func q(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        switch action {
        case .label(let l): return "label \(q(l))"
        case .unlabel(let l): return "unlabel \(q(l))"
        case .move(let f): return "move \(q(f))"
        case .markRead: return "mark read"
        case .markUnread: return "mark unread"
        case .flag: return "flag"
        case .queue(let name, let days): return "queue \(name)" + (days.map { " in \($0) days" } ?? "")
        case .remind(let spec):
            var s = "remind \(q(spec.title))"
            switch spec.due {
            case .inDays(let n)?: s += " in \(n) days"
            case .on(let d)?: s += " on \(d.iso)"
            case nil: break
            }
            if let at = spec.at { s += " at \(at)" }
            if let p = spec.place {
                s += " near \(p.latitude),\(p.longitude) radius \(Int(p.radiusMeters.rounded())) m \(p.proximity.rawValue)"
            }
            if let note = spec.note { s += " note \(q(note))" }
            return s
        case .digest(let section): return "digest \(q(section))"
        case .webhook(let url): return "webhook \(q(url))"
        case .stop: return "stop"
        }
    }
}
