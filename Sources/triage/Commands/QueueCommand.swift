import TriageApp
import TriageCore

/// `triage queue`: lists queue entries and marks them done, open again or removed.
enum QueueCommand: Command {
    static let spec = CommandSpec(
        name: "queue",
        summary: "list queue entries; mark them done, reopen or remove them",
        usage: [
            "queue [list] [NAME] [--all] [--json] [--config FILE]",
            "queue done ID... [--config FILE]",
            "queue reopen ID... [--config FILE]",
            "queue remove ID... [--config FILE]",
        ],
        about: """
        Lists the open entries of every queue (or of queue NAME), grouped by queue,
        newest first: short id, due day, sender and subject. IDs may be shortened to
        any unique prefix of at least four digits, as shown in the list.

        'done' closes entries, 'reopen' opens them again, 'remove' hides an entry
        for good: the same message through the same rule does not bring it back.
        Each prints what it changed ("done: 0162 Invoice for your order"). When a
        cron run holds the store, they wait a few seconds for it.
        """,
        options: [
            .flag("--all", help: "include done entries"),
            .flag("--json", help: "one JSON object per entry, one per line (the record's fields)"),
            .config,
        ],
        notes: "Exit status: 0 success; 64 usage error; 65 an unknown or ambiguous id (nothing is changed); "
            + "66 no configuration file; 75 another triage held the store's lock for longer than the few seconds "
        + "done, reopen and remove wait.")

    /// By queue name, then newest first (by when the entry was made; the id only
    /// breaks a tie, for a stable order). Sorts indices so the large records are not moved around.
    static func sorted(_ entries: [QueueEntry]) -> [QueueEntry] {
        let keys = entries.map { ($0.queue, -$0.created.secondsSince1970, $0.id) }
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        return order.map { entries[$0] }
    }

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        if let status = try StatusVerb.apply(a, QueueEntry.self, context: context, set: {
            try $0.setStatus(queueEntries: $1, to: $2, now: $3)
        }) {
            return status
        }
        var words = a.positional
        if words.first == "list" { words.removeFirst() }
        guard words.count <= 1 else {
            throw SimpleError(.usage, "queue: unexpected '\(words[1])'; usage: triage queue [list] [NAME] [--all] [--json]")
        }
        let (setup, context) = try RunSetup.load(a, context: context)
        let listing = setup.store.queueEntries(a.has("--all") ? [.open, .done] : [.open])
        setup.report(listing.problems, context)
        var entries = listing.records
        if let queue = words.first { entries = entries.filter { $0.queue == queue } }
        entries = QueueCommand.sorted(entries)

        if a.has("--json") {
            context.out(entries.map { $0.json.serialized + "\n" }.joined())
            return .ok
        }
        let index = setup.store.shortIDs(QueueEntry.self)
        var out = ""
        var start = entries.startIndex
        while start < entries.endIndex {
            let queue = entries[start].queue
            let end = entries[start...].firstIndex { $0.queue != queue } ?? entries.endIndex
            var table = TextTable()
            for entry in entries[start..<end] {
                var row = [index.short(entry.id), entry.due.iso]
                if a.has("--all") { row.append(entry.status.rawValue) }
                row += [TextTable.clip(entry.message.senderLabel, 28), entry.message.subject ?? "(no subject)"]
                table.add(row)
            }
            out += "\(queue) (\(end - start))\n" + table.render()
            start = end
        }
        context.out(out)
        return .ok
    }
}
