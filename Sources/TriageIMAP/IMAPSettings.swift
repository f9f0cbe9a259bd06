import TriageCore

/// How to reach and log in to one IMAP account.
public struct IMAPSettings: Sendable {
    /// `imaps://host[:port]` or `imap://host[:port]`.
    public var url: MailServerURL
    /// Who logs in and with what; the secret is a value, never a command line.
    public var credential: MailCredential
    /// An extra trust anchor (PEM) besides the system store.
    public var caFile: String?
    /// `tls = off`: plain `imap://` without STARTTLS, refused unless the host is loopback.
    public var tlsOff: Bool = false
    /// Seconds to wait for the TCP connection and the TLS handshake.
    public var connectTimeout: Int = 30
    /// Seconds to wait for any one command's answer.
    public var commandTimeout: Int = 60
    /// How much of each body `fetch` returns besides the full header: enough for the
    /// snippet and the MIME structure near the top.
    public var bodyPrefixBytes: Int = 32 * 1024
    /// Receives the protocol trace (`C: ...`, `S: ...`, credentials as `***`), or nil.
    public var trace: (@Sendable (String) -> Void)?
    /// Called with the command's name (`UID STORE`) right after each command's answer
    /// (or failure) came back; the crash tests kill the process here.
    public var checkpoint: (@Sendable (String) -> Void)?
    /// The most a server may send in answer to one command before the connection is
    /// dropped as hostile or broken (an endless untagged flood, a literal that never ends).
    /// `fetch` allows this plus its expected size. libetpan keeps every untagged answer
    /// until the tagged one, at about five times its size in memory.
    public var maxAnswerBytes: Int = 16 * 1024 * 1024

    /// Applies `timeout = SECONDS`: the connect and the per-answer limits both.
    public mutating func setTimeout(_ seconds: Int?) {
        guard let seconds, seconds > 0 else { return }
        connectTimeout = seconds
        commandTimeout = seconds
    }

    /// Creates settings with the defaults above.
    public init(url: MailServerURL, credential: MailCredential, caFile: String? = nil, tlsOff: Bool = false,
                trace: (@Sendable (String) -> Void)? = nil) {
        self.url = url
        self.credential = credential
        self.caFile = caFile
        self.tlsOff = tlsOff
        self.trace = trace
    }

    /// Settings for an `[account NAME]` section with an IMAP endpoint,
    /// given the secret the caller obtained (`password_command`, `oauth2_token_command`).
    /// Throws a `.configuration` `MailError` (exit 78) for a URL that is not IMAP or
    /// a missing `user`.
    public init(account: AccountSection, secret: MailCredential.Method,
                trace: (@Sendable (String) -> Void)? = nil) throws {
        guard case .imap(let url) = account.endpoint else {
            throw MailError(.configuration, server: account.endpoint.description,
                            "not an IMAP URL; write imaps://HOST[:PORT] or imap://HOST[:PORT]")
        }
        guard let user = account.user, !user.isEmpty else {
            throw MailError(.configuration, server: url.serverName,
                            "account \(account.name) has no `user =`; add the login name")
        }
        self.init(url: url, credential: MailCredential(user: user, method: secret),
                  caFile: account.caFile, tlsOff: account.tlsOff, trace: trace)
        setTimeout(account.timeout)
    }
}
