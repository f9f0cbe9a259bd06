/// A message could not be delivered; says at which step, to which server, and
/// what to do. Exits 75 (temporary failure) so cron retries on the next run,
/// except when retrying cannot help: refused credentials (77, like IMAP) and a URL
/// whose TLS mode does not fit the port (78).
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
        /// `smtps://` on a port that speaks plain SMTP first (a STARTTLS port). Exit 78.
        case tlsMode
        /// AUTH was refused: the credentials are wrong. Exit 77.
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
        /// The local `sendmail` program failed (`smtp = sendmail`).
        case sendmail
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

    /// 77 for refused credentials, 78 for a TLS mode that does not fit the port,
    /// otherwise 75: the next run retries.
    public var exitStatus: ExitStatus {
        switch step {
        case .authentication: return .noPermission
        case .tlsMode: return .config
        default: return .tempFail
        }
    }

    public var description: String { message }
}
