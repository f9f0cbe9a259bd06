import TriageCore

/// The folders an account's rules and `mailboxes =` name, and what each is called on
/// the server (`Lists/dev` is `INBOX.Lists.dev` on Courier): for `check --connect` and
/// `run --verbose`.
package enum FolderNames {
    /// `mailboxes =` first, then every `move` target of the rules, each once.
    package static func named(mailboxes: [String], rules: CompiledRules?) -> [String] {
        var seen = Set<String>()
        var names: [String] = []
        let targets = (rules?.rules ?? []).flatMap(\.actions).compactMap { action -> String? in
            if case .move(let folder) = action { return folder }
            return nil
        }
        for name in mailboxes + targets where seen.insert(name).inserted { names.append(name) }
        return names
    }

    /// `(rule name, server name)` for each folder (`MailConnection.serverFolder`; a
    /// Maildir names folders as written).
    package static func resolved(_ names: [String], on connection: MailConnection) throws -> [(String, String)] {
        try names.map { ($0, try connection.serverFolder($0)) }
    }

    /// The namespace that maps `mailbox` between the rules' names and the server's:
    /// asked of the connection (an IMAP server once) unless the mailbox is INBOX.
    package static func namespace(for mailbox: String, on connection: MailConnection) throws -> FolderNamespace {
        guard mailbox.uppercased() != "INBOX" else { return .plain }
        return try connection.folderNamespace()
    }

    /// Refuses rules with `is:important` on a server other than Gmail: only Gmail's
    /// IMAP says which mail is important (its `\Important` label in X-GM-LABELS);
    /// elsewhere the term would silently never match.
    package static func checkImportant(_ rules: CompiledRules?, on connection: MailConnection) throws {
        guard let rule = rules?.importantRules.first, !connection.traits.isGmail else { return }
        throw SimpleError(.config, "rule \"\(rule.name)\" (\(rule.path):\(rule.line)) uses is:important, which only Gmail's IMAP "
            + "reports (X-GM-LABELS), and \(connection.serverName) is not Gmail; nothing was done for this account: "
            + "remove the term, or keep such rules for a configuration with only Gmail accounts")
    }

    /// The account's folders as the rules name them: LIST on IMAP, the Maildir++
    /// folders on a Maildir; nil for a connection that cannot list them, whose folders
    /// are probed one by one instead (`missing`).
    package static func existing(on connection: MailConnection) throws -> [String]? {
        try connection.folderList()
    }

    /// Each of `names` that does not exist on the server, with the closest existing
    /// folder (a different case, or a name at most two edits away), in `names` order.
    /// `existing` is `existing(on:)`; without it each folder is opened read-only, so
    /// call this before a mailbox is selected for work.
    package static func missing(_ names: [String], existing: [String]?, on connection: MailConnection) throws -> [(name: String, closest: String?)] {
        var found: [(name: String, closest: String?)] = []
        for name in names {
            if let existing {
                // `mailboxes = INBOX.Lists.dev` (the server's name) is `Lists/dev` in the list.
                let canonical = try connection.folderNamespace().ruleName(connection.serverFolder(name))
                if name.uppercased() == "INBOX" || existing.contains(name) || existing.contains(canonical) { continue }
                let lowered = existing.map { $0.lowercased() }
                let closest = existing.first { $0.lowercased() == name.lowercased() }
                    ?? Suggestion.closest(to: name, in: lowered).flatMap { guess in existing.first { $0.lowercased() == guess } }
                found.append((name, closest))
            } else {
                do {
                    _ = try connection.open(name, readOnly: true)
                } catch let error as MailError where error.kind == .missingFolder {
                    found.append((name, nil))
                }
            }
        }
        return found
    }

    /// `folder "Lists/Dev" does not exist on localhost:993; did you mean "Lists/dev"?`,
    /// by the server's name when it differs (`"INBOX.Lists.gone" ... (the rules' "Lists/gone")`).
    package static func missingLine(_ folder: (name: String, closest: String?), on connection: MailConnection) throws -> String {
        let serverName = try resolved([folder.name], on: connection).first?.1 ?? folder.name
        return "folder \(String(reflecting: serverName)) does not exist on \(connection.serverName)"
            + (serverName == folder.name ? "" : " (the rules' \(String(reflecting: folder.name)))")
            + (folder.closest.map { "; did you mean \(String(reflecting: $0))?" } ?? "")
    }

    /// Labels the rules write out (no placeholders), each once, in rule order.
    package static func literalLabels(_ rules: CompiledRules?) -> [String] {
        var seen = Set<String>()
        return (rules?.rules ?? []).flatMap(\.actions).compactMap { action -> String? in
            guard case .label(let name) = action, !name.contains("{"), seen.insert(name).inserted else { return nil }
            return name
        }
    }

    /// `folder "Lists/dev" is "INBOX.Lists.dev" on localhost:993`; the names quoted with
    /// control characters escaped (the server's prefix is the server's to choose).
    package static func line(account: String, _ pair: (String, String), server: String) -> String {
        "\(account): folder \(String(reflecting: pair.0)) is \(String(reflecting: pair.1)) on \(server)"
    }
}
