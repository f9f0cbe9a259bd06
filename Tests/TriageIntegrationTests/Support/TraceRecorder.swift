import Foundation

/// Collects trace lines from an IMAP connection, thread-safely.
final class TraceRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    /// The sink to put in `IMAPSettings.trace`.
    var sink: @Sendable (String) -> Void {
        { [self] line in lock.lock(); stored.append(line); lock.unlock() }
    }

    /// Every line so far.
    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    /// All lines joined by newlines.
    var text: String { lines.joined(separator: "\n") }
}
