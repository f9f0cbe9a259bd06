/// One rule `triage suggest` proposes: the rule as triage's language writes it, the
/// evidence it rests on and what it would have done to the history.
public struct SuggestedRule: Sendable {
    /// The rule's name (unique among the current rules and the other suggestions).
    public var name: String
    /// What kind of mail it handles.
    public var kind: SuggestionKind
    /// Who it is about: the address (`deals@mail.shop.example`), `@domain`, or the List-Id.
    public var subject: String
    /// Whether `subject` is a List-Id (else a sender address or `@domain`).
    public var isList: Bool
    /// The query, as written in the rule (`list:"dev.lists.example" -from:"amy@x.test"`).
    public var query: String
    /// The actions, as written (`label "no push"`, `archive`).
    public var actions: [String]
    /// The counts behind it.
    public var evidence: SuggestionEvidence
    /// Senders left out because the user writes to them or answered them (`-from:`).
    public var exceptions: [String]
    /// Messages of the history the rule matches.
    public var matched = 0
    /// Of them, already in the folder it would move to (moves only).
    public var alreadyThere = 0
    /// Whether the current rules already handle every message it matches.
    public var covered = false
    /// Exceptions seen in Reply-To (they get `-replyto:` as well as `-from:`).
    public var replyToExceptions: Set<String> = []
    /// Whether an exception is for answered or flagged mail rather than a person.
    public var exceptsAnswered = false
    /// For an `unsubscribed` rule: the unsubscribe it rests on.
    public var unsubscribe: UnsubscribeEvidence?

    /// Creates a suggestion.
    public init(name: String, kind: SuggestionKind, subject: String, isList: Bool, query: String, actions: [String],
                evidence: SuggestionEvidence, exceptions: [String] = []) {
        self.name = name
        self.kind = kind
        self.subject = subject
        self.isList = isList
        self.query = query
        self.actions = actions
        self.evidence = evidence
        self.exceptions = exceptions
    }

    /// The folder a `move` takes its mail to, if it moves.
    public var folder: String?

    /// The rule's text: `rule "NAME"\n  when QUERY\n  then ACTIONS\n`.
    public var text: String {
        "rule \(SuggestedRule.quoted(name))\n  when \(query)\n  then \(actions.joined(separator: ", "))\n"
    }

    /// `text` in double quotes, with `"` and `\` escaped as the rule language reads them.
    public static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
