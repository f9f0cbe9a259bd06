import Foundation
import TriageApp
import TriageCore

/// `triage status`: one screen on how the cron job is doing, from the run record
/// (`RunRecord`) and the store; reads only, takes no lock, connects to nothing.
enum StatusCommand: Command {
    static let spec = CommandSpec(
        name: "status",
        summary: "how the cron job is doing: last runs, failures, webhooks, digest, CalDAV, open counts",
        usage: ["status [--json] [--now TIME] [--config FILE]"],
        about: """
        Shows the last run of each account and mailbox (when, how many messages
        it classified), a failure still going on and since when, the webhooks
        waiting to be POSTed, the digest (sent and when, nothing to send on an
        empty day, due, or failing), each CalDAV target's last sync and failure,
        and how many queue entries and reminders are open. Reads the store
        only: it connects to nothing and changes nothing. The JSON keys are listed
        in docs/status.md.
        """,
        options: [
            .flag("--json", help: "one JSON object (the keys of docs/status.md)"),
            .now("show"),
            .config,
        ],
        notes: "Exit status: 0 success; 64 usage error; 66 no configuration file; 78 configuration error.")

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        try a.expectNoPositional()
        let (setup, context) = try RunSetup.load(a, context: context)
        let report = Report(setup: setup, now: context.now)
        context.out(a.has("--json") ? report.json.prettySerialized + "\n" : report.text)
        return .ok
    }

    /// What the screen shows, gathered once for both forms.
    struct Report {
        let setup: RunSetup
        let now: Date
        let record: RunRecord
        let pendingWebhooks: Int
        let queues: [(name: String, count: Int)]
        let reminders: Int
        let remindersDue: Int
        let sentDays: Set<CivilDate>

        init(setup: RunSetup, now: Date) {
            self.setup = setup
            self.now = now
            let store = setup.store
            record = RunRecord.load(store: store.root)
            pendingWebhooks = store.records(WebhookDelivery.self, in: [WebhookDelivery.activeFolder]).records.count
            let entries = store.openQueueEntries().records
            queues = Dictionary(grouping: entries, by: \.queue).map { ($0.key, $0.value.count) }.sorted { $0.name < $1.name }
            let open = store.openReminders().records
            let today = Timestamp.day(of: now, in: setup.timeZone)
            reminders = open.count
            remindersDue = open.filter { $0.due <= today }.count
            sentDays = (try? store.digestLedger.sentDays()) ?? []
        }

        /// The next digest: its day, the instant it is due from, and whether it is due already.
        var nextDigest: (day: CivilDate, at: Date, dueNow: Bool)? {
            guard let digest = setup.config.digest else { return nil }
            let schedule = DigestSchedule(hour: digest.hour, timeZone: setup.timeZone)
            guard let day = schedule.upcomingDays(at: now, sent: sentDays, count: 1).first else { return nil }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = setup.timeZone
            let at = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: digest.hour)) ?? now
            return (day, at, schedule.dueDay(at: now, sent: sentDays) != nil)
        }

        /// Where the digest stands: `failing` (the last try failed), `empty` (the day due was
        /// looked at and had nothing to send, `send_empty = no`), `due` (the next run sends
        /// it) or `sent` (the latest day's digest went out); nil without `[digest]`.
        var digestState: String? {
            guard let next = nextDigest else { return nil }
            if record.digest?.failure != nil { return "failing" }
            guard next.dueNow else { return "sent" }
            return emptyLook(next.day) != nil ? "empty" : "due"
        }

        /// The run record's look at `day`'s digest when it found nothing to send.
        private func emptyLook(_ day: CivilDate) -> RunRecord.DigestCheck? {
            guard let check = record.digestCheck, check.day == day.iso, check.outcome == .empty else { return nil }
            return check
        }

        /// When the last digest sent went out, when the run record knows it.
        private var lastSentAt: Timestamp? {
            guard let check = record.digestCheck, check.outcome == .sent, check.day == sentDays.max()?.iso else { return nil }
            return check.at
        }

        private func stamp(_ date: Date) -> Timestamp { Timestamp(date, timeZone: setup.timeZone) }

        /// `2026-12-01 17:20 (3m ago)`.
        private func when(_ t: Timestamp) -> String {
            let local = Timestamp(t.date, timeZone: setup.timeZone).rfc3339
            let shown = String(local.prefix(16)).replacingOccurrences(of: "T", with: " ")
            let ago = Int64(now.timeIntervalSince1970) - t.secondsSince1970
            return shown + (ago >= 0 ? " (\(QuietFailures.duration(ago)) ago)" : "")
        }

        private func failureText(_ f: RunRecord.Failure) -> String {
            let runs = f.runs == 1 ? "1 run" : "\(f.runs) runs"
            return "FAILING since \(when(f.since)), \(runs), exit \(f.exitStatus): \(TextTable.clip(f.message, 200))"
        }

        var text: String {
            var out = "Accounts\n"
            var table = TextTable()
            for account in setup.config.accounts {
                let source = record.accounts[account.name]
                var state = source?.lastRun.map { "last run " + when($0) } ?? "never run"
                if let failure = source?.failure { state += "; " + failureText(failure) } else if source?.lastRun != nil { state += "; ok" }
                table.add([account.name, state])
                for mailbox in account.mailboxes {
                    let run = source?.mailboxes[mailbox]
                    let what = run.map { "\(when($0.lastRun)), \($0.messages) message\($0.messages == 1 ? "" : "s")" } ?? "no complete pass yet"
                    table.add(["  " + mailbox, what])
                }
            }
            out += setup.config.accounts.isEmpty ? "  (none configured)\n" : table.render()
            out += "Digest\n"
            if let next = nextDigest {
                let from = String(stamp(next.at).rfc3339.prefix(16)).replacingOccurrences(of: "T", with: " ")
                var line: String
                switch digestState {
                case "failing":
                    line = "  \(next.day.iso) is due and the last try failed: the next run tries again"
                case "empty":
                    // Rightly not sent: nothing to report, and send_empty = no. Not "due".
                    line = "  \(next.day.iso): nothing to send, the day was empty (send_empty = no; looked at "
                        + "\(when(emptyLook(next.day)!.at))); a later run sends it if something comes"
                case "due":
                    line = "  \(next.day.iso) is due now: the next run sends it"
                default:
                    line = "  next: \(next.day.iso) from \(from)"
                }
                if let last = sentDays.max() { line += "; last sent: \(last.iso)" + (lastSentAt.map { " at \(when($0))" } ?? "") }
                out += line + "\n"
                if let failure = record.digest?.failure { out += "  " + failureText(failure) + "\n" }
            } else {
                out += "  no [digest] section\n"
            }
            if !setup.config.caldav.isEmpty {
                out += "CalDAV\n"
                var table = TextTable()
                for section in setup.config.caldav {
                    let source = record.caldav[section.name]
                    var state = source?.lastRun.map { "last sync " + when($0) } ?? "never synced"
                    if let failure = source?.failure {
                        state += "; " + failureText(failure)
                        if let success = source?.lastSuccess { state += "; last good sync \(when(success))" }
                    } else if source?.lastRun != nil { state += "; ok" }
                    table.add([section.name, state])
                }
                out += table.render()
            }
            out += "Webhooks\n  \(pendingWebhooks) pending\n"
            out += "Open\n"
            let queueText = queues.isEmpty ? "none" : queues.map { "\($0.name) \($0.count)" }.joined(separator: ", ")
            out += "  queues: \(queueText)\n  reminders: \(reminders) (\(remindersDue) due today or overdue)\n"
            return out
        }

        private func json(_ t: Timestamp?) -> JSONValue { t.map { .string(Timestamp($0.date, timeZone: setup.timeZone).rfc3339) } ?? .null }

        private func json(_ f: RunRecord.Failure?) -> JSONValue {
            guard let f else { return .null }
            return .object([
                ("exit_status", .int(Int64(f.exitStatus))), ("message", .string(f.message)),
                ("since", json(f.since)), ("last", json(f.last)), ("runs", .int(Int64(f.runs))),
            ])
        }

        var json: JSONValue {
            let accounts: [JSONValue] = setup.config.accounts.map { account in
                let source = record.accounts[account.name]
                let mailboxes: [JSONValue] = account.mailboxes.map { mailbox in
                    let run = source?.mailboxes[mailbox]
                    return .object([("name", .string(mailbox)), ("last_run", json(run?.lastRun)),
                                    ("messages", run.map { .int(Int64($0.messages)) } ?? .null)])
                }
                return .object([
                    ("name", .string(account.name)), ("last_run", json(source?.lastRun)),
                    ("last_success", json(source?.lastSuccess)), ("mailboxes", .array(mailboxes)),
                    ("failure", json(source?.failure)),
                ])
            }
            var digest = JSONValue.null
            if let next = nextDigest {
                digest = .object([
                    ("next_day", .string(next.day.iso)), ("next_at", .string(stamp(next.at).rfc3339)),
                    ("due_now", .bool(next.dueNow)), ("last_sent", sentDays.max().map { .string($0.iso) } ?? .null),
                    ("failure", json(record.digest?.failure)),
                    ("state", digestState.map { .string($0) } ?? .null),
                    ("last_sent_at", json(lastSentAt)),
                    ("empty_looked_at", json(emptyLook(next.day)?.at)),
                ])
            }
            let caldav: [JSONValue] = setup.config.caldav.map { section in
                let source = record.caldav[section.name]
                return .object([
                    ("name", .string(section.name)), ("last_sync", json(source?.lastRun)),
                    ("last_success", json(source?.lastSuccess)), ("failure", json(source?.failure)),
                ])
            }
            return .object([
                ("now", .string(stamp(now).rfc3339)),
                ("accounts", .array(accounts)),
                ("digest", digest),
                ("caldav", .array(caldav)),
                ("webhooks", .object([("pending", .int(Int64(pendingWebhooks)))])),
                ("open", .object([
                    ("queues", .object(queues.map { ($0.name, .int(Int64($0.count))) })),
                    ("queue_entries", .int(Int64(queues.reduce(0) { $0 + $1.count }))),
                    ("reminders", .int(Int64(reminders))),
                    ("reminders_due", .int(Int64(remindersDue))),
                ])),
            ])
        }
    }
}
