/// A mail provider whose servers `triage init` knows by the address's domain: its
/// IMAP server, the SMTP server it can send the digest through, what its users
/// must know about passwords, and the user name it logs in with.
public struct MailProvider: Sendable, Equatable {
    /// The provider's name, as people know it ("Gmail").
    public var name: String
    /// The domains of its addresses (lower case).
    public var domains: [String]
    /// Domain prefixes of its country domains (`yahoo.` for yahoo.co.uk), lower case.
    public var domainPrefixes: [String] = []
    /// Its IMAP server.
    public var imap: String
    /// Its SMTP submission server, for the digest.
    public var smtp: String
    /// What to know about the password (app passwords, OAuth2), said when it is chosen.
    public var passwordNote: String
    /// Whether the IMAP login is the address's local part (iCloud) rather than the whole address.
    public var userIsLocalPart = false

    /// The providers `triage init` offers, by the domain of the address.
    ///
    /// The host names are the providers' documented IMAP and SMTP servers. Gmail,
    /// iCloud, Yahoo and Fastmail refuse the account's own password to IMAP clients
    /// when two-step sign-in is on (Gmail, iCloud, Yahoo: always for new accounts;
    /// Fastmail: always) and want an app password; Microsoft's servers may refuse
    /// passwords altogether and want OAuth2.
    public static let known: [MailProvider] = [
        MailProvider(name: "Gmail", domains: ["gmail.com", "googlemail.com"],
                     imap: "imaps://imap.gmail.com", smtp: "smtps://smtp.gmail.com",
                     passwordNote: "Gmail wants an app password (Google Account, Security, 2-Step Verification, "
                        + "App passwords), not your Google password"),
        MailProvider(name: "Fastmail", domains: ["fastmail.com", "fastmail.fm"],
                     imap: "imaps://imap.fastmail.com", smtp: "smtps://smtp.fastmail.com",
                     passwordNote: "Fastmail wants an app password (Settings, Privacy & Security, "
                        + "Manage app passwords and access), not your login password"),
        MailProvider(name: "iCloud", domains: ["icloud.com", "me.com", "mac.com"],
                     imap: "imaps://imap.mail.me.com", smtp: "smtp://smtp.mail.me.com:587",
                     passwordNote: "iCloud wants an app-specific password (account.apple.com, Sign-In and Security, "
                        + "App-Specific Passwords), not your Apple Account password",
                     userIsLocalPart: true),
        MailProvider(name: "Outlook", domains: ["outlook.com", "hotmail.com", "live.com", "msn.com"],
                     domainPrefixes: ["outlook.", "hotmail.", "live."],
                     imap: "imaps://outlook.office365.com", smtp: "smtp://smtp.office365.com:587",
                     passwordNote: "Outlook.com and Microsoft 365 may refuse passwords from IMAP clients and want "
                        + "OAuth2: then use oauth2_token_command instead of password_command (man triage.conf)"),
        MailProvider(name: "Yahoo", domains: ["yahoo.com", "ymail.com", "rocketmail.com"], domainPrefixes: ["yahoo."],
                     imap: "imaps://imap.mail.yahoo.com", smtp: "smtps://smtp.mail.yahoo.com",
                     passwordNote: "Yahoo wants an app password (Account Info, Account Security, "
                        + "Generate app password), not your Yahoo password"),
    ]

    /// The provider of `address`'s domain, if it is a known one.
    public static func of(address: String) -> MailProvider? {
        guard let at = address.lastIndex(of: "@") else { return nil }
        let domain = address[address.index(after: at)...].lowercased()
        return known.first { provider in
            provider.domains.contains(domain) || provider.domainPrefixes.contains { domain.hasPrefix($0) }
        }
    }

    /// The IMAP URLs to offer for `address`: the known provider's server first, then
    /// `imaps://imap.DOMAIN` (the usual name elsewhere).
    public static func imapChoices(for address: String) -> [String] {
        guard let at = address.lastIndex(of: "@") else { return [] }
        let domain = address[address.index(after: at)...].lowercased()
        var choices: [String] = []
        if let provider = of(address: address) { choices.append(provider.imap) }
        let guess = "imaps://imap." + domain
        if !choices.contains(guess) { choices.append(guess) }
        return choices
    }

    /// The provider whose IMAP server `url` is, if any.
    public static func of(imapURL url: String) -> MailProvider? {
        let trimmed = url.hasSuffix("/") ? String(url.dropLast()) : url
        return known.first { $0.imap == trimmed || $0.imap + ":993" == trimmed }
    }

    /// The login for `address` at this provider: the whole address, or its local part (iCloud).
    public func user(for address: String) -> String {
        guard userIsLocalPart, let at = address.lastIndex(of: "@") else { return address }
        return String(address[..<at])
    }
}
