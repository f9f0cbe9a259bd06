import Foundation

/// The whole configuration file, as validated values.
///
/// Loaded by `TriageConfig.ConfigLoader` from INI; every path is already resolved
/// relative to the configuration file's folder.
public struct Configuration: Sendable {
    /// Where the configuration file was read from.
    public var path: String
    /// The `[triage]` section.
    public var triage: TriageSection
    /// `[account NAME]` sections, in file order.
    public var accounts: [AccountSection] = []
    /// The optional `[digest]` section.
    public var digest: DigestSection?
    /// `[place NAME]` sections, in file order: each a place whose title is its name.
    public var places: [Place] = []
    /// `[caldav NAME]` sections, in file order.
    public var caldav: [CalDAVSection] = []

    /// The named places by lower-cased name (`near "office"` finds `[place Office]`).
    public var placesByName: [String: Place] {
        Dictionary(places.compactMap { p in p.title.map { ($0.lowercased(), p) } }, uniquingKeysWith: { a, _ in a })
    }

    /// The trust anchor for the digest's SMTP server: `[digest] ca_file`, else the
    /// `ca_file` of the first IMAP account on the same host (one private CA for a
    /// self-hosted mail server is the usual case).
    public var digestCAFile: String? {
        guard let digest else { return nil }
        if let file = digest.caFile { return file }
        guard let host = digest.smtp.host?.lowercased() else { return nil }
        return accounts.first { account in
            guard case .imap(let url) = account.endpoint else { return false }
            return url.host.lowercased() == host && account.caFile != nil
        }?.caFile
    }

    /// Creates a configuration.
    public init(path: String, triage: TriageSection, accounts: [AccountSection] = [], digest: DigestSection? = nil) {
        self.path = path
        self.triage = triage
        self.accounts = accounts
        self.digest = digest
    }
}

/// `[triage]`: who `me` is, where rules and the store live, the time zone.
public struct TriageSection: Sendable {
    /// The user's own addresses, for `me` in queries.
    public var me: [String] = []
    /// The (first) folder of `*.rules` files (absolute).
    public var rules: String {
        get { ruleFolders.first ?? "" }
        set { ruleFolders = [newValue] }
    }
    /// Every folder of `*.rules` files (absolute), in the order written: `rules = A, B`.
    public var ruleFolders: [String]
    /// The store folder (absolute), or nil for the default (`$XDG_DATA_HOME/triage`).
    public var store: String?
    /// `timezone = NAME` (IANA), or nil for the system's.
    public var timeZone: TimeZone?
    /// The line of the `rules =` key, or 0 when the default folder is used (for messages).
    public var rulesLine: Int = 0
    /// `webhook_budget = SECONDS`: how long a run's webhook POSTs may take together; nil for the default (60 s).
    public var webhookBudget: Int?
    /// `webhook_timeout = SECONDS`: how long one webhook POST may take; nil for the default (20 s).
    public var webhookTimeout: Int?
    /// `quiet_failures = DURATION` in seconds (`QuietFailures`); nil when off (the default).
    public var quietFailures: Int?
    /// `poll_interval = SECONDS`: how often `triage watch` looks for new mail on a
    /// server without IDLE (and in a Maildir); nil for the default (60 s).
    public var pollInterval: Int?
    /// `idle_interval = SECONDS`: how long `triage watch` stays in one IDLE before it
    /// ends it and starts another (at most 29 minutes, RFC 2177); nil for the default (29 minutes).
    public var idleInterval: Int?

    /// Creates the section.
    public init(me: [String] = [], rules: String, store: String? = nil, timeZone: TimeZone? = nil) {
        self.me = me
        self.ruleFolders = [rules]
        self.store = store
        self.timeZone = timeZone
    }
}

/// `[account NAME]`: one mail source.
public struct AccountSection: Sendable {
    /// The NAME in `[account NAME]`.
    public var name: String
    /// `url`: IMAP (`imaps://host[:port]`, `imap://host[:port]`) or `maildir:PATH`.
    public var endpoint: AccountEndpoint
    /// The login name.
    public var user: String?
    /// A shell command whose standard output is the password.
    public var passwordCommand: String?
    /// The password itself (only allowed when the file is private).
    public var password: String?
    /// A shell command whose standard output is an OAuth2 access token (SASL XOAUTH2).
    public var oauth2TokenCommand: String?
    /// Mailboxes to read; default `INBOX`.
    public var mailboxes: [String] = ["INBOX"]
    /// An extra trust anchor (PEM), absolute path.
    public var caFile: String?
    /// `archive = FOLDER`: where the `archive` action moves mail (as `move` names
    /// folders); nil: the SPECIAL-USE `\Archive` folder, or `Archive` on a Maildir.
    public var archive: String?
    /// `authserv_id = NAME`: the authserv-id the account's own server writes in the
    /// `Authentication-Results` it adds (RFC 8601), the only ones a one-click
    /// unsubscribe trusts (docs/digest.md); nil: none is trusted.
    public var authservID: String?
    /// `sent = FOLDER`: the account's Sent folder (as `move` names folders): what `in:Sent`
    /// reads (follow-ups) and whom the user writes to (`triage suggest`); nil: the
    /// SPECIAL-USE `\Sent` folder, or `Sent` on a Maildir.
    public var sent: String?
    /// `snoozed = FOLDER`: where the `snooze` action keeps mail until it wakes (as
    /// `move` names folders; made when missing); nil: `Snoozed`.
    public var snoozed: String?
    /// The snoozed folder: `snoozed`, else `Snoozed`.
    public var snoozedFolder: String { snoozed ?? SnoozeRecord.defaultFolder }
    /// `sieve_port = N`: the ManageSieve port of an IMAP account's host (`triage deploy
    /// sieve`); nil for 4190 (RFC 5804).
    public var sievePort: UInt16?
    /// `server_search = auto | substring | off`: whether the server's SEARCH may pick
    /// the messages worth fetching (`ServerSearchMode`).
    public var serverSearch: ServerSearchMode = .auto
    /// `max_connections = N`: how many connections `triage watch` may hold to the
    /// account at once (NOTIFY, IDLE and STATUS polls share them, `WatchPlan`); nil for
    /// `defaultMaxConnections`.
    public var maxConnections: Int?
    /// The connections `triage watch` holds at most without `max_connections`: half of
    /// Dovecot's default `mail_max_userip_connections` (10), leaving room for a phone
    /// and a desktop client.
    public static let defaultMaxConnections = 5
    /// `tls = off` allows plain `imap://` to a loopback host.
    public var tlsOff: Bool = false
    /// `timeout = SECONDS`: how long to wait for the connection, the TLS handshake and
    /// each read of an answer; nil for the defaults (30 s to connect, 60 s per answer).
    public var timeout: Int?
    /// `command_timeout = SECONDS`: how long `password_command` / `oauth2_token_command`
    /// may run; nil for the default (30 s).
    public var commandTimeout: Int?
    /// The line of the section header, for messages.
    public var line: Int = 0

    /// Creates an account.
    public init(name: String, endpoint: AccountEndpoint) {
        self.name = name
        self.endpoint = endpoint
    }
}

/// `[digest]`: where and when the daily summary goes.
public struct DigestSection: Sendable {
    /// Recipient.
    public var to: String
    /// Sender.
    public var from: String
    /// Local hour (0...23) from which the day's digest is due.
    public var hour: Int = 7
    /// `smtp`: `smtps://host`, `smtp://host` (STARTTLS required), `file:DIR` or `sendmail[:PATH]`.
    public var smtp: DeliveryEndpoint
    /// SMTP login name.
    public var user: String?
    /// A shell command whose standard output is the SMTP password.
    public var passwordCommand: String?
    /// The SMTP password itself (only when the file is private).
    public var password: String?
    /// An extra trust anchor (PEM), absolute path.
    public var caFile: String?
    /// Whether to send a digest with nothing in it.
    public var sendEmpty: Bool = false
    /// `command_timeout = SECONDS`: how long `password_command` may run; nil for the default (30 s).
    /// Also bounds `smtp = sendmail` (default 120 s there).
    public var commandTimeout: Int?
    /// `tls = off` allows plain `smtp://` (no STARTTLS) to a loopback host only.
    public var tlsOff: Bool = false
    /// `compact = FYI, Lists, Newsletters`: the digest sections shown one line per
    /// message (compared without case); `compact = none` for none.
    public var compact: [String] = DigestSection.defaultCompact
    /// `trash = FOLDER`: where handled command messages go; nil for the folder the
    /// server marks SPECIAL-USE `\Trash`.
    public var trash: String?
    /// `reply_days = N`: for how many days after a digest was sent a reply to it (or
    /// one of its Done links) is obeyed (docs/digest.md, "Security model").
    public var replyDays: Int = DigestSection.defaultReplyDays

    /// `reply_days` when not set.
    public static let defaultReplyDays = 30
    /// The largest `reply_days`.
    public static let maximumReplyDays = 365

    /// The sections compact by default.
    public static let defaultCompact = ["FYI", "Lists", "Newsletters"]

    /// Creates the section.
    public init(to: String, from: String, smtp: DeliveryEndpoint) {
        self.to = to
        self.from = from
        self.smtp = smtp
    }
}
