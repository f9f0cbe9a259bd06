/// An SMTP login. The password is held as a value (read by the caller from
/// `password_command`), handed only to libcurl, and never printed.
public struct SMTPCredentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The login name.
    public var user: String
    /// The password.
    public var password: String

    /// Creates credentials.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// `user (password hidden)`: string interpolation and debug output never show the password.
    public var description: String { "\(user) (password hidden)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["user": user, "password": "***"]) }
}
