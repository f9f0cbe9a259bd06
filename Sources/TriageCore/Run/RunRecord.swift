import Foundation

/// What `triage run` remembers about its runs, for `triage status` and for quiet
/// failures (`[triage] quiet_failures`): per account, when it was last run, each
/// mailbox's last complete pass and message count, and the failure that is still
/// going on, with when it began. Also the digest's delivery, under the name `digest`.
///
/// One file, `STORE/state/.run-status.json` (with the mailboxes' state; the leading dot
/// keeps it apart from the account folders there, whose escaped names never start with
/// one), written by `triage run` under the store lock
/// at the end of a run (atomically, as every store file: `AtomicFile`). Losing it
/// loses only history: a missing or unreadable file reads as empty.
public struct RunRecord: Codable, Equatable, Sendable {
    /// One mailbox's last complete pass.
    public struct MailboxRun: Codable, Equatable, Sendable {
        /// When the pass ended.
        public var lastRun: Timestamp
        /// Messages it classified.
        public var messages: Int

        enum CodingKeys: String, CodingKey {
            case lastRun = "last_run"
            case messages
        }

        /// Creates the record of a pass.
        public init(lastRun: Timestamp, messages: Int) {
            self.lastRun = lastRun
            self.messages = messages
        }
    }

    /// A failure that has not ended yet: what the last failing run said, and since when it fails.
    public struct Failure: Codable, Equatable, Sendable {
        /// The exit status of the failure (75, 77, 78...).
        public var exitStatus: Int32
        /// The last error message.
        public var message: String
        /// The first run that failed, of the failures since the last success.
        public var since: Timestamp
        /// The last run that failed.
        public var last: Timestamp
        /// Failing runs in a row.
        public var runs: Int
        /// Whether it was said on standard error (a quiet failure that has not yet lasted long enough was not).
        public var reported: Bool

        enum CodingKeys: String, CodingKey {
            case exitStatus = "exit_status"
            case message, since, last, runs, reported
        }

        /// Creates a failure record.
        public init(exitStatus: Int32, message: String, since: Timestamp, last: Timestamp, runs: Int = 1, reported: Bool) {
            self.exitStatus = exitStatus
            self.message = message
            self.since = since
            self.last = last
            self.runs = runs
            self.reported = reported
        }
    }

    /// One account (or the digest).
    public struct Source: Codable, Equatable, Sendable {
        /// When a run last tried it.
        public var lastRun: Timestamp?
        /// When a run last finished it without an error.
        public var lastSuccess: Timestamp?
        /// Mailboxes by name.
        public var mailboxes: [String: MailboxRun] = [:]
        /// The failure going on, if any.
        public var failure: Failure?

        enum CodingKeys: String, CodingKey {
            case lastRun = "last_run"
            case lastSuccess = "last_success"
            case mailboxes, failure
        }

        /// An empty record.
        public init() {}

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            lastRun = try c.decodeIfPresent(Timestamp.self, forKey: .lastRun)
            lastSuccess = try c.decodeIfPresent(Timestamp.self, forKey: .lastSuccess)
            mailboxes = try c.decodeIfPresent([String: MailboxRun].self, forKey: .mailboxes) ?? [:]
            failure = try c.decodeIfPresent(Failure.self, forKey: .failure)
        }
    }

    /// What the last run that looked at a due digest found: sent, or nothing to send.
    public struct DigestCheck: Codable, Equatable, Sendable {
        /// What it found.
        public enum Outcome: String, Codable, Sendable {
            /// The day's digest was sent.
            case sent
            /// The day had nothing to report and `send_empty` is off: nothing was sent.
            case empty
        }

        /// The digest's day (`YYYY-MM-DD`).
        public var day: String
        /// What the run found.
        public var outcome: Outcome
        /// When.
        public var at: Timestamp

        /// Creates the record of a look at `day`'s digest.
        public init(day: String, outcome: Outcome, at: Timestamp) {
            self.day = day
            self.outcome = outcome
            self.at = at
        }
    }

    /// Accounts by name; the digest as `digest` in `digest`.
    public var accounts: [String: Source] = [:]
    /// The digest's delivery by `triage run`.
    public var digest: Source?
    /// The last look at a due digest (sent, or empty): without it an empty day that was
    /// rightly not sent looks due until the next day's hour.
    public var digestCheck: DigestCheck?
    /// Each `[caldav NAME]` target's syncs (by `run`, `sync` and `watch`), by name.
    public var caldav: [String: Source] = [:]

    /// An empty record.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case accounts, digest, caldav
        case digestCheck = "digest_check"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        accounts = try c.decodeIfPresent([String: Source].self, forKey: .accounts) ?? [:]
        digest = try c.decodeIfPresent(Source.self, forKey: .digest)
        digestCheck = try? c.decodeIfPresent(DigestCheck.self, forKey: .digestCheck)
        caldav = try c.decodeIfPresent([String: Source].self, forKey: .caldav) ?? [:]
    }

    /// The digest entry (section `Problems`) that reports a failure going on, so it is
    /// in the next digest even when `quiet_failures` kept it off standard error: one per
    /// source (`label`, "account home") and day, however many runs meet it (the store
    /// writes an id once).
    public static func problemEntry(label: String, failure: Failure, now: Timestamp) -> DigestEntry {
        let section = MailboxRunner.problemsSection
        let id = RecordID.forMessage(account: "", messageKey: "run:" + label, rule: "run failure\u{0}" + now.localDay.iso,
                                     actionKey: RecordID.actionKey(.digest(section: section)))
        let since = String(Timestamp(failure.since.date, timeZone: TimeZone(secondsFromGMT: now.utcOffsetSeconds) ?? .current)
            .rfc3339.prefix(16)).replacingOccurrences(of: "T", with: " ")
        return DigestEntry(id: id, section: section, created: now, rule: "run failure",
                           message: MessageSummary(subject: "\(label) failing since \(since)", snippet: failure.message))
    }

    /// `STORE/state/.run-status.json`.
    public static func path(store: String) -> String { store + "/state/.run-status.json" }

    /// The record of the store at `store`; empty when there is none or it cannot be read.
    public static func load(store: String) -> RunRecord {
        guard let data = try? StoreFiles.read(path(store: store)),
              let record = try? JSONDecoder().decode(RunRecord.self, from: data) else { return RunRecord() }
        return record
    }

    /// Writes the record atomically and durably (call holding the store lock).
    public func save(store: String, durable: Bool = true) throws {
        try StoreFiles.writeJSON(self, to: Self.path(store: store), durable: durable)
    }
}
