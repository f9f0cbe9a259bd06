import TriageApp
import TriageCore

/// `triage snooze`: lists snoozed mail, and brings a message back now.
enum SnoozeCommand: Command {
    static let spec = CommandSpec(
        name: "snooze",
        summary: "list snoozed mail; bring a message back now",
        usage: [
            "snooze [list] [--all] [--json] [--config FILE] [--now TIME]",
            "snooze wake ID... [--config FILE] [--now TIME]",
        ],
        about: """
        Lists the messages the snooze action (or a digest reply's 'snooze ID until
        DAY') put in the account's snoozed folder, soonest first: short id, when it
        comes back, account, sender and subject. IDs may be shortened to any unique
        prefix of at least four digits, as shown in the list.

        'wake' brings the named messages back into INBOX now, unread, as the first
        run at their time would; their rule does not snooze them again.
        """,
        options: [
            .flag("--all", help: "include messages that came back"),
            .flag("--json", help: "one JSON object per snoozed message, one per line (the record's fields)"),
            .now("snooze"),
            .config,
        ],
        notes: "Exit status: 0 success; 64 usage error; 65 an unknown or ambiguous id, or one already back (nothing "
            + "is changed); 66 no configuration file; 75 the server could not be reached, refused to bring a message "
            + "back (its STORE or MOVE: the message stays snoozed, and standard error names it), or another triage "
            + "held the store's lock for more than 10 s; 77 credentials refused; 78 configuration error.")

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        var words = a.positional
        if words.first == "wake" {
            guard !a.has("--all"), !a.has("--json") else {
                throw SimpleError(.usage, "snooze wake: --all and --json are for listing; see 'triage snooze --help'")
            }
            let typed = Array(words.dropFirst())
            guard !typed.isEmpty else { throw SimpleError(.usage, "snooze wake: name at least one id (see 'triage snooze list')") }
            let (setup, context) = try RunSetup.load(a, context: context)
            let (woken, stayed) = try SnoozeService.wakeNow(typed, setup: setup, context: context)
            let index = setup.store.shortIDs(SnoozeRecord.self)
            context.out(woken.map { record in
                "woken: \(index.short(record.id)) \(record.message.subject ?? "(no subject)")"
                    + (record.wakeNote.map { " (nothing moved: \($0))" } ?? "") + "\n"
            }.joined())
            // A message the server would not bring back is still snoozed: say which, and what to do.
            for (record, reason, _) in stayed {
                let short = index.short(record.id)
                let subject = DigestFormat.oneLine(record.message.subject ?? "(no subject)", limit: 80)
                let folder = setup.config.accounts.first { $0.name == record.message.account }?.snoozedFolder ?? "the snoozed folder"
                context.err("triage: snooze wake: \(short) \"\(subject)\" was not woken: \(DigestFormat.oneLine(reason, limit: 300)); "
                    + "it is still snoozed in \(DigestFormat.oneLine(folder, limit: 80)) (account "
                    + "\(DigestFormat.oneLine(record.message.account ?? "", limit: 40))). Try 'triage snooze wake \(short)' again once "
                    + "the server accepts it (check that INBOX and \(DigestFormat.oneLine(folder, limit: 80)) can be written); "
                    + "else the first run at or after \(record.wake.rfc3339) tries again\n")
            }
            return stayed.map(\.status).max() ?? .ok
        }
        if words.first == "list" { words.removeFirst() }
        guard words.isEmpty else {
            throw SimpleError(.usage, "snooze: unexpected '\(words[0])'; usage: triage snooze [list] [--all] [--json] | triage snooze wake ID...")
        }
        let (setup, context) = try RunSetup.load(a, context: context)
        let listing = setup.store.records(SnoozeRecord.self, in: a.has("--all") ? SnoozeRecord.statusFolders : [SnoozeRecord.activeFolder])
        setup.report(listing.problems, context)
        let records = listing.records.sorted { ($0.wake.secondsSince1970, $0.id) < ($1.wake.secondsSince1970, $1.id) }
        if a.has("--json") {
            context.out(records.map { $0.json.serialized + "\n" }.joined())
            return .ok
        }
        let index = setup.store.shortIDs(SnoozeRecord.self)
        var table = TextTable()
        for record in records {
            let local = Timestamp(record.wake.date, timeZone: setup.timeZone)
            var row = [index.short(record.id), local.localDay.iso + " " + clock(local)]
            if a.has("--all") { row.append(record.woken == nil ? "snoozed" : "back") }
            row += [record.message.account ?? "", TextTable.clip(record.message.senderLabel, 28), record.message.subject ?? "(no subject)"]
            table.add(row)
        }
        context.out(table.render())
        return .ok
    }

    /// `HH:MM` of a local time.
    private static func clock(_ stamp: Timestamp) -> String {
        let seconds = (stamp.secondsSince1970 + Int64(stamp.utcOffsetSeconds)) % 86_400
        let minutes = Int((seconds + 86_400) % 86_400) / 60
        return TimeOfDay(hour: minutes / 60, minute: minutes % 60).description
    }
}
