/// Where an `[account NAME]` reads mail, parsed once from its `url` by the
/// configuration loader.
public enum AccountEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// `imaps://HOST[:PORT]` or `imap://HOST[:PORT]` (STARTTLS required).
    case imap(MailServerURL)
    /// `maildir:PATH`, PATH absolute.
    case maildir(path: String)

    /// The URL as triage understands it (`imaps://host:993`, `maildir:/path`).
    public var description: String {
        switch self {
        case .imap(let url): return url.description
        case .maildir(let path): return "maildir:" + path
        }
    }
}
