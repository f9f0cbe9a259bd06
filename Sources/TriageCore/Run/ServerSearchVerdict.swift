import Foundation

/// What the probe of an account's server found (`server_search = auto`): whether
/// its `UID SEARCH` finds substrings in any case, and what it was measured against,
/// so the next run trusts the answer only for the same server with the same
/// capabilities. Kept beside the account's mailbox states.
///
/// The probe takes a message the server is known to have (the newest new one), the
/// address of its From field, and searches for an inner part of it in upper case:
/// `alice@bank.example` → `FROM "LICE@BANK.EXAMPL"`, which starts and ends inside
/// words. A substring search finds the message; a word index (a full-text-search
/// plugin, Gmail) does not, and the run then fetches every message.
public struct ServerSearchVerdict: Codable, Equatable, Sendable {
    /// Whether the probe found the message: the server's SEARCH may narrow runs.
    public var substring: Bool
    /// The server (`host:port`) it was measured on.
    public var server: String
    /// Its capabilities then, sorted: a change (an upgrade, a plugin) measures again.
    public var capabilities: [String]
    /// The mailbox of the message probed.
    public var mailbox: String
    /// That mailbox's UIDVALIDITY then.
    public var uidValidity: UInt32
    /// The message's UID.
    public var uid: UInt32
    /// The value searched for in its From (`LICE@BANK.EXAMPL`).
    public var probe: String
    /// When it was measured.
    public var measured: Timestamp

    enum CodingKeys: String, CodingKey {
        case substring, server, capabilities, mailbox, uid, probe, measured
        case uidValidity = "uidvalidity"
    }

    /// Creates a verdict.
    public init(substring: Bool, server: String, capabilities: [String], mailbox: String, uidValidity: UInt32,
                uid: UInt32, probe: String, measured: Timestamp) {
        self.substring = substring
        self.server = server
        self.capabilities = capabilities
        self.mailbox = mailbox
        self.uidValidity = uidValidity
        self.uid = uid
        self.probe = probe
        self.measured = measured
    }

    /// Whether it was measured on `server` with these capabilities, less than
    /// `maximumAge` seconds before `now` (a full-text plugin added to a server
    /// changes no capability: a week later the probe runs again).
    public func applies(server: String, capabilities: Set<String>, now: Int64) -> Bool {
        self.server == server && self.capabilities == capabilities.sorted()
            && now - measured.secondsSince1970 < Self.maximumAge && measured.secondsSince1970 <= now
    }

    /// How long a verdict is trusted: a week.
    public static let maximumAge: Int64 = 7 * 86_400

    /// The value to search for in a message whose From address is `address`: the
    /// address without the first letter of its local part and the last of its
    /// domain, upper-cased (`LICE@BANK.EXAMPL`); nil when the address is too short,
    /// not plain ASCII, or has no letter to change the case of.
    public static func probe(for address: String) -> String? {
        let lowered = address.lowercased()
        guard ServerNarrowing.isSafe(lowered), let at = lowered.lastIndex(of: "@") else { return nil }
        let local = lowered[..<at], domain = lowered[lowered.index(after: at)...]
        guard local.count >= 2, domain.count >= 2 else { return nil }
        let inner = String(local.dropFirst()) + "@" + String(domain.dropLast())
        guard inner.contains(where: { $0.isLetter }) else { return nil }
        return inner.uppercased()
    }

    /// `STORE/state/ACCOUNT/.server-search.json` (escaped mailbox names never start with a dot).
    public static func path(store: String, account: String) -> String {
        store + "/state/" + MailboxState.escape(account) + "/.server-search.json"
    }

    /// The account's verdict; nil when there is none or it cannot be read (then the
    /// server is probed again: it is a cache, nothing depends on it but speed).
    public static func load(store: String, account: String) -> ServerSearchVerdict? {
        guard let data = try? StoreFiles.read(path(store: store, account: account)) else { return nil }
        return try? JSONDecoder().decode(ServerSearchVerdict.self, from: data)
    }

    /// Writes it atomically (temp file and rename).
    public func save(store: String, account: String) throws {
        try StoreFiles.writeJSON(self, to: Self.path(store: store, account: account), durable: false)
    }
}
