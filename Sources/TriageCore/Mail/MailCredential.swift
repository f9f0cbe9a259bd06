/// How to log in: a password or an OAuth2 access token, passed in as a value
/// (the caller ran `password_command`). Its descriptions never show the secret.
public struct MailCredential: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The secret's kind.
    public enum Method: Sendable {
        /// IMAP `LOGIN user password`.
        case password(String)
        /// SASL XOAUTH2 with a bearer token.
        case oauth2(token: String)
    }

    /// The login name.
    public var user: String
    /// The secret.
    public var method: Method

    /// Creates a credential.
    public init(user: String, method: Method) {
        self.user = user
        self.method = method
    }

    /// Convenience for a password login.
    public static func password(user: String, _ password: String) -> MailCredential {
        MailCredential(user: user, method: .password(password))
    }

    public var description: String {
        switch method {
        case .password: return "\(user) (password ***)"
        case .oauth2: return "\(user) (XOAUTH2 token ***)"
        }
    }

    public var debugDescription: String { description }
}

extension MailCredential: CustomReflectable {
    /// `dump()` and debuggers show the user only, never the secret.
    public var customMirror: Mirror { Mirror(self, children: ["user": user, "method": "***"]) }
}
