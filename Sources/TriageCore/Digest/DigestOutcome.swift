/// What an attempt to send a digest did.
public enum DigestOutcome: Sendable {
    /// No day's digest is due yet (before the hour, or the due day was sent).
    case notDue
    /// The day's digest was sent before; nothing was sent (no `--force`).
    case alreadySent(CivilDate)
    /// Nothing to report and `send_empty = no`: nothing sent, nothing recorded,
    /// so items that arrive later that day still go out that day.
    case nothingToReport(CivilDate, problems: [StoreProblem])
    /// Sent and recorded.
    case sent(DigestDraft)

    /// Store files that could not be read while planning.
    public var problems: [StoreProblem] {
        switch self {
        case .notDue, .alreadySent: return []
        case .nothingToReport(_, let problems): return problems
        case .sent(let draft): return draft.problems
        }
    }
}
