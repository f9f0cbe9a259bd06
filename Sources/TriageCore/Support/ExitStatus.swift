/// Process exit codes, from sysexits(3), that cron jobs and scripts rely on.
public enum ExitStatus: Int32, Sendable, Comparable {
    /// Success.
    case ok = 0
    /// Some but not all work was done (e.g. `check` found problems is 78, not this).
    case failure = 1
    /// Command-line usage error.
    case usage = 64
    /// Input data was bad (unknown id, malformed record).
    case dataError = 65
    /// An input file did not exist or could not be read.
    case noInput = 66
    /// Internal software error.
    case software = 70
    /// An output file could not be created or written.
    case cantCreate = 73
    /// Temporary failure: server unreachable, TLS failure, lock held. Cron can retry.
    case tempFail = 75
    /// Credentials refused.
    case noPermission = 77
    /// Configuration error.
    case config = 78

    /// Orders by severity so that "the worst of several accounts" is `max`.
    public static func < (a: ExitStatus, b: ExitStatus) -> Bool {
        a.severity < b.severity
    }

    private var severity: Int {
        switch self {
        case .ok: return 0
        case .failure: return 1
        case .tempFail: return 2
        case .dataError, .noInput, .cantCreate: return 3
        case .noPermission: return 4
        case .usage, .config: return 5
        case .software: return 6
        }
    }
}

/// An error that knows how it should end the process and what to tell the user.
///
/// Messages say what happened, where, and what to do; they never contain secrets.
public protocol TriageError: Error {
    /// The exit status for this failure.
    var exitStatus: ExitStatus { get }
    /// A one-paragraph message for standard error, without the `triage: ` prefix.
    var message: String { get }
}

/// A plain error with a message and an exit status.
public struct SimpleError: TriageError, CustomStringConvertible {
    /// The exit status.
    public var exitStatus: ExitStatus
    /// The message.
    public var message: String

    /// Creates an error.
    public init(_ exitStatus: ExitStatus, _ message: String) {
        self.exitStatus = exitStatus
        self.message = message
    }

    public var description: String { message }
}
