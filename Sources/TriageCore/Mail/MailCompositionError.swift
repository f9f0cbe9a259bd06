/// A message could not be composed: an address or Message-ID is malformed, or
/// an extra header is invalid or duplicates one the composer writes.
public struct MailCompositionError: TriageError, Equatable, CustomStringConvertible {
    /// 78 for values from the configuration (addresses), 65 otherwise.
    public var exitStatus: ExitStatus
    /// What is wrong and what to do.
    public var message: String

    /// Creates the error.
    public init(_ exitStatus: ExitStatus, _ message: String) {
        self.exitStatus = exitStatus
        self.message = message
    }

    public var description: String { message }
}
