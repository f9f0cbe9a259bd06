/// What `triage test` shows for one message: which rules matched, why, the
/// planned actions, and what was dropped. Pure: returns text or JSON.
public enum RuleTestReport {
    /// One line of JSON: `{"file": ..., "message_id": ..., "matched": [{"rule": NAME, "actions": [ACTION...]}]}`.
    public static func json(file: String, message: Message, evaluation: Evaluation, today: CivilDate) -> JSONValue {
        .object([
            ("file", .string(file)),
            ("message_id", .optional(message.messageID)),
            ("matched", .array(evaluation.matches.map { match in
                .object([("rule", .string(match.rule)),
                         ("actions", .array(match.actions.map { ActionFormatter.json($0, today: today) }))])
            })),
        ])
    }

    /// The human report, ending with a newline.
    public static func text(file: String, message: Message, evaluation: Evaluation) -> String {
        var out = file
        if let id = message.messageID { out += " <\(id)>" }
        out += "\n"
        for from in message.from {
            guard let name = from.name, let shown = from.impersonatedDomain else { continue }
            out += "  warning: the sender's name \"\(ControlCharacters.replaced(in: name))\" shows \(ControlCharacters.replaced(in: shown)), "
                + "but the address is \(ControlCharacters.replaced(in: from.address)) (is:impersonating)\n"
        }
        if evaluation.matches.isEmpty { out += "  no rule matched\n" }
        for match in evaluation.matches {
            out += "  rule \"\(match.rule)\" (\(match.path):\(match.line)) matched"
            if !match.why.isEmpty { out += " on " + match.why.joined(separator: ", ") }
            out += "\n"
            for action in match.actions { out += "    " + ActionFormatter.text(action) + "\n" }
            if match.actions.isEmpty { out += "    (nothing new: its actions are already planned)\n" }
        }
        for dropped in evaluation.dropped {
            out += "  dropped \(ActionFormatter.text(dropped.action)) from rule \"\(dropped.rule)\": "
            switch dropped.reason {
            case .duplicate: out += "rule \"\(dropped.kept.rule)\" already does it\n"
            case .conflict: out += "rule \"\(dropped.kept.rule)\" came first with \(ActionFormatter.text(dropped.kept.action))\n"
            }
        }
        return out
    }
}
