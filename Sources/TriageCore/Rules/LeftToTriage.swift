/// The one policy both exporters (`SieveExporter`, `GmailFilterExporter`) follow for
/// the rules they leave to triage: a rule with only local actions (queue, remind,
/// digest, webhook) is triage's; a rule that cannot be exported makes every later rule
/// that changes the server or stops unexportable too, since what it would do first is
/// unknown to the export, unless the export can leave every message the rule may
/// match to triage (`guarded`).
struct LeftToTriage {
    /// Rules (or parts) left to triage, each with its reason, in rule order.
    var rules: [(rule: CompiledRule, reason: String)] = []
    /// The first rule that could not be exported.
    private var blocker: CompiledRule?

    static let localOnly = "local actions only (queue, remind, digest, webhook): triage does them"

    /// Whether the export may try `rule`; if not, it is recorded with its reason.
    mutating func admits(_ rule: CompiledRule) -> Bool {
        let serverSide = rule.actions.contains { $0.serverEffect != nil || $0 == .stop }
        if let blocker, serverSide {
            rules.append((rule, "an earlier rule, \"\(blocker.name)\", is left to triage and may change what this one does"))
            return false
        }
        guard serverSide else {
            rules.append((rule, Self.localOnly))
            return false
        }
        return true
    }

    /// Records that `rule` cannot be exported, because of `error`.
    mutating func refuse(_ rule: CompiledRule, _ error: Error) {
        rules.append((rule, (error as? Unexportable)?.text ?? "\(error)"))
        blocker = rule
    }

    /// Records that `rule` cannot be exported, because of `error`, but that the export
    /// leaves every message it may match untouched (a guard in front of the exported
    /// rules), so it does not block the later rules.
    mutating func guarded(_ rule: CompiledRule, _ error: Error) {
        rules.append((rule, ((error as? Unexportable)?.text ?? "\(error)") + "; " + Self.guardedNote))
    }

    static let guardedNote = "the script leaves mail this rule may match untouched, for triage"

    /// Records `rule` as left for an exporter's own reason, without blocking later rules.
    mutating func leave(_ rule: CompiledRule, _ reason: String) {
        rules.append((rule, reason))
    }
}

/// Why a rule (or a term of it) cannot be exported.
struct Unexportable: Error {
    var text: String
    init(_ text: String) { self.text = text }

    /// A term whose operator the export cannot answer, with the table's reason.
    init(_ term: QueryTerm, _ reason: String) {
        text = term.text + ": " + reason
    }
}
