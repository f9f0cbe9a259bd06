/// A failure talking to a mail server, naming the server, what went wrong, and
/// what to do. Never contains a password or token.
public struct MailError: TriageError, Equatable, CustomStringConvertible {
    /// What kind of failure, which decides the exit status.
    public enum Kind: String, Sendable {
        /// The server could not be reached (DNS, refused, reset). Exit 75.
        case connect
        /// TLS failed: handshake, untrusted certificate, wrong host name, STARTTLS refused. Exit 75.
        case tls
        /// The server did not answer in time. Exit 75.
        case timeout
        /// The server answered something unexpected or refused a command. Exit 75.
        case `protocol`
        /// The server refused the credentials. Exit 77.
        case authentication
        /// The server refused the login because the user has too many connections
        /// open already (Dovecot's `mail_max_userip_connections`): not the
        /// credential's fault, and gone once a connection closes. Exit 75.
        case connectionLimit
        /// A move target folder does not exist; the messages stayed where they were. Exit 78.
        case missingFolder
        /// The account settings cannot work (plain IMAP to a remote host, bad URL). Exit 78.
        case configuration
        /// The server answered a change to some messages with a tagged NO or BAD (a
        /// keyword too long, too many keywords, no keywords at all): permanent for
        /// that change, unlike a lost connection. The messages stay as they were and
        /// the run goes on; exit 78 at the end, like a missing folder.
        case refused
    }

    /// What kind of failure.
    public var kind: Kind
    /// The server, e.g. `imap.example.test:993`.
    public var server: String
    /// What happened, and what to do, without the server name (added by `message`).
    public var detail: String

    /// Creates an error.
    public init(_ kind: Kind, server: String, _ detail: String) {
        self.kind = kind
        self.server = server
        self.detail = detail
    }

    public var exitStatus: ExitStatus {
        switch kind {
        case .connect, .tls, .timeout, .protocol, .connectionLimit: return .tempFail
        case .authentication: return .noPermission
        case .missingFolder, .configuration, .refused: return .config
        }
    }

    public var message: String { "\(server): \(detail)" }

    public var description: String { message }
}
