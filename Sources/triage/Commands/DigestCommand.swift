import Foundation
import TriageApp
import TriageCore

/// `triage digest`: preview, send or plan the daily digest.
enum DigestCommand: Command {
    static let spec = CommandSpec(
        name: "digest",
        summary: "preview, send or plan the daily digest",
        usage: [
            "digest [--config FILE] [--date YYYY-MM-DD] [--now TIME] --preview [--text | --html | --eml]",
            "digest [--config FILE] [--date YYYY-MM-DD] [--now TIME] --send [--force] [--verbose]",
            "digest [--config FILE] [--date YYYY-MM-DD] [--now TIME] --plan N",
        ],
        about: """
        The digest of a day holds the open reminders and queue entries due on or
        before it (overdue ones with their age) and, once, the digest entries that
        arrived since the last digest. 'triage run' sends it by itself once the
        [digest] hour has passed; see docs/digest.md.
        """,
        options: [
            .flag("--preview", help: "print the day's digest as readable text (its text part, decoded) to standard "
                + "output; sends and marks nothing"),
            .flag("--text", help: "the decoded text part (the default)", under: true),
            .flag("--html", help: "the decoded HTML part instead", under: true),
            .flag("--eml", help: "the whole message instead, RFC 5322 with CRLF line ends, as it would be sent",
                  under: true),
            .flag("--send", help: "send the day's digest now and record it; a day is sent once: a second --send "
                + "that day sends nothing"),
            .flag("--force", help: "send it again anyway (with a new Message-ID), even when there is nothing to report",
                  under: true),
            .value("--plan", "N", help: "for the next N digests (1 to 366), print each day and its items from what "
                + "the store holds now; empty days are left out"),
            .value("--date", "YYYY-MM-DD", help: "the digest of that day (default: today; for --plan, the first day, "
                + "default the next digest to be sent)"),
            .now("act"),
            .flag("-v", "--verbose", help: "say what --send did"),
            .config,
        ],
        notes: """
        Exit status: 0 success (also when nothing was due); 64 usage error; 66 no
        configuration file; 75 the message could not be delivered (the step that
        failed is named; nothing is recorded, the next run retries), sendmail
        failed or did not finish within command_timeout, or a cron run held the
        store for longer than the few seconds --send waits; 77 the SMTP server
        refused the credentials; 78 configuration error, smtps:// on a STARTTLS
        port, tls = off for a host not on loopback, or no sendmail program.
        """)

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        try a.expectNoPositional()
        let forms = ["--text", "--html", "--eml"].filter(a.has)
        if !forms.isEmpty && !a.has("--preview") {
            throw SimpleError(.usage, "digest: \(forms[0]) goes with --preview")
        }
        let modes = ["--preview", "--send"].filter(a.has) + (a.value("--plan") != nil ? ["--plan"] : [])
        guard modes.count == 1 else { throw a.usage("give one of --preview, --send or --plan N") }
        if a.has("--force") && !a.has("--send") { throw SimpleError(.usage, "digest: --force goes with --send") }
        if forms.count > 1 { throw SimpleError(.usage, "digest: give one of --text, --html or --eml, not \(forms.joined(separator: " and "))") }
        var date: CivilDate?
        if let text = a.value("--date") {
            guard let day = CivilDate(iso: text) else { throw SimpleError(.usage, "digest: --date wants YYYY-MM-DD, not '\(text)'") }
            date = day
        }

        let (setup, context) = try RunSetup.load(a, context: context)
        let today = setup.today(context)

        if let countText = a.value("--plan") {
            guard let count = Int(countText), count > 0, count <= 366 else {
                throw SimpleError(.usage, "digest: --plan wants a number of days from 1 to 366, not '\(countText)'")
            }
            return plan(setup: setup, count: count, from: date, context: context)
        }

        let service = try DigestService(setup: setup)
        let day = date ?? today
        if a.has("--preview") {
            let draft = try service.dispatcher.draft(day: day, now: context.now)
            setup.report(draft.problems, context)
            // Readable text by default: the message itself is quoted-printable, unreadable
            // on a terminal; --eml keeps it for piping into a mail program or a file.
            if a.has("--eml") { context.out(draft.message.text) }
            else if a.has("--html") { context.out(ControlCharacters.replaced(in: draft.rendered.html, keepingLineBreaks: true)) }
            else { context.out(ControlCharacters.replaced(in: draft.rendered.text, keepingLineBreaks: true)) }
            return .ok
        }

        let outcome: DigestOutcome
        do {
            outcome = try LockWait.holding(setup.store, context: context) {
                try service.dispatcher.send(day: day, now: context.now, force: a.has("--force"), delivery: service.delivery)
            }
        } catch {
            throw DigestService.failure(error, day: day)
        }
        setup.report(outcome.problems, context)
        let verbose = a.has("--verbose")
        switch outcome {
        case .sent(let draft):
            if verbose { context.out("sent the digest of \(day.iso) to \(service.settings.to) via \(service.endpoint.displayName): \(draft.rendered.subject)\n") }
        case .alreadySent:
            context.err("triage: the digest of \(day.iso) was already sent; nothing sent (--force sends it again)\n")
        case .nothingToReport:
            context.err("triage: nothing to report for \(day.iso) and send_empty = no; nothing sent\n")
        case .notDue:
            break
        }
        return .ok
    }

    /// `--plan N`: each coming digest's day and items, one line per item.
    static func plan(setup: RunSetup, count: Int, from start: CivilDate?, context: Context) -> ExitStatus {
        let store = setup.store
        let days: [CivilDate]
        if let start {
            days = (0..<count).map { start.adding(days: $0) }
        } else {
            let schedule = DigestSchedule(hour: setup.config.digest?.hour ?? 7, timeZone: setup.timeZone)
            days = schedule.upcomingDays(at: context.now, sent: (try? store.digestLedger.sentDays()) ?? [], count: count)
        }
        let reminders = store.openReminders(), queue = store.openQueueEntries(), entries = store.unreportedDigestEntries()
        setup.report(reminders.problems + queue.problems + entries.problems, context)
        let plans = DigestPlanner().plan(days: days, reminders: reminders.records, queueEntries: queue.records,
                                         digestEntries: entries.records)
        let ids = DigestShortIDs(store: store)
        // Each day's heading line, then its items as (section, id, the rest) rows.
        var listed: [(heading: String, rows: [[String]])] = []
        for plan in plans where !plan.isEmpty {
            let view = DigestView(plan: plan, ids: ids, timeZone: setup.timeZone, compact: [])
            var rows: [[String]] = []
            for section in view.sections {
                for item in section.items {
                    // The digest says "due today" once per section; the plan says it per item.
                    let status = (item.status ?? (item.reply != nil ? "due today" : nil)).map { " (\($0))" } ?? ""
                    let sender = item.sender.map { " — \($0)" } ?? ""
                    rows.append([section.heading, item.shortID, "\(item.title)\(status)\(sender)"]
                        .map { ControlCharacters.replaced(in: $0) })
                }
            }
            listed.append(("\(plan.day.iso) \(DigestFormat.shortDay(plan.day)): \(DigestFormat.countParts(plan).joined(separator: ", "))", rows))
        }
        // One set of column widths for the whole plan, at least the usual 14 and 6, so a
        // long section name (a sender's, a rule's) widens its column instead of breaking it.
        let all = listed.flatMap { $0.rows }
        let sectionWidth = max(14, all.map { $0[0].count }.max() ?? 0)
        let idWidth = max(6, all.map { $0[1].count }.max() ?? 0)
        var out = ""
        for day in listed {
            if !out.isEmpty { out += "\n" }
            out += ControlCharacters.replaced(in: day.heading) + "\n"
            for row in day.rows {
                out += "  \(pad(row[0], sectionWidth)) \(pad(row[1], idWidth)) \(row[2])\n"
            }
        }
        context.out(out)
        return .ok
    }

    private static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }
}
