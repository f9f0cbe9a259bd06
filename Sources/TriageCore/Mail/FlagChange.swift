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

    /// The change in rule words, for messages: `label "no push"`, `mark read`,
    /// `remove \Flagged`.
    public var summary: String {
        var parts: [String] = []
        for label in labels.sorted() {
            parts.append(ActionFormatter.text(operation == .add ? .label(label) : .unlabel(label)))
        }
        for flag in flags.sorted() {
            switch (flag, operation) {
            case ("\\Seen", .add): parts.append("mark read")
            case ("\\Seen", .remove): parts.append("mark unread")
            case ("\\Flagged", .add): parts.append("flag")
            default: parts.append((operation == .add ? "set " : "remove ") + flag)
            }
        }
        return parts.joined(separator: ", ")
    }

    /// The system flags IMAP defines and a client may set.
    public static let systemFlags: Set<String> = ["\\Seen", "\\Flagged", "\\Answered", "\\Deleted", "\\Draft"]
}
