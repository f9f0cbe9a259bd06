import TriageApp
import TriageCore

/// `triage remind`: lists reminders, adds one by hand, marks them done, open again or removed.
enum RemindCommand: Command {
    static let spec = CommandSpec(
        name: "remind",
        summary: "list, add, complete, reopen or remove reminders",
        usage: [
            "remind [list] [--all] [--json] [--config FILE]",
            "remind add TITLE... [in N days|weeks | tomorrow | next WEEKDAY | on DATE] "
                + "[at HH:MM|9am|6:30pm] [near PLACE [arriving|leaving]] "
                + "[note TEXT...] [--force] [--now TIME] [--config FILE]",
            "remind done ID... [--config FILE]",
            "remind reopen ID... [--config FILE]",
            "remind remove ID... [--config FILE]",
        ],
        about: """
        Lists open reminders by due day: short id, due day and time, title, place.
        IDs may be shortened to any unique prefix of at least four digits.

        'add' takes the same clauses as the 'remind' action of a rule; without 'in',
        'tomorrow', 'next' or 'on' the reminder is due today; a day already past is
        refused unless --force. PLACE is LAT,LON radius N m|km|mi, or "NAME" for a
        [place NAME] section of the configuration, or "NAME" LAT,LON radius N m
        (a name for those coordinates). The title is the words before the first clause (in, on,
        tomorrow, next, at, near, note), quoted or not: 'remind add Call the
        dentist in 2 days' and 'remind add "Call the dentist" in 2 days' are the
        same; the note is the words after 'note' up to the next clause. Quote a
        title or note that holds a clause word ("Pick up at the station"); words
        that start with -- go after --.

        'add' prints the new reminder's short id and due day; 'done' closes
        reminders, 'reopen' opens them again, 'remove' hides them, each printing
        what it changed. When a cron run holds the store, they wait a few seconds for it.
        """,
        options: [
            .flag("--all", help: "include done reminders"),
            .flag("--json", help: "one JSON object per reminder, one per line (the record's fields)"),
            .flag("--force", help: "add: accept a due day already past"),
            .now("act"),
            .config,
        ],
        notes: "Exit status: 0 success; 64 usage error (for add: the reminder's words, with the column, "
            + "or a due day already past without --force); 65 an unknown or ambiguous id (nothing is changed); 66 no configuration file; "
            + "75 another triage held the store's lock for longer than the few seconds add, done, reopen and remove wait.",
        dashWords: true)

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        if a.has("--force"), a.positional.first != "add" { throw SimpleError(.usage, "remind: --force goes with add") }
        if let status = try StatusVerb.apply(a, Reminder.self, context: context, set: {
            try $0.setStatus(reminders: $1, to: $2, now: $3)
        }) {
            return status
        }
        var words = a.positional
        if words.first == "add" {
            guard !a.has("--all"), !a.has("--json") else {
                throw SimpleError(.usage, "remind add: --all and --json are for listing; see 'triage remind --help'")
            }
            return try add(Array(words.dropFirst()), a, context: context)
        }
        if words.first == "list" { words.removeFirst() }
        guard words.isEmpty else {
            throw SimpleError(.usage, "remind: unexpected '\(words[0])'; usage: triage remind [list] [--all] [--json], "
                + "or remind add|done|reopen|remove")
        }
        let (setup, context) = try RunSetup.load(a, context: context)
        let listing = setup.store.reminders(a.has("--all") ? [.open, .done] : [.open])
        setup.report(listing.problems, context)
        let reminders = listing.records.sorted(by: RemindCommand.order)
        if a.has("--json") {
            context.out(reminders.map { $0.json.serialized + "\n" }.joined())
            return .ok
        }
        let index = setup.store.shortIDs(Reminder.self)
        var table = TextTable()
        let timed = reminders.contains { $0.at != nil }
        for r in reminders {
            var row = [index.short(r.id), r.due.iso + (r.at.map { " " + $0.description } ?? (timed ? "      " : ""))]
            if a.has("--all") { row.append(r.status.rawValue) }
            row.append(r.title + (r.place.map { "  " + RemindCommand.describe($0) } ?? ""))
            table.add(row)
        }
        context.out(table.render(indent: ""))
        return .ok
    }

    /// Due day, then time (untimed first), then creation.
    static func order(_ a: Reminder, _ b: Reminder) -> Bool {
        let ta = a.at.map { $0.hour * 60 + $0.minute } ?? -1
        let tb = b.at.map { $0.hour * 60 + $0.minute } ?? -1
        return (a.due, ta, a.created, a.id) < (b.due, tb, b.created, b.id)
    }

    /// `(near Office, 150 m, arriving)`.
    static func describe(_ place: Place) -> String {
        let name = place.title ?? "\(number(place.latitude, 6)),\(number(place.longitude, 6))"
        // The same unit guess as the digest, so "radius 3 mi" reads back as 3 mi everywhere.
        return "(near \(name), \(DigestFormat.radius(place.radiusMeters)), \(place.proximity.rawValue))"
    }

    /// At most `digits` decimals, without trailing zeros.
    private static func number(_ value: Double, _ digits: Int) -> String {
        var text = String(format: "%.\(digits)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }

    /// `remind add WORDS...`: parses them with the rule language's reminder grammar.
    private static func add(_ words: [String], _ a: Arguments, context: Context) throws -> ExitStatus {
        guard !words.isEmpty else { throw SimpleError(.usage, "remind add: give a title, e.g. triage remind add \"Call the dentist\" in 2 days") }
        let source = ReminderSource.text(words)
        // The configuration first: `near "Office"` names one of its [place] sections.
        let (setup, context) = try RunSetup.load(a, context: context)
        let (parsed, diagnostics) = ReminderSyntax.parse(source, path: "<command line>", places: setup.config.placesByName)
        guard let spec = parsed, !diagnostics.contains(where: { $0.severity == .error }) else {
            throw SimpleError(.usage, "remind add: " + ReminderSource.render(diagnostics, source: source))
        }
        let today = setup.today(context)
        let reminder = Reminder(id: RecordID.random(), spec: spec, today: today,
                                created: Timestamp(context.now, timeZone: setup.timeZone))
        if reminder.due < today, !a.has("--force") {
            throw SimpleError(.usage, "remind add: the due day \(reminder.due.iso) is past (today is \(today.iso)); "
                              + "give a later day, or add --force to add it anyway")
        }
        try LockWait.holding(setup.store, context: context) { _ = try setup.store.put(reminder) }
        let short = setup.store.shortIDs(Reminder.self).short(reminder.id)
        let due = reminder.due.iso + (reminder.at.map { " " + $0.description } ?? "")
        context.out("added: \(short) \(StatusVerb.title(of: reminder)) (due \(due))\n")
        return .ok
    }
}
