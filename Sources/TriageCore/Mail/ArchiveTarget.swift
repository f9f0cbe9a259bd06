/// Where `archive` takes a message on one account, found once per connection
/// (`triage run`, `check --connect`): the `[account]`'s `archive = FOLDER`, or the
/// folder with the SPECIAL-USE `\Archive` attribute (RFC 6154), or `Archive` on a
/// Maildir; on Gmail (`X-GM-EXT-1`) the `\Inbox` label is removed instead, as
/// Gmail's own Archive button does.
public enum ArchiveTarget: Hashable, Sendable {
    /// Gmail: remove the `\Inbox` label (X-GM-LABELS); the message keeps its other labels.
    case removeInboxLabel
    /// Move to this folder (a rule name, as `move` takes).
    case folder(String)

    /// Gmail's label for its inbox, as X-GM-LABELS spells it.
    public static let gmailInboxLabel = "\\Inbox"

    /// The server effect `archive` stands for on this account.
    public var effect: ServerEffect {
        switch self {
        case .removeInboxLabel: return .change(FlagChange(.remove, labels: [ArchiveTarget.gmailInboxLabel]))
        case .folder(let name): return .move(folder: name)
        }
    }
}
