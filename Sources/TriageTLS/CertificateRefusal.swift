/// Why `CertificatePolicy` refused a server's certificate, in words for the user;
/// each adapter adds the server's name and turns it into its own error.
public struct CertificateRefusal: Error, Sendable, Equatable {
    /// Whether the certificate was at fault or the settings.
    public enum Kind: Sendable, Equatable {
        /// The server's certificate is not trusted for the host (exit 75).
        case untrusted
        /// The trust settings cannot work, e.g. an unreadable `ca_file` (exit 78).
        case configuration
    }

    /// Whether the certificate or the settings are at fault.
    public var kind: Kind
    /// What is wrong and what to do, without the server's name.
    public var reason: String

    /// Creates a refusal.
    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }
}
