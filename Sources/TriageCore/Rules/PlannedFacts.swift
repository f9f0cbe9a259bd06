/// What the actions planned so far for one message change about it, so that later
/// rules of the same pass see them, as Sieve's `hasflag` sees an earlier `addflag`:
/// `label "money"` makes `label:money` true for the rules after it, `mark read`
/// makes `is:read` true, `move "Archive"` makes `in:Archive` true.
///
/// An overlay on the server's facts in `MessageIndex`; only actions actually planned
/// (not dropped as duplicates or conflicts) are applied, so later rules see what the
/// run will do.
struct PlannedFacts: Sendable {
    /// Labels added (`true`) or removed (`false`), by vocabulary id, latest last.
    var labels: [(id: Int32, present: Bool)] = []
    /// `\Seen` as planned, nil when no action changes it.
    var seen: Bool?
    /// `\Flagged` as planned, nil when no action changes it.
    var flagged: Bool?
    /// The vocabulary id of the folder a planned move goes to (-1: no rule names it).
    var mailbox: Int32?

    /// Whether a planned action added (true) or removed (false) the label `id`; nil when none did.
    func label(_ id: Int32) -> Bool? {
        labels.last(where: { $0.id == id })?.present
    }

    /// Records what `action` asks of the server (its `serverEffect`, the one place
    /// that says it), as far as rules can test it.
    mutating func apply(_ action: Action, vocabulary: Vocabulary, folders: FolderNamespace) {
        switch action.serverEffect {
        case .change(let change)?:
            let present = change.operation == .add
            for name in change.labels.sorted() {
                labels.append((vocabulary.id(of: LabelName.key(name)), present))
            }
            for flag in change.flags {
                switch flag {
                case "\\Seen": seen = present
                case "\\Flagged": flagged = present
                default: break  // no term reads the other flags
                }
            }
        case .move(let folder)?:
            mailbox = vocabulary.id(of: PlannedFacts.folderKey(folder, folders))
        case .archive?, .snooze?:
            // Out of the inbox, to a folder the rules cannot know before a server is
            // asked (on Gmail: no folder at all): `in:inbox` is false from here on.
            mailbox = -1
        case nil:
            break
        }
    }

    /// How `in:` compares folders: in the rules' form (`Lists/dev`, whether the
    /// configuration wrote it so or the server's way, `INBOX.Lists.dev` on Courier),
    /// case-insensitively, without a trailing `/`.
    static func folderKey(_ name: String, _ folders: FolderNamespace) -> String {
        var key = folders.ruleName(folders.serverName(name)).lowercased()
        while key.count > 1, key.hasSuffix("/") { key.removeLast() }
        return key
    }
}
