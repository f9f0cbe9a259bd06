import Foundation

/// Writes a `SuggestionReport`: as a rules file in triage's language (each rule
/// preceded by comments with its evidence and its effect on the history), or as JSON
/// (`triage suggest --json`, keys in docs/suggest.md).
public enum SuggestionWriter {
    /// The rules file. `accounts` names the accounts read, for the heading.
    public static func rules(_ report: SuggestionReport, days: Int, now: Date, timeZone: TimeZone, accounts: [String]) -> String {
        let day = ZonedTime.civilDate(at: Int64(now.timeIntervalSince1970.rounded(.down)), in: timeZone)
        var text = """
        # Suggested by triage suggest from \(report.received) messages of the \(days) days before \(day.iso)\
        \(accounts.isEmpty ? "" : " (" + accounts.map(plain).joined(separator: ", ") + ")")
        # and \(report.sent) of yours; \(report.people) people you write to or answered are left out of every rule.
        # Read them, edit or delete what you disagree with, and save the file as a .rules file
        # in your rules folder (triage check reads it).

        """
        if report.rules.isEmpty {
            let covered = report.leftOut.filter { $0.reason == RuleSuggester.coveredReason }.count
            text += covered > 0
                ? "\n# Nothing new to suggest: your rules already handle the \(count(covered, "pattern")) found (--all shows them).\n"
                : "\n# Nothing to suggest: no pattern was clear enough (at least 3 messages of one sender or list).\n"
        }
        for rule in report.rules {
            text += "\n"
            for line in comments(rule, days: days) { text += "# " + line + "\n" }
            text += rule.text
        }
        return text
    }

    /// The comment lines above a rule: its evidence, its exceptions, its effect.
    static func comments(_ rule: SuggestedRule, days: Int) -> [String] {
        let e = rule.evidence
        var about = "from \(rule.subject)"
        if rule.isList {
            about = (e.onlySender.map { "from \($0) " } ?? "") + "on the list \(rule.subject)"
        }
        var facts = ["\(count(e.messages, "message")) in \(days) days " + about]
        facts.append(e.opened == 0 ? "none opened" : e.opened == e.messages ? "all opened" : "\(e.opened) opened")
        facts.append(e.answered == 0 ? "none answered" : "\(e.answered) answered (left out)")
        if e.flagged > 0 { facts.append("\(e.flagged) flagged (left out)") }
        if let folder = rule.folder, let there = e.folders[folder] { facts.append("\(there) filed in \(plain(folder)) by you") }
        if e.listUnsubscribePost * 2 >= e.messages, e.listUnsubscribePost > 0 {
            facts.append("List-Unsubscribe with one-click")
        } else if e.listUnsubscribe * 2 >= e.messages, e.listUnsubscribe > 0 {
            facts.append("List-Unsubscribe")
        }
        if e.listPost * 2 >= e.messages, e.listPost > 0 { facts.append("List-Post") }
        if e.precedence * 2 >= e.messages, let value = e.mainPrecedence { facts.append("Precedence: \(value)") }
        if e.autoSubmitted * 2 >= e.messages, e.autoSubmitted > 0 { facts.append("Auto-Submitted") }
        if e.noReply * 2 >= e.messages, e.noReply > 0 { facts.append("a no-reply sender") }
        if e.receiptSubjects * 2 >= e.messages, e.receiptSubjects > 0 { facts.append("receipts or invoices") }
        var lines = e.messages == 0 ? [] : [facts.joined(separator: ", ")]
        if let u = rule.unsubscribe {
            let list = plain(u.list)
            let since = u.since > 0 ? "it still sent \(count(u.since, "message")) since"
                : "it still sent mail on \(u.stillSending.localDay.iso) (none of it in the \(days) days read)"
            lines.insert("you unsubscribed from \(list) on \(u.done.localDay.iso) by \(plain(u.method)); " + since, at: 0)
        }
        if !rule.exceptions.isEmpty {
            lines.append("except mail from " + rule.exceptions.joined(separator: ", ")
                + (rule.exceptsAnswered ? " (people you write to, or posts you answered or flagged)" : " (people you write to)"))
        }
        var effect = "would have matched \(count(rule.matched, "message"))"
        if rule.folder != nil { effect += " (\(rule.alreadyThere) already there)" }
        effect += "; none you answered or flagged"
        if e.fromPeople > 0 || !rule.exceptions.isEmpty { effect += ", none from people you write to" }
        lines.append(effect)
        if rule.covered { lines.append("your current rules already handle all of its mail (shown because of --all)") }
        if rule.kind == .receipt { lines.append("or, to reconcile each one: then queue rec") }
        return lines
    }

    /// The report as one JSON object (docs/suggest.md lists the keys).
    public static func json(_ report: SuggestionReport, days: Int, now: Date, accounts: [String]) -> JSONValue {
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        return .object([
            ("now", .string(MessageDate(secondsSince1970: seconds, utcOffsetSeconds: 0).rfc3339)),
            ("days", .int(Int64(days))),
            ("accounts", .array(accounts.map { .string(plain($0)) })),
            ("received", .int(Int64(report.received))),
            ("sent", .int(Int64(report.sent))),
            ("people", .int(Int64(report.people))),
            ("answered_or_flagged", .int(Int64(report.protected))),
            ("rules", .array(report.rules.map(json))),
            ("left_out", .array(report.leftOut.map { .object([("subject", .string(plain($0.subject))), ("reason", .string($0.reason))]) })),
        ])
    }

    /// One suggestion as JSON.
    static func json(_ rule: SuggestedRule) -> JSONValue {
        let e = rule.evidence
        func int(_ n: Int) -> JSONValue { .int(Int64(n)) }
        return .object([
            ("name", .string(rule.name)),
            ("kind", .string(rule.kind.rawValue)),
            (rule.isList ? "list" : "sender", .string(rule.subject)),
            ("query", .string(rule.query)),
            ("actions", .array(rule.actions.map(JSONValue.string))),
            ("folder", .optional(rule.folder.map(plain))),
            ("exceptions", .array(rule.exceptions.map(JSONValue.string))),
            ("rule", .string(rule.text)),
            ("evidence", .object([
                ("messages", int(e.messages)), ("opened", int(e.opened)), ("answered", int(e.answered)), ("flagged", int(e.flagged)),
                ("from_people", int(e.fromPeople)), ("list_unsubscribe", int(e.listUnsubscribe)),
                ("list_unsubscribe_post", int(e.listUnsubscribePost)), ("list_post", int(e.listPost)),
                ("precedence", int(e.precedence)), ("auto_submitted", int(e.autoSubmitted)), ("no_reply", int(e.noReply)),
                ("receipts", int(e.receiptSubjects)),
                ("senders", .object(e.senders.sorted { $0.key < $1.key }.map { (plain($0.key), int($0.value)) })),
                ("folders", .object(e.folders.sorted { $0.key < $1.key }.map { (plain($0.key), int($0.value)) })),
                ("labels", .object(e.labels.sorted { $0.key < $1.key }.map { (plain($0.key), int($0.value)) })),
            ])),
            ("effect", .object([
                ("matched", int(rule.matched)), ("already_there", int(rule.alreadyThere)),
                ("answered_or_flagged", int(0)), ("from_people", int(0)),
            ])),
            ("covered", .bool(rule.covered)),
            ("unsubscribe", rule.unsubscribe.map { u in
                .object([
                    ("list", .string(plain(u.list))), ("done", .string(u.done.rfc3339)), ("method", .string(plain(u.method))),
                    ("still_sending", .string(u.stillSending.rfc3339)), ("since", int(u.since)),
                ])
            } ?? .null),
        ])
    }

    /// `1 message`, `41 messages`.
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// Text from a server or a sender (folder names, keywords), one line without controls.
    static func plain(_ text: String) -> String { ControlCharacters.replaced(in: text) }
}
