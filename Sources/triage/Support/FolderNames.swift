import TriageCore
import TriageIMAP

/// The folders an account's rules and `mailboxes =` name, and what each is called on
/// the server (`Lists/dev` is `INBOX.Lists.dev` on Courier): for `check --connect` and
/// `run --verbose`.
enum FolderNames {
    /// `mailboxes =` first, then every `move` target of the rules, each once.
    static func named(mailboxes: [String], rules: CompiledRules?) -> [String] {
        var seen = Set<String>()
        var names: [String] = []
        let targets = (rules?.rules ?? []).flatMap(\.actions).compactMap { action -> String? in
            if case .move(let folder) = action { return folder }
            return nil
        }
        for name in mailboxes + targets where seen.insert(name).inserted { names.append(name) }
        return names
    }

    /// `(rule name, server name)` for each folder; a Maildir names folders as written.
    static func resolved(_ names: [String], on connection: MailConnection) throws -> [(String, String)] {
        guard let imap = connection as? IMAPConnection else { return names.map { ($0, $0) } }
        return try names.map { ($0, try imap.serverFolder($0)) }
    }

    /// The namespace that maps `mailbox` between the rules' names and the server's:
    /// asked of an IMAP server (once per connection) unless the mailbox is INBOX.
    static func namespace(for mailbox: String, on connection: MailConnection) throws -> FolderNamespace {
        guard mailbox.uppercased() != "INBOX", let imap = connection as? IMAPConnection else { return .plain }
        return try imap.folderNamespace()
    }

    /// Refuses rules with `is:important` on a server other than Gmail: only Gmail's
    /// IMAP says which mail is important (its `\Important` label in X-GM-LABELS);
    /// elsewhere the term would silently never match.
    static func checkImportant(_ rules: CompiledRules?, on connection: MailConnection) throws {
        guard let rule = rules?.importantRules.first, !((connection as? IMAPConnection)?.isGmail ?? false) else { return }
        throw SimpleError(.config, "rule \"\(rule.name)\" (\(rule.path):\(rule.line)) uses is:important, which only Gmail's IMAP "
            + "reports (X-GM-LABELS), and \(connection.serverName) is not Gmail; nothing was done for this account: "
            + "remove the term, or keep such rules for a configuration with only Gmail accounts")
    }

    /// `folder "Lists/dev" is "INBOX.Lists.dev" on localhost:993`; the names quoted with
    /// control characters escaped (the server's prefix is the server's to choose).
    static func line(account: String, _ pair: (String, String), server: String) -> String {
        "\(account): folder \(String(reflecting: pair.0)) is \(String(reflecting: pair.1)) on \(server)"
    }
}
