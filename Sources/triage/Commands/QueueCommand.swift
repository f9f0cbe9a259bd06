import TriageCore

/// `triage queue`: lists queue entries and marks them done, open again or removed.
enum QueueCommand: Command {
    static let name = "queue"
    static let summary = "list queue entries; mark them done, reopen or remove them"
    static let help = """
    usage: triage queue [list] [NAME] [--all] [--json] [--config FILE]
           triage queue done ID...
           triage queue reopen ID...
           triage queue remove ID...

    Lists the open entries of every queue (or of queue NAME), grouped by queue,
    newest last: short id, due day, sender and subject. IDs may be shortened to
    any unique prefix of at least four digits, as shown in the list.

      --all          include done entries
      --json         one JSON object per entry, one per line (the record's fields)
      --config FILE  the configuration file (default $XDG_CONFIG_HOME/triage/triage.conf)

    'remove' hides an entry for good: the same message through the same rule
    does not bring it back.

    """

    /// By queue name, then oldest first (newest last), then id. Sorts indices so
    /// the large records are not moved around.
    static func sorted(_ entries: [QueueEntry]) -> [QueueEntry] {
        let keys = entries.map { ($0.queue, $0.created.secondsSince1970, $0.id) }
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        return order.map { entries[$0] }
    }

    static func run(_ args: [String], context: Context) throws -> ExitStatus {
        let a = try Arguments(args, flags: ["--all", "--json"], options: ["--config"], command: name)
        var words = a.positional
        let verbs: [String: WorkStatus] = ["done": .done, "reopen": .open, "remove": .removed]
        if let verb = words.first, let status = verbs[verb] {
            guard !a.has("--all"), !a.has("--json") else {
                throw SimpleError(.usage, "queue \(verb): --all and --json are for listing; see 'triage queue --help'")
            }
            let typed = Array(words.dropFirst())
            guard !typed.isEmpty else { throw SimpleError(.usage, "queue \(verb): name at least one entry id (see 'triage queue list')") }
            let access = try StoreAccess(configOption: a.value("--config"), context: context)
            let ids = try access.store.resolve(QueueEntry.self, typed)
            try access.store.setStatus(queueEntries: ids, to: status, now: context.now)
            return .ok
        }
        if words.first == "list" { words.removeFirst() }
        guard words.count <= 1 else {
            throw SimpleError(.usage, "queue: unexpected '\(words[1])'; usage: triage queue [list] [NAME] [--all] [--json]")
        }
        let access = try StoreAccess(configOption: a.value("--config"), context: context)
        let listing = access.store.queueEntries(a.has("--all") ? [.open, .done] : [.open])
        access.report(listing.problems, context)
        var entries = listing.records
        if let queue = words.first { entries = entries.filter { $0.queue == queue } }
        entries = QueueCommand.sorted(entries)

        if a.has("--json") {
            context.out(entries.map { $0.json.serialized + "\n" }.joined())
            return .ok
        }
        let index = access.store.shortIDs(QueueEntry.self)
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
