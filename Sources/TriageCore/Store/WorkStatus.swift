/// The state of a queue entry or reminder; each state is a folder of the store.
public enum WorkStatus: String, Hashable, Sendable, Codable, CaseIterable {
    /// Still to do: listed by default, read by the daily plan.
    case open
    /// Done (kept so that the same message never makes it again).
    case done
    /// Removed by the user: hidden from every list but kept as a tombstone, so the
    /// same message through the same rule does not bring it back.
    case removed
}
