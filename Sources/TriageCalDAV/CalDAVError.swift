import TriageCore

/// A CalDAV sync failure: what happened and where, and its exit status (75 for a
/// server that is down or answers wrongly, 77 for refused credentials, 78 for
/// a list that is missing and may not be created, or a redirect or href to
/// another origin than the configured url's).
public struct CalDAVError: TriageError {
    /// The message.
    public var message: String
    /// The exit status.
    public var exitStatus: ExitStatus

    /// Creates an error.
    public init(_ status: ExitStatus, _ message: String) {
        self.exitStatus = status
        self.message = message
    }
}
