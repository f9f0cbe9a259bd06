import Foundation

/// Brings snoozed messages back: each due `SnoozeRecord` of an account is found in the
/// snoozed folder by its Message-ID (whatever UID the move gave it), marked unread,
/// moved to INBOX (journaled like a run's moves: `MoveJournal` of the snoozed folder,
/// resumed on a server without MOVE from its proofs) and only then marked woken.
///
/// A crash at any step is safe to rerun: before the move the message is still in the
/// snoozed folder and the record still says snoozed, so the next run does it again;
/// after the move the search finds nothing there and the record is marked woken. A
/// message is therefore neither lost nor left snoozed forever.
public struct SnoozeWake {
    /// The account (the records' and the journal's).
    public var account: String
    /// The snoozed folder, as rules name folders.
    public var folder: String
    /// The store.
    public var store: Store
    /// The current instant (injected).
    public var now: Date
    /// Where events go.
    public var report: (RunEvent) -> Void
    /// Called after each step that changes something; the crash tests kill the process here.
    public var checkpoint: (String) -> Void = { _ in }

    /// The folder woken mail goes back to.
    public static let inbox = "INBOX"
    /// The digest section that lists the mail that came back that day.
    public static let backSection = "Back today"

    /// Creates a wake for `account`.
    public init(account: String, folder: String, store: Store, now: Date, report: @escaping (RunEvent) -> Void) {
        self.account = account
        self.folder = folder
        self.store = store
        self.now = now
        self.report = report
    }

    /// The account's snoozed records, soonest first.
    public static func snoozed(in store: Store, account: String) -> [SnoozeRecord] {
        store.records(SnoozeRecord.self, in: [SnoozeRecord.activeFolder]).records
            .filter { ($0.message.account ?? "") == account }
            .sorted { ($0.wake.secondsSince1970, $0.id) < ($1.wake.secondsSince1970, $1.id) }
    }

    /// The account's records due at `now`.
    public func due() -> [SnoozeRecord] {
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        return Self.snoozed(in: store, account: account).filter { $0.isDue(at: seconds) }
    }

    /// The soonest wake of any snoozed record in the store (for `watch`'s timer), nil when none.
    public static func nextWake(in store: Store) -> Timestamp? {
        store.records(SnoozeRecord.self, in: [SnoozeRecord.activeFolder]).records.map(\.wake)
            .min { $0.secondsSince1970 < $1.secondsSince1970 }
    }

    /// Wakes `records` (the due ones, or those `triage snooze wake` names) on
    /// `connection`; returns the records as woken. Throws `MailError` or store errors;
    /// what was finished stays finished.
    @discardableResult
    public func wake(_ records: [SnoozeRecord], on connection: MailConnection) throws -> [SnoozeRecord] {
        guard !records.isEmpty else { return [] }
        let stamp = Timestamp(now, timeZone: store.timeZone)
        let status: MailboxStatus
        do {
            status = try connection.open(folder, readOnly: false)
        } catch let error as MailError where error.kind == .missingFolder {
            // Nothing can be in a folder that is not there: nothing to bring back, nothing lost.
            return try records.map { try settle($0, at: stamp, note: "the snoozed folder \(folder) does not exist") }
        }
        var journal = MoveJournal.load(store: store.root, account: account, mailbox: folder)
        if journal?.uidValidity != status.uidValidity { journal = nil }
        var woken: [SnoozeRecord] = []
        for record in records {
            do {
                woken.append(try wakeOne(record, status: status, journal: &journal, stamp: stamp, on: connection))
            } catch let error as MailError where error.kind == .refused || error.kind == .missingFolder {
                // The server refused this one (a STORE or a MOVE): it stays snoozed and is tried
                // again at the next run; the others still wake, and the account's mail is read.
                // Its "Back today" entry, written before the move (by this attempt or one a crash
                // cut short), would say it is back while the server kept it in the folder.
                try store.remove(DigestEntry.self, id: backEntryID(record))
                let subject = DigestFormat.oneLine(record.message.subject ?? "(no subject)", limit: 80)
                report(.warning(account: account, mailbox: folder, "could not wake \"\(subject)\": \(error.message); "
                    + "it stays in \(folder) and the next run tries again"))
            }
        }
        try MoveJournal.remove(store: store.root, account: account, mailbox: folder)
        return woken
    }

    /// Wakes one record; returns it as woken.
    private func wakeOne(_ record: SnoozeRecord, status: MailboxStatus, journal: inout MoveJournal?, stamp: Timestamp,
                         on connection: MailConnection) throws -> SnoozeRecord {
        guard let messageID = record.message.messageID else {
            return try settle(record, at: stamp, note: "no Message-ID to find it by in \(folder)")
        }
        let uids = try connection.messageUIDs(withMessageID: messageID)
        guard !uids.isEmpty else {
            // Its "Back today" entry is written right before the move: with it, a wake that
            // died after the move; without, the message was moved away by hand.
            let begun = store.exists(DigestEntry.self, id: backEntryID(record))
            return try settle(record, at: stamp, note: begun ? nil : "not in \(folder): moved away by hand?")
        }
        // Unread first: the copy the move makes carries the flag.
        try connection.store(FlagChange(.remove, flags: ["\\Seen"]), uids: uids)
        checkpoint("wake flags")
        var next = MoveJournal(uidValidity: status.uidValidity, moves: [Self.inbox: uids], attempts: journal?.attempts ?? [])
        if let journal { for (target, begun) in journal.moves where target != Self.inbox { next.moves[target] = begun } }
        try next.save(store: store.root, account: account, mailbox: folder)
        checkpoint("wake journal")
        try store.put(backEntry(record, at: stamp))
        checkpoint("wake digest")
        let writer = MoveJournalWriter(next, store: store.root, account: account, mailbox: folder, checkpoint: checkpoint)
        if let journal, !journal.started(uids, to: Self.inbox).isEmpty {
            try connection.resumeMove(uids, to: Self.inbox, attempts: journal.attempts(to: Self.inbox), recorder: writer)
        } else {
            try connection.move(uids, to: Self.inbox, recorder: writer)
        }
        checkpoint("wake move")
        journal = writer.journal
        return try settle(record, at: stamp, note: nil)
    }

    /// The account's messages a digest reply snoozed that still wait in their mailbox.
    public func pending() -> [SnoozeRecord] {
        Self.snoozed(in: store, account: account).filter { $0.pending == true }
    }

    /// Puts the messages of `records` (snoozed by a digest reply, `pending`) away: each is
    /// found in its mailbox by Message-ID and moved to the snoozed folder (made when
    /// missing), journaled like a run's moves, and only then is its record no longer
    /// pending. A rerun after a crash finds it in the snoozed folder and settles the
    /// record; one whose time came first stays where it is, its record woken.
    public func putAway(_ records: [SnoozeRecord], on connection: MailConnection) throws {
        let stamp = Timestamp(now, timeZone: store.timeZone)
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        for record in records {
            let mailbox = record.message.mailbox ?? Self.inbox
            guard record.wake.secondsSince1970 > seconds, let messageID = record.message.messageID else {
                try settleAway(record, woken: stamp, note: "its time came before it was put away; it stayed in \(mailbox)")
                continue
            }
            let journalKey = "snooze-from:" + mailbox
            let status: MailboxStatus
            do {
                status = try connection.open(mailbox, readOnly: false)
            } catch let error as MailError where error.kind == .missingFolder {
                try settleAway(record, woken: stamp, note: "its folder \(mailbox) is gone")
                continue
            }
            let uids = try connection.messageUIDs(withMessageID: messageID)
            if uids.isEmpty {
                // Put away by a run that died before noting it, or moved elsewhere by hand.
                _ = try connection.open(folder, readOnly: true)
                let there = !(try connection.messageUIDs(withMessageID: messageID)).isEmpty
                try settleAway(record, woken: there ? nil : stamp, note: there ? nil : "it was no longer in \(mailbox)")
                continue
            }
            try connection.createFolder(folder)
            var journal = MoveJournal.load(store: store.root, account: account, mailbox: journalKey)
            if journal?.uidValidity != status.uidValidity { journal = nil }
            let next = MoveJournal(uidValidity: status.uidValidity, moves: [folder: uids], attempts: journal?.attempts ?? [])
            try next.save(store: store.root, account: account, mailbox: journalKey)
            checkpoint("snooze journal")
            let writer = MoveJournalWriter(next, store: store.root, account: account, mailbox: journalKey, checkpoint: checkpoint)
            if let journal, !journal.started(uids, to: folder).isEmpty {
                try connection.resumeMove(uids, to: folder, attempts: journal.attempts(to: folder), recorder: writer)
            } else {
                try connection.move(uids, to: folder, recorder: writer)
            }
            checkpoint("snooze move")
            try settleAway(record, woken: nil, note: nil)
            try MoveJournal.remove(store: store.root, account: account, mailbox: journalKey)
        }
    }

    /// A pending record put away (`woken` nil) or given up (`woken` set, with why).
    private func settleAway(_ record: SnoozeRecord, woken: Timestamp?, note: String?) throws {
        try store.update(SnoozeRecord.self, ids: [record.id]) {
            $0.pending = nil
            $0.woken = woken
            $0.wakeNote = note
        }
        checkpoint("snooze store")
        let subject = DigestFormat.oneLine(record.message.subject ?? "(no subject)", limit: 80)
        if let note {
            report(.warning(account: account, mailbox: folder, "the digest reply's snooze of \"\(subject)\" was not done: \(note)"))
        } else {
            report(.note(account: account, mailbox: folder, "snoozed \"\(subject)\" until \(record.wake) (a digest reply)"))
        }
    }

    /// The id of the digest's "Back today" entry of `record`.
    func backEntryID(_ record: SnoozeRecord) -> String {
        RecordID.forMessage(account: account, messageKey: "snooze-back:" + record.id, rule: record.rule,
                            actionKey: RecordID.actionKey(.digest(section: Self.backSection)))
    }

    /// The digest's "Back today" entry of `record`, written right before its move.
    func backEntry(_ record: SnoozeRecord, at stamp: Timestamp) -> DigestEntry {
        var message = record.message
        message.mailbox = Self.inbox
        message.uid = nil
        message.snippet = "back from snooze (snoozed \(record.created.localDay.iso), rule '\(record.rule)')"
            + (record.message.snippet.isEmpty ? "" : " — " + record.message.snippet)
        return DigestEntry(id: backEntryID(record), section: Self.backSection, created: stamp, rule: record.rule, message: message)
    }

    /// Marks `record` woken at `stamp`, with what the wake found when it brought nothing back.
    private func settle(_ record: SnoozeRecord, at stamp: Timestamp, note: String?) throws -> SnoozeRecord {
        let updated = try store.update(SnoozeRecord.self, ids: [record.id]) {
            $0.woken = stamp
            $0.wakeNote = note
        }
        checkpoint("wake store")
        let subject = DigestFormat.oneLine(record.message.subject ?? "(no subject)", limit: 80)
        if let note {
            report(.warning(account: account, mailbox: folder, "snoozed \"\(subject)\" woke, but nothing was moved: \(note)"))
        } else {
            report(.note(account: account, mailbox: folder, "woke \"\(subject)\": back in INBOX, unread"))
        }
        return updated.first ?? record
    }
}
