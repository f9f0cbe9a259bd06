import TriageCore

/// `triage remind`: lists reminders, adds one by hand, marks them done or removes them.
enum RemindCommand: Command {
    static let name = "remind"
    static let summary = "list, add, complete or remove reminders"
    static let help = """
    usage: triage remind [list] [--all] [--json] [--config FILE]
           triage remind add "TITLE" [in N days | on YYYY-MM-DD] [at HH:MM]
                             [near LAT,LON radius N m|km|mi [arriving|leaving]] [note "TEXT"]
           triage remind done ID...
           triage remind remove ID...

    Lists open reminders by due day: short id, due day and time, title, place.
    'add' takes the same words as the 'remind' action of a rule; without 'in' or
    'on' the reminder is due today. IDs may be shortened to any unique prefix of
    at least four digits.

      --all          include done reminders
      --json         one JSON object per reminder, one per line (the record's fields)
      --config FILE  the configuration file (default $XDG_CONFIG_HOME/triage/triage.conf)

    """

    static func run(_ args: [String], context: Context) throws -> ExitStatus {
        if let (words, config) = try addArguments(args) {
            return try add(words, configOption: config, context: context)
        }
        let a = try Arguments(args, flags: ["--all", "--json"], options: ["--config"], command: name)
        var words = a.positional
        let verbs: [String: WorkStatus] = ["done": .done, "remove": .removed]
        if let verb = words.first, verbs[verb] != nil {
            guard !a.has("--all"), !a.has("--json") else {
                throw SimpleError(.usage, "remind \(verb): --all and --json are for listing; see 'triage remind --help'")
            }
            let rest = Array(words.dropFirst())
            guard !rest.isEmpty else { throw SimpleError(.usage, "remind \(verb): name at least one reminder id (see 'triage remind list')") }
            let access = try StoreAccess(configOption: a.value("--config"), context: context)
            let ids = try access.store.resolve(Reminder.self, rest)
            try access.store.setStatus(reminders: ids, to: verbs[verb]!, now: context.now)
            return .ok
        }
        if words.first == "list" { words.removeFirst() }
        guard words.isEmpty else {
            throw SimpleError(.usage, "remind: unexpected '\(words[0])'; usage: triage remind [list] [--all] [--json], or remind add|done|remove")
        }
        let access = try StoreAccess(configOption: a.value("--config"), context: context)
        let listing = access.store.reminders(a.has("--all") ? [.open, .done] : [.open])
        access.report(listing.problems, context)
        let reminders = listing.records.sorted(by: RemindCommand.order)
        if a.has("--json") {
            context.out(reminders.map { $0.json.serialized + "\n" }.joined())
            return .ok
        }
        let index = access.store.shortIDs(Reminder.self)
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

    /// For `remind add`, the words after `add` and the `--config` value; nil for
    /// other subcommands. Words with one dash stay words, so `near -33.87,151.21`
    /// works; `--config` is the only option `add` takes.
    static func addArguments(_ args: [String]) throws -> ([String], String?)? {
        var words: [String] = []
        var config: String?
        var i = 0
        var onlyWords = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyWords || !arg.hasPrefix("--") || (words.first == "add" && arg.count > 2 && Double(arg) != nil) {
                words.append(arg)
            } else if arg == "--" {
                onlyWords = true
            } else if arg == "--config" {
                guard i < args.count else { return nil }
                config = args[i]
                i += 1
            } else if arg.hasPrefix("--config=") {
                config = String(arg.dropFirst("--config=".count))
            } else if words.first == "add" {
                throw SimpleError(.usage, "remind add: unknown option \(arg); it takes only --config FILE (use -- before words that start with --)")
            } else {
                return nil // let the list parser report it
            }
        }
        guard words.first == "add" else { return nil }
        return (Array(words.dropFirst()), config)
    }

    /// `remind add WORDS...`: parses them with the rule language's reminder grammar.
    private static func add(_ words: [String], configOption: String?, context: Context) throws -> ExitStatus {
        guard !words.isEmpty else { throw SimpleError(.usage, "remind add: give a title, e.g. triage remind add \"Call the dentist\" in 2 days") }
        let source = ReminderSource.text(words)
        let (parsed, diagnostics) = ReminderSyntax.parse(source, path: "<command line>")
        guard let spec = parsed, !diagnostics.contains(where: { $0.severity == .error }) else {
            throw SimpleError(.usage, "remind add: " + ReminderSource.render(diagnostics, source: source))
        }
        let access = try StoreAccess(configOption: configOption, context: context)
        let reminder = Reminder(id: RecordID.random(), spec: spec, today: access.today(context),
                                created: Timestamp(context.now, timeZone: access.timeZone))
        try access.store.put(reminder)
        return .ok
    }
}
