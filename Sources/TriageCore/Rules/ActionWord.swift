/// One action word of the rule language, described once: its name, how it is written
/// with its arguments, and what kind of effect it has (derived from an example through
/// `Action.storeEffect` and `serverEffect`, so the table cannot disagree with them).
/// `RuleParser` reads the names (and switches over `Name` without `default:`),
/// `ManPageTests` and `OperatorTableTests` check man/triage-rules.5 and docs/rules.md
/// against it.
public struct ActionWord: Sendable {
    /// The word that starts an action.
    public enum Name: String, CaseIterable, Sendable {
        case label, unlabel, move, archive, mark, flag, queue, remind, digest, webhook, stop
        case follow
        case snooze
    }

    /// The word.
    public let name: Name
    /// How it is written, one entry per form, as in the docs' action table (`mark read`, `mark unread`).
    public let forms: [String]
    /// One action of each form.
    public let examples: [Action]

    /// Whether it writes a record (queue entry, reminder, digest entry, webhook): `Action.storeEffect`.
    public var writesRecord: Bool { examples.contains { $0.storeEffect != nil } }
    /// Whether it changes the message on the server: `Action.serverEffect`.
    public var changesServer: Bool { examples.contains { $0.serverEffect != nil } }

    /// Every action word, in `Name` order.
    public static let all: [ActionWord] = Name.allCases.map(describe)

    /// The names, for "unknown action" messages.
    static let names = Name.allCases.map(\.rawValue)

    private static func describe(_ name: Name) -> ActionWord {
        switch name {
        case .label: return ActionWord(name: name, forms: ["label \"X\""], examples: [.label("X")])
        case .unlabel: return ActionWord(name: name, forms: ["unlabel \"X\""], examples: [.unlabel("X")])
        case .move: return ActionWord(name: name, forms: ["move \"Folder\""], examples: [.move("Folder")])
        case .archive: return ActionWord(name: name, forms: ["archive"], examples: [.archive])
        case .mark: return ActionWord(name: name, forms: ["mark read", "mark unread"], examples: [.markRead, .markUnread])
        case .flag: return ActionWord(name: name, forms: ["flag"], examples: [.flag])
        case .queue: return ActionWord(name: name, forms: ["queue NAME [in N days]"], examples: [.queue(name: "rec", inDays: 2)])
        case .remind:
            return ActionWord(name: name, forms: ["remind \"TITLE\""], examples: [.remind(ReminderSpec(title: "Pay"))])
        case .digest: return ActionWord(name: name, forms: ["digest [\"SECTION\"]"], examples: [.digest(section: "FYI")])
        case .webhook: return ActionWord(name: name, forms: ["webhook \"URL\""], examples: [.webhook(url: "https://example.test/")])
        case .stop: return ActionWord(name: name, forms: ["stop"], examples: [.stop])
        case .follow:
            return ActionWord(name: name, forms: ["follow up in N days", "follow up on DAY [at TIME]"],
                              examples: [.followUp(FollowUpSpec(wait: .day(.inDays(3)))),
                                         .followUp(FollowUpSpec(wait: .day(.on(CivilDate(year: 2026, month: 12, day: 7))),
                                                                at: TimeOfDay(hour: 9, minute: 0)))])
        case .snooze:
            return ActionWord(name: name, forms: ["snooze until DAY [at TIME]", "snooze for N hours", "snooze for N days",
                                                  "snooze for N weeks"],
                              examples: [.snooze(.until(.inDays(1), at: nil)), .snooze(.hours(3)), .snooze(.hours(48)),
                                         .snooze(.hours(168))])
        }
    }
}

extension Action {
    /// The word it is written with.
    public var word: ActionWord.Name {
        switch self {
        case .label: return .label
        case .unlabel: return .unlabel
        case .move: return .move
        case .archive: return .archive
        case .markRead, .markUnread: return .mark
        case .flag: return .flag
        case .queue: return .queue
        case .remind: return .remind
        case .digest: return .digest
        case .webhook: return .webhook
        case .stop: return .stop
        case .followUp: return .follow
        case .snooze: return .snooze
        }
    }
}
