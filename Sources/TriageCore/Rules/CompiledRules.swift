import Foundation

/// Every rule of a run, compiled once: queries flattened into one program over a
/// shared vocabulary, `me` and dates resolved against the `RuleEnvironment`.
/// Evaluate messages against it with `RuleEvaluator`.
public struct CompiledRules: Sendable {
    /// The rules in evaluation order (files in name order, rules in file order).
    public let rules: [CompiledRule]
    /// Identities and time zone the rules were compiled with.
    public let environment: RuleEnvironment
    let program: QueryProgram
    let vocabulary: Vocabulary
    let identityIDs: [Int32]
    /// Whether some term has a `*` wildcard, so indexes must keep word text.
    let keepsText: Bool
    /// The header fields `header:` terms name, lower-cased; a term refers to one by index.
    public let headerNames: [String]
    /// The rules with `is:important`, which only Gmail's IMAP can answer (its
    /// `\Important` label in X-GM-LABELS): a run on another server refuses them.
    public let importantRules: [CompiledRule]

    /// Whether some rule makes follow-ups (`follow up in 3 days`): then every message
    /// read is looked at for answers (`FollowUpTracker`).
    public var followsUp: Bool {
        rules.contains { $0.actions.contains { if case .followUp = $0 { return true } else { return false } } }
    }

    /// Whether some rule's query has `in:Sent` (case ignored): then `run` and `watch`
    /// read the account's Sent folder too.
    public internal(set) var readsSent = false

    /// The configured time zone.
    public var timeZone: TimeZone { environment.timeZone }

    /// The calendar day `now` falls on in the configured time zone (for due dates).
    public func today(at now: Date) -> CivilDate {
        ZonedTime.civilDate(at: Int64(now.timeIntervalSince1970.rounded(.down)), in: environment.timeZone)
    }

    /// The message parts some rule's query looks at (`QueryOperator.parts`): `.text`
    /// for bare words (they search the snippet), `.structure` for `has:attachment` and
    /// `filename:`. Messages need no more than this to be classified: `header:` reads
    /// the header block, which every fetch brings.
    public let neededParts: MessageParts

    /// The header fields the rules read plus `fixedHeaderFields`, upper-case, sorted;
    /// nil when the whole header is needed: a rule with bare words reads the text,
    /// whose MIME parse needs the Content-* fields of the header (see
    /// `CompiledRules+HeaderFields`).
    public let neededHeaderFields: [String]?

    /// Prepares a message for matching against these rules; `folders` maps its mailbox
    /// to the names rules use (`in:`).
    public func index(_ message: Message, folders: FolderNamespace = .plain) -> MessageIndex {
        MessageIndex(message, rules: self, folders: folders)
    }

    /// Whether the rule at `position` matches an indexed message at `now` (seconds since 1970).
    public func matches(ruleAt position: Int, in index: MessageIndex, now: Int64) -> Bool {
        program.matches(rules[position].root, index, now: now)
    }

    /// The terms that made the rule at `position` match, as written (`cc:me`, `-to:me`).
    public func why(ruleAt position: Int, in index: MessageIndex, now: Int64) -> [String] {
        var why: [String] = []
        program.explain(rules[position].root, index, now: now, into: &why)
        return why
    }
}
