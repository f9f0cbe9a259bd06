/// A message could not be delivered; says at which step, to which server, and
/// what to do. Exits 75 (temporary failure) so cron retries on the next run.
///
/// Messages name the server and user, never the password.
public struct MailDeliveryError: TriageError, Equatable, CustomStringConvertible {
    /// Where the delivery failed.
    public enum Step: String, Sendable, Equatable {
        /// Resolving the server's host name.
        case resolve
        /// Opening the TCP connection.
        case connect
        /// The TLS handshake or certificate verification.
        case tls
        /// The server offers no STARTTLS on `smtp://`.
        case startTLS
        /// AUTH was refused.
        case authentication
        /// `MAIL FROM` was refused.
        case sender
        /// `RCPT TO` was refused.
        case recipient
        /// The message itself (DATA) was refused.
        case data
        /// A connect or overall timeout.
        case timeout
        /// Writing the `.eml` file.
        case write
        /// Anything else (a protocol error).
        case other
    }

    /// The failed step.
    public var step: Step
    /// The server (`host:port`) or folder.
    public var server: String
    /// The full message for standard error.
    public var message: String

    /// Creates the error.
    public init(step: Step, server: String, message: String) {
        self.step = step
        self.server = server
        self.message = message
    }

    /// Always 75: the next run retries.
    public var exitStatus: ExitStatus { .tempFail }

    public var description: String { message }
}
