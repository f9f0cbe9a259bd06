/// Flags and labels to add to or remove from messages, as one grouped change.
public struct FlagChange: Hashable, Sendable {
    /// Add or remove.
    public enum Operation: String, Sendable {
        /// `+FLAGS`.
        case add
        /// `-FLAGS`.
        case remove
    }

    /// Add or remove.
    public var operation: Operation
    /// System flags, spelled with the backslash: `\Seen`, `\Flagged`, `\Answered`, `\Deleted`, `\Draft`.
    public var flags: Set<String>
    /// Labels as the user wrote them; stored as (encoded) keywords, or Gmail labels.
    public var labels: Set<String>

    /// Creates a change.
    public init(_ operation: Operation, flags: Set<String> = [], labels: Set<String> = []) {
        self.operation = operation
        self.flags = flags
        self.labels = labels
    }

    /// Whether there is nothing to change.
    public var isEmpty: Bool { flags.isEmpty && labels.isEmpty }

    /// The system flags IMAP defines and a client may set.
    public static let systemFlags: Set<String> = ["\\Seen", "\\Flagged", "\\Answered", "\\Deleted", "\\Draft"]
}
