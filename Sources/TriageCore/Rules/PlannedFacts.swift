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

    /// Records the effect of `action` on what the rules can test.
    mutating func apply(_ action: Action, vocabulary: Vocabulary, folders: FolderNamespace) {
        switch action {
        case .label(let name):
            labels.append((vocabulary.id(of: LabelName.normalize(LabelCodec.stored(name))), true))
        case .unlabel(let name):
            labels.append((vocabulary.id(of: LabelName.normalize(LabelCodec.stored(name))), false))
        case .markRead: seen = true
        case .markUnread: seen = false
        case .flag: flagged = true
        case .move(let folder): mailbox = vocabulary.id(of: PlannedFacts.folderKey(folder, folders))
        case .queue, .remind, .digest, .webhook, .stop: break
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
