/// Narrowing on the server (`ServerNarrowing`): which of the new messages are
/// worth fetching. The others matched no rule; they count as processed, and the
/// saved state moves past them as before.
extension MailboxRunner {
    /// The candidates among `uids` (the new ones, ascending), or nil to fetch them all.
    /// `filtered`: the run skips messages by arrival time (`--since`, a renumbered
    /// mailbox), which needs every message's INTERNALDATE: no narrowing then.
    func candidates(among uids: [UInt32], uidValidity: UInt32, filtered: Bool,
                    on connection: MailConnection) throws -> Set<UInt32>? {
        // A few new messages (the usual cron run) cost less to fetch than the search
        // and the probe's round trips: narrowing pays from `narrowingMinimum` on.
        guard let narrowing, uids.count >= max(1, narrowingMinimum), connection.canSearch else { return nil }
        guard var key = narrowing.key else {
            note("fetching every message: " + (narrowing.reason ?? "no narrowing"))
            return nil
        }
        if mailbox.uppercased() == "INBOX", let commands {
            // The digest's command messages come from one of the user's addresses.
            let senders = commands.reader.addresses.sorted()
            guard senders.allSatisfy(ServerNarrowing.isSafe) else {
                note("fetching every message: an address of the digest's commands is not plain ASCII")
                return nil
            }
            key = .or([key] + senders.map { .header(.from, $0) })
        }
        guard !filtered else {
            note("fetching every message: the run goes by arrival time (--since or a renumbered mailbox)")
            return nil
        }
        if let refusal = serverSearch.refusal(capabilities: connection.serverCapabilities) {
            note("fetching every message: " + refusal)
            return nil
        }
        // The newest new message, fetched as the run will fetch every candidate: the
        // server then knows which fields the run reads (Dovecot caches them while the
        // search parses each header, so the candidates' FETCH does not read the files a
        // second time), and its From is the probe's value.
        let newest = uids[uids.count - 1]
        let sample = try connection.fetch([newest], parts: parts, headerFields: firstFetchFields).first { $0.uid == newest }
        guard try trustsSearch(on: connection, probing: newest, sample: sample, uidValidity: uidValidity) else { return nil }
        let search = key.simplified
        // The same range as the probe's form: first to last new UID.
        guard let found = try connection.search(search, uids: uids[0]...uids[uids.count - 1]) else {
            note("fetching every message: the server refused UID SEARCH \(search.imap)")
            return nil
        }
        let wanted = Set(found).intersection(uids)
        note("server search: \(wanted.count) of \(Counted.of(uids.count, "new message")) can match a rule (UID SEARCH \(search.imap))")
        return wanted
    }

    /// Whether the server's SEARCH finds substrings (`server_search`), probing it
    /// once per server and set of capabilities (`ServerSearchVerdict`).
    private func trustsSearch(on connection: MailConnection, probing uid: UInt32, sample item: FetchedMessage?,
                              uidValidity: UInt32) throws -> Bool {
        // `off` and Gmail were settled before the sample was fetched (`refusal`).
        guard serverSearch == .auto else { return serverSearch == .substring }
        let capabilities = connection.serverCapabilities
        if let verdict = ServerSearchVerdict.load(store: store.root, account: account),
           verdict.applies(server: connection.serverName, capabilities: capabilities,
                            now: Timestamp(now, timeZone: store.timeZone).secondsSince1970) {
            if !verdict.substring { note(Self.untrusted(verdict)) }
            return verdict.substring
        }
        // The newest new message: the server has it, and its From is an address.
        guard let item, let address = parse(item.bytes).from.first?.address,
              let probe = ServerSearchVerdict.probe(for: address) else {
            note("fetching every message: UID \(uid) has no From address to probe the server's SEARCH with")
            return false
        }
        let found = try connection.search(.header(.from, probe), uids: uid...uid) ?? []
        let verdict = ServerSearchVerdict(substring: found.contains(uid), server: connection.serverName,
                                          capabilities: capabilities.sorted(), mailbox: mailbox, uidValidity: uidValidity,
                                          uid: uid, probe: probe, measured: Timestamp(now, timeZone: store.timeZone))
        if !options.dryRun { try verdict.save(store: store.root, account: account) }
        note(verdict.substring
             ? "the server's SEARCH finds substrings (FROM \"\(probe)\" found UID \(uid)): narrowing by UID SEARCH"
             : Self.untrusted(verdict))
        return verdict.substring
    }

    private static func untrusted(_ verdict: ServerSearchVerdict) -> String {
        "fetching every message: the server's SEARCH does not find substrings (FROM \"\(verdict.probe)\" did not find "
            + "UID \(verdict.uid) of \(verdict.mailbox), which has it; a full-text index?); set server_search = substring to trust it anyway"
    }

    private func note(_ text: String) {
        report(.note(account: account, mailbox: mailbox, text))
    }
}
