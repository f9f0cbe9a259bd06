import Foundation

/// Runs the rules over the new mail of one mailbox, in the order that makes a
/// crash at any point safe to rerun:
///
/// 1. store records (idempotent: ids derive from the message and the rule),
/// 2. server actions (idempotent: adding a flag twice changes nothing; moved
///    messages leave the mailbox and are not fetched again),
/// 3. the mailbox state (UIDVALIDITY, last UID), replaced by rename.
///
/// A rerun after a crash therefore redoes at most one batch, neither losing an
/// action nor doubling one.
public struct MailboxRunner {
    /// The account name (part of record identity).
    public var account: String
    /// The mailbox to process.
    public var mailbox: String
    /// The store (records and run state).
    public var store: Store
    /// Walk options.
    public var options: RunOptions
    /// The current instant (injected; the core never reads the clock).
    public var now: Date
    /// Parses raw bytes into a message (TriageMIME's parser in the real run).
    public var parse: ([UInt8]) -> Message
    /// The rules: the planned actions for a message.
    public var classify: (Message) -> [PlannedAction]
    /// Where events go.
    public var report: (RunEvent) -> Void
    /// The parts fetched for every message (the header always): what the rules
    /// look at (`CompiledRules.neededParts`). Messages whose actions write records
    /// get their text fetched as well, for the snippet. Default: everything.
    public var parts: MessageParts = .all
    /// The header fields fetched instead of the whole header (upper-case,
    /// `CompiledRules.neededHeaderFields`), or nil for the whole header. Ignored
    /// when `parts` has the text. Messages whose actions write records get their
    /// text and the few fields its decoding and the summary add
    /// (`snippetHeaderFields`); those without a Message-ID that have actions are
    /// fetched again whole. What is stored and every record's identity are what a
    /// whole-header run makes.
    public var headerFields: [String]?
    /// Called after each step that changes something (store write, server command,
    /// state save) with its name; the crash tests kill the process here.
    public var checkpoint: (String) -> Void = { _ in }
    /// Parses a message whose text is only a prefix: the message, when the prefix
    /// settles its snippet (as the whole text would give it), else nil. When set (and
    /// the connection can fetch a shorter text), the texts that records need are
    /// fetched `snippetPrefixBytes` at a time first and only the unsettled ones whole.
    public var parsePrefix: (([UInt8]) -> Message?)?
    /// The text prefix tried first for a record's snippet (see `parsePrefix`).
    public var snippetPrefixBytes = 2048
    /// Called with each fetched message as soon as it is parsed, before the digest
    /// commands or the rules read it: the poison-message tests make the process die here.
    public var messageHook: ((Message) -> Void)?
    /// The digest's command messages, recognised in INBOX before the rules; nil: none.
    public var commands: DigestCommandInbox?
    /// Where `archive` takes a message on this account (`ArchiveTarget`); nil when the
    /// account has no archive folder: such messages stay and are reported in Problems.
    /// Asked only for a batch that archives (finding it may cost the server a LIST),
    /// so a run with nothing to archive never looks.
    public var archive: () throws -> ArchiveTarget? = { nil }
    /// The account's snoozed folder (`[account] snoozed`), made when missing; asked
    /// only for a batch that snoozes.
    public var snoozedFolder: () throws -> String = { SnoozeRecord.defaultFolder }
    /// Which messages the server's `UID SEARCH` may leave out (`ServerNarrowing`);
    /// nil fetches every new message.
    public var narrowing: ServerNarrowing?
    /// The account's `authserv_id`: the one `Authentication-Results` writer whose
    /// DKIM verdict makes a message's one-click unsubscribe trusted (`UnsubscribeOffer`).
    public var authservID: String?
    /// Follow-ups (`follow up in 3 days`): every message read is looked at for answers,
    /// follow-ups on answered messages are not made, and answered ones are closed after
    /// each batch's records are written. Nil when no rule makes follow-ups.
    public var followUps: FollowUpTracker?
    /// Whether the server's SEARCH is trusted for `narrowing` (`server_search`).
    public var serverSearch: ServerSearchMode = .auto
    /// Fewer new messages than this are fetched without asking the server's SEARCH
    /// first: its round trips (and the probe's) would cost more than they save.
    public var narrowingMinimum = 100

    /// Creates a runner.
    public init(account: String, mailbox: String, store: Store, options: RunOptions, now: Date,
                parse: @escaping ([UInt8]) -> Message, classify: @escaping (Message) -> [PlannedAction],
                report: @escaping (RunEvent) -> Void) {
        self.account = account
        self.mailbox = mailbox
        self.store = store
        self.options = options
        self.now = now
        self.parse = parse
        self.classify = classify
        self.report = report
    }

    /// What one mailbox run did.
    public struct Outcome: Sendable {
        /// Messages classified.
        public var processed = 0
        /// Store records created (0 in a dry run).
        public var recordsCreated = 0
        /// Server actions that failed while the run went on (e.g. a missing folder).
        public var failedActions: [String] = []
    }

    /// Processes the mailbox on `connection`. Throws `MailError` or store errors;
    /// whatever was finished before stays finished.
    public func run(on connection: MailConnection) throws -> Outcome {
        var outcome = Outcome()
        // Phase 1: select, and where to start (nil: a first run, which only remembers where it is).
        let status = try connection.open(mailbox, readOnly: options.dryRun)
        let saved = try MailboxState.load(store: store.root, account: account, mailbox: mailbox)
        guard var pass = try startPoint(status: status, saved: saved) else {
            report(.mailboxDone(account: account, mailbox: mailbox, processed: 0, records: 0))
            return outcome
        }

        // UIDNEXT already says whether anything arrived: the cron case sends no SEARCH.
        let nothingNew = status.uidNext > 0 && status.uidNext - 1 <= pass.lastUID
        let uids = nothingNew ? [] : try connection.uids(above: pass.lastUID)
        // Moves an interrupted run may have begun (only for this UIDVALIDITY).
        pass.journal = options.dryRun ? nil : MoveJournal.load(store: store.root, account: account, mailbox: mailbox)
        if pass.journal?.uidValidity != status.uidValidity { pass.journal = nil }
        // Only the messages the server's SEARCH says can match a rule are fetched
        // (nil: all); the batches, and the state saved after each, still cover every UID.
        let wanted = try candidates(among: uids, uidValidity: status.uidValidity,
                                    filtered: (pass.sinceStart != nil && !options.all) || pass.arrivedAfter != nil,
                                    on: connection)
        // Messages a process died with in hand: retried alone, or skipped (`MessagesInHand`).
        var inHand = try takeOverInHand(status: status, saved: saved, journal: pass.journal)
        do {
            let batches = Self.batches(uids, size: max(1, options.batchSize), alone: Set(inHand.alone))
            let skipped = Set(inHand.record.skipped)
            for (number, batchUIDs) in batches.enumerated() {
                let fetchUIDs = (wanted.map { wanted in batchUIDs.filter(wanted.contains) } ?? batchUIDs)
                    .filter { !skipped.contains($0) }
                // The others matched no rule (or are skipped): processed without a fetch.
                outcome.processed += batchUIDs.count - fetchUIDs.count
                // Before the fetch: which messages are in hand, should one of them kill the process.
                let alone = batchUIDs.count == 1 && inHand.alone.contains(batchUIDs[0])
                if !options.dryRun, !fetchUIDs.isEmpty {
                    inHand.record.uids = fetchUIDs
                    inHand.record.deaths = alone ? inHand.deaths : 0
                    inHand.record.subject = nil
                    inHand.record.messageID = nil
                    try inHand.record.save(store: store.root, account: account, mailbox: mailbox)
                    checkpoint("in hand")
                }
                // Phase 2: fetch and classify.
                var found = Commands()
                let classified = try fetchAndClassify(fetchUIDs, pass: pass, on: connection, outcome: &outcome, commands: &found,
                                                      describe: alone ? { message in
                                                          // Retried alone after a death: what to name it by if it is skipped.
                                                          inHand.record.subject = message.subject.map { DigestFormat.oneLine($0, limit: 200) }
                                                          inHand.record.messageID = message.messageID.map { DigestFormat.oneLine($0, limit: 200) }
                                                          try inHand.record.save(store: store.root, account: account, mailbox: mailbox)
                                                      } : nil)
                // Phase 3: plan the records to write and the commands to send.
                let archives = classified.contains { $0.actions.contains { $0.action == .archive } }
                let snoozes = classified.contains { $0.actions.contains { if case .snooze = $0.action { true } else { false } } }
                var plan = makePlan(classified, archive: archives ? try archive() : nil,
                                    snoozed: snoozes ? try snoozedFolder() : SnoozeRecord.defaultFolder)
                plan.commands = found
                guard !options.dryRun else { continue }
                // Phase 4: apply: store records, then server actions.
                try apply(plan, batch: batchUIDs, pass: &pass, on: connection, outcome: &outcome)
                // Phase 5: save the state, only now that the batch is done.
                try saveState(after: batchUIDs, finished: number == batches.count - 1, pass: pass)
            }
        } catch {
            // An error is no crash: nothing in hand is to blame (a lost connection, a full disk).
            if !options.dryRun { try? inHand.record.clear(store: store.root, account: account, mailbox: mailbox) }
            throw error
        }
        if !options.dryRun, !inHand.record.uids.isEmpty {
            try inHand.record.clear(store: store.root, account: account, mailbox: mailbox)
            checkpoint("in hand cleared")
        }
        try finish(uids: uids, pass: pass, on: connection, outcome: &outcome)
        report(.mailboxDone(account: account, mailbox: mailbox, processed: outcome.processed, records: outcome.recordsCreated))
        return outcome
    }

    // MARK: - Phases

    /// What one run of a mailbox knows and carries from batch to batch.
    private struct Pass {
        /// What opening the mailbox said.
        var status: MailboxStatus
        /// The state the last run left, if any.
        var saved: MailboxState?
        /// When this run started, for `MailboxState.lastRun`.
        var stamp: Timestamp
        /// Mail up to this UID is done.
        var lastUID: UInt32
        /// Set when only mail that arrived after a time is new (a renumbered mailbox).
        var arrivedAfter: Timestamp?
        /// Moves an interrupted run may have begun, for this UIDVALIDITY.
        var journal: MoveJournal?
        /// With `--since`: the start of that day, seconds since 1970.
        var sinceStart: Int64?
        /// Messages whose labels the server would not take.
        var labelsSkipped = Set<UInt32>()
    }

    /// A message of a batch with the actions the rules chose (never empty).
    private typealias Classified = (uid: UInt32, message: Message, actions: [PlannedAction])

    /// The refused digest commands of a batch: the messages, with why.
    private struct Commands {
        var refused: [(message: Message, reason: String)] = []
    }

    /// What one batch writes to the store and asks of the server.
    private struct BatchPlan {
        var records = StoreBatch()
        var server = ServerPlan()
        /// The messages by UID, for problems reported in the digest.
        var messages: [UInt32: Message] = [:]
        var created: Timestamp
        /// The digest commands found in the batch.
        var commands = Commands()
    }

    /// What a run carries of `MessagesInHand`: the record it writes (its `uids` not
    /// empty while a file names them), the UIDs it processes alone and the deaths each carries.
    private struct InHand {
        var record: MessagesInHand
        var alone: [UInt32] = []
        var deaths = 0
    }

    /// Phase 1, continued: a record of messages in hand left by a process that died
    /// (the lock is this run's, so its writer is gone): its batch is retried one
    /// message at a time, and a message that was alone in hand at a second death is
    /// skipped now, reported on standard error and in the digest's Problems.
    private func takeOverInHand(status: MailboxStatus, saved: MailboxState?, journal: MoveJournal?) throws -> InHand {
        guard var record = MessagesInHand.load(store: store.root, account: account, mailbox: mailbox),
              record.uidValidity == status.uidValidity else { return InHand(record: MessagesInHand(uidValidity: status.uidValidity)) }
        let done = saved?.uidValidity == status.uidValidity ? saved?.lastUID ?? 0 : 0
        let verdict = record.verdict(done: done)
        if options.dryRun {
            // Changes nothing, but does not die on what a real run would skip either.
            return InHand(record: MessagesInHand(uidValidity: status.uidValidity, skipped: record.skipped + [verdict.skip].compactMap { $0 }))
        }
        // Died while moving (the journal names a message in hand): every message of the
        // batch had been read and classified, so none is to blame, and the moves resume as
        // one batch, as they began: the journal's proofs (a UIDNEXT mark) hold for the whole
        // batch only; a copy one message's retry made could pass for another's (identical twins).
        let begun = Set((journal?.moves.values.flatMap { $0 } ?? []) + (journal?.attempts.flatMap(\.uids) ?? []))
        if (verdict.alone + [verdict.skip].compactMap { $0 }).contains(where: begun.contains) { return InHand(record: record) }
        var inHand = InHand(record: record, alone: verdict.alone, deaths: verdict.deaths)
        guard let uid = verdict.skip else { return inHand }
        let known = [record.subject.map { "Subject \"\($0)\"" }, record.messageID.map { "Message-ID <\($0)>" }].compactMap { $0 }
        let described = known.isEmpty ? "not parsed yet when it died" : known.joined(separator: ", ")
        let problem = "skipped: triage died twice while processing this message (UID \(uid), \(described)); "
            + "it stays on the server, untouched: see to it by hand (docs/run.md)"
        report(.warning(account: account, mailbox: mailbox, problem))
        try reportSkipped(uid: uid, uidValidity: status.uidValidity, subject: record.subject, messageID: record.messageID,
                          problem: problem)
        record.skipped.append(uid)
        record.uids = []
        record.deaths = 0
        try record.clear(store: store.root, account: account, mailbox: mailbox)
        checkpoint("in hand skipped")
        inHand.record = record
        return inHand
    }

    /// `uids` in batches of `size`, each UID of `alone` a batch of its own.
    static func batches(_ uids: [UInt32], size: Int, alone: Set<UInt32>) -> [[UInt32]] {
        var batches: [[UInt32]] = []
        var current: [UInt32] = []
        for uid in uids {
            if alone.contains(uid) {
                if !current.isEmpty { batches.append(current) }
                batches.append([uid])
                current = []
            } else {
                current.append(uid)
                if current.count == size {
                    batches.append(current)
                    current = []
                }
            }
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }

    /// Phase 1: where the walk starts, from the saved state and what the server
    /// said. Returns nil on a first run, after remembering where the mailbox is.
    private func startPoint(status: MailboxStatus, saved: MailboxState?) throws -> Pass? {
        let stamp = Timestamp(now, timeZone: store.timeZone)
        // Set when only mail that arrived after a time is new (a renumbered mailbox).
        var arrivedAfter: Timestamp?
        if !options.all, let saved, saved.uidValidity != status.uidValidity, saved.uidValidity != 0 {
            report(.warning(account: account, mailbox: mailbox, renumbered(saved, now: status.uidValidity)))
        }
        var lastUID: UInt32
        if options.all {
            lastUID = 0
        } else if let saved, saved.uidValidity == status.uidValidity {
            lastUID = saved.lastUID
            arrivedAfter = saved.arrivedAfter
        } else if saved?.uidValidity == 0 {
            // A folder a deployed Sieve script files into, not there at the deployment:
            // everything in it arrived since (`SieveFolders.starts`).
            lastUID = 0
        } else if let lastRun = saved?.lastRun {
            // Renumbered: the UIDs say nothing any more, the arrival times still do.
            lastUID = 0
            arrivedAfter = Timestamp(secondsSince1970: lastRun.secondsSince1970 - Self.clockSlack, utcOffsetSeconds: lastRun.utcOffsetSeconds)
        } else if options.since != nil {
            lastUID = 0
        } else {
            // First run: only mail that arrives from now on.
            let start = MailboxState(uidValidity: status.uidValidity, lastUID: status.uidNext > 0 ? status.uidNext - 1 : 0)
            report(.note(account: account, mailbox: mailbox,
                         "first run: remembering UID \(start.lastUID); only new mail will be processed (use --all or --since for older mail)"))
            if !options.dryRun { try start.save(store: store.root, account: account, mailbox: mailbox) }
            // Said without --verbose, once (the state is saved now): else a first cron run
            // prints nothing, does nothing, and the user never learns of --all.
            if saved == nil, status.exists > 0 {
                report(.warning(account: account, mailbox: mailbox, Self.leftAlone(Int(status.exists), dryRun: options.dryRun)))
            }
            return nil
        }
        let sinceStart = options.since.map { Int64($0.daysSince1970) * 86_400 - Int64(store.timeZone.secondsFromGMT(for: now)) }
        return Pass(status: status, saved: saved, stamp: stamp, lastUID: lastUID, arrivedAfter: arrivedAfter,
                    sinceStart: sinceStart)
    }

    /// What a first run says of the `count` messages it left alone.
    static func leftAlone(_ count: Int, dryRun: Bool) -> String {
        let one = count == 1
        let digits = Array(String(count))
        // 1,234: grouped by thousands, whatever the locale (the core reads none).
        let grouped = digits.enumerated().map { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? ",\(digit)" : String(digit)
        }.joined()
        return "first run: \(grouped) \(one ? "message" : "messages") already there \(dryRun ? "would be" : one ? "was" : "were") "
            + "left alone; 'triage run --all' processes \(one ? "it" : "them") once"
    }

    /// Phase 2: fetches a batch and runs the rules on each message; returns the
    /// messages that have actions, with their text when a record needs the snippet.
    private func fetchAndClassify(_ batchUIDs: [UInt32], pass: Pass, on connection: MailConnection,
                                  outcome: inout Outcome, commands found: inout Commands,
                                  describe: ((Message) throws -> Void)? = nil) throws -> [Classified] {
        var classified: [Classified] = []
        var needText: [UInt32] = []
        // Command messages of the digest, with their whole bytes when fetched.
        var candidates: [(uid: UInt32, message: Message, bytes: [UInt8]?)] = []
        let inbox = mailbox.uppercased() == "INBOX" ? commands : nil
        // Fetched with the named fields only: messages without a Message-ID need the
        // whole header for their identity (its hash), should an action record them.
        let narrowed = firstFetchFields
        var needHeader: [UInt32] = []
        // Fetched in chunks: only the parsed messages of the batch stay, not every
        // chunk's raw answer. The next chunk's FETCH runs on a second thread while
        // this one is parsed and classified (nothing here touches the connection).
        let chunks = ChunkFetches(batchUIDs, size: options.fetchSize) {
            try connection.fetch($0, parts: parts, headerFields: narrowed)
        }
        defer { chunks.finish() }
        while let fetched = try chunks.next() {
            checkpoint("fetch")
            chunks.prefetch()
            for item in fetched {
                if let sinceStart = pass.sinceStart, let arrived = item.internalDate, arrived < sinceStart, !options.all { continue }
                // Not known to have arrived after the cutoff: left alone, like old mail on a first run.
                if let arrivedAfter = pass.arrivedAfter, (item.internalDate ?? .min) < arrivedAfter.secondsSince1970 { continue }
                let message = makeMessage(item)
                try describe?(message)
                messageHook?(message)
                followUps?.observe(message)
                if let inbox, inbox.reader.isCandidate(message) {
                    // Before the rules: a command message is obeyed or left alone, never sorted.
                    // A link's message says it all in its subject; only a reply needs its text.
                    let complete = parts.contains(.text) || DigestCommandReader.subjectWords(message.subject) != nil
                    candidates.append((item.uid, message, complete ? item.bytes : nil))
                    outcome.processed += 1
                    continue
                }
                let actions = snoozeable(classify(message), uid: item.uid, message: message)
                outcome.processed += 1
                report(.decision(account: account, mailbox: mailbox, uid: item.uid, subject: message.subject, actions: actions))
                if !parts.contains(.text), !options.dryRun,
                   actions.contains(where: { MessageParts.needed(by: $0.action).contains(.text) }) {
                    needText.append(item.uid)
                } else if narrowed != nil, !options.dryRun, !actions.isEmpty, message.messageID == nil {
                    needHeader.append(item.uid)
                }
                // A message without actions needs nothing more: keep only the others.
                if !actions.isEmpty { classified.append((item.uid, message, actions)) }
            }
        }
        chunks.finish()  // (every chunk was taken: nothing is in flight; the connection is this thread's)
        if let inbox, !candidates.isEmpty {
            classified += try readCommands(candidates, inbox: inbox, on: connection, into: &found)
        }
        var position: [UInt32: Int] = [:]
        for i in classified.indices { position[classified[i].uid] = i }
        // The records keep a snippet: fetch the text of just these messages. The
        // rules did not look at it, so the decisions stand. A short prefix of the
        // text settles most snippets; the others are fetched as before.
        needText = try fetchSettledSnippets(needText, into: &classified, at: position, on: connection)
        // With the text (up to 32 KiB each) a message weighs some 20 times its
        // header: these fetches take a quarter of a header chunk at a time.
        for (uids, refetch, size) in [(needText, MessageParts.all, max(1, options.fetchSize / 4)),
                                      (needHeader, parts, max(1, options.fetchSize))] {
            for chunk in ChunkFetches.split(uids, size: size) {
                for item in try connection.fetch(chunk, parts: refetch) {
                    if let i = position[item.uid] { classified[i].message = makeMessage(item) }
                }
            }
        }
        return classified
    }

    /// The header fields every message's first FETCH asks for: the rules' (plus those
    /// that tell a digest command, in INBOX with a digest), or nil for the whole header.
    var firstFetchFields: [String]? {
        guard !parts.contains(.text), let headerFields else { return nil }
        guard mailbox.uppercased() == "INBOX", commands != nil else { return headerFields }
        return Array(Set(headerFields).union(DigestCommandReader.headerFields)).sorted()
    }

    /// Fetches `uids` with a `snippetPrefixBytes` text prefix and puts each message
    /// whose snippet that settles (the whole message fitted, or `parsePrefix` says so)
    /// into `classified`; returns the others, which need the usual text.
    private func fetchSettledSnippets(_ uids: [UInt32], into classified: inout [Classified], at position: [UInt32: Int],
                                      on connection: MailConnection) throws -> [UInt32] {
        guard parsePrefix != nil, !uids.isEmpty else { return uids }
        var uids = uids
        var unsettled: [UInt32] = []
        if headerFields != nil, !parts.contains(.text) {
            // Classified from the named fields, Message-ID among them: the record needs
            // only the text and the few fields its decoding and summary read beyond those.
            // Without a Message-ID the identity is the whole header's hash: fetched whole below.
            let named = uids.filter { position[$0].map { classified[$0].message.messageID != nil } ?? false }
            if !named.isEmpty, let left = try fetchSnippetTexts(named, into: &classified, at: position, on: connection) {
                unsettled = left
                let done = Set(named)
                uids = uids.filter { !done.contains($0) }
            }
        }
        guard let parsePrefix, !uids.isEmpty else { return unsettled + uids }
        let named = unsettled
        for chunk in ChunkFetches.split(uids, size: options.fetchSize) {
            guard let fetched = try connection.fetch(chunk, textPrefix: snippetPrefixBytes) else { return named + uids }
            var got = Set<UInt32>()
            for item in fetched {
                guard let i = position[item.uid] else { continue }
                got.insert(item.uid)
                // A whole message is what the longer fetch would bring: parsed as usual.
                if item.isComplete {
                    classified[i].message = makeMessage(item)
                } else if let message = parsePrefix(item.bytes) {
                    classified[i].message = complete(message, item)
                } else {
                    unsettled.append(item.uid)
                }
            }
            // Gone meanwhile: left to the usual fetch, which says what it finds.
            unsettled += chunk.filter { !got.contains($0) }
        }
        return unsettled
    }

    /// The header fields a record's snippet and summary read that a narrowed fetch may
    /// have left out: the MIME fields the text's decoding reads, and List-Id (the
    /// summary's `list`). From, Subject, Date and Message-ID are always in the first fetch.
    public static let snippetHeaderFields = ["AUTHENTICATION-RESULTS", "CONTENT-DISPOSITION", "CONTENT-TRANSFER-ENCODING",
                                             "CONTENT-TYPE", "DKIM-SIGNATURE", "LIST-ID", "LIST-UNSUBSCRIBE",
                                             "LIST-UNSUBSCRIBE-POST", "MIME-VERSION"]

    /// For messages classified from named fields: fetches `snippetHeaderFields` and a
    /// `snippetPrefixBytes` text prefix, and sets the snippet and list of each message
    /// it settles, keeping the rest of what classified it (the same summary a
    /// whole-header fetch gives: those fields parse the same either way). Returns the
    /// unsettled ones, or nil when the connection cannot fetch named fields with a text.
    private func fetchSnippetTexts(_ uids: [UInt32], into classified: inout [Classified], at position: [UInt32: Int],
                                   on connection: MailConnection) throws -> [UInt32]? {
        guard let parsePrefix else { return uids }
        var unsettled: [UInt32] = []
        let chunks = ChunkFetches.split(uids, size: options.fetchSize)
        for (number, chunk) in chunks.enumerated() {
            guard let fetched = try connection.fetch(chunk, textPrefix: snippetPrefixBytes, headerFields: Self.snippetHeaderFields)
            else { return number == 0 ? nil : unsettled + chunks[number...].joined() }
            var got = Set<UInt32>()
            for item in fetched {
                guard let i = position[item.uid] else { continue }
                got.insert(item.uid)
                let bytes = Self.headerBlock(item.header) + item.bodyPrefix
                // A text shorter than the prefix is the whole text: parsed as usual.
                let whole = item.bodyPrefix.count < snippetPrefixBytes
                guard let parsed = whole ? parse(bytes) : parsePrefix(bytes) else {
                    unsettled.append(item.uid)
                    continue
                }
                classified[i].message.snippet = parsed.snippet
                classified[i].message.listID = parsed.listID
                classified[i].message.unsubscribeHeaders = parsed.unsubscribeHeaders
            }
            // Gone meanwhile: left to the usual fetch, which says what it finds.
            unsettled += chunk.filter { !got.contains($0) }
        }
        return unsettled
    }

    /// `header` ending in the blank line that ends a header block (a server may send
    /// an empty `HEADER.FIELDS` answer without it), so the text is never read as fields.
    static func headerBlock(_ header: [UInt8]) -> [UInt8] {
        if header.isEmpty { return [13, 10] }
        if header.last != 10 { return header + [13, 10, 13, 10] }
        let beforeEnd = header.dropLast().last == 13 ? header.count - 2 : header.count - 1
        if beforeEnd == 0 || header[beforeEnd - 1] == 10 { return header }
        return header + [13, 10]
    }

    /// The verdict on each command message: obeyed ones change the store now (not in
    /// a dry run), then are marked read and moved to the trash like a rule's actions
    /// (so a crash resumes the move); refused ones are left alone and reported in Problems.
    private func readCommands(_ candidates: [(uid: UInt32, message: Message, bytes: [UInt8]?)], inbox: DigestCommandInbox,
                              on connection: MailConnection, into found: inout Commands) throws -> [Classified] {
        var bytes: [UInt32: [UInt8]] = [:]
        for c in candidates { if let b = c.bytes { bytes[c.uid] = b } }
        let missing = candidates.filter { $0.bytes == nil }.map(\.uid)
        if !missing.isEmpty {
            // A reply's commands are in its text, which the rules may not have needed.
            for item in try connection.fetch(missing, parts: .all) { bytes[item.uid] = item.bytes }
        }
        let reminderIDs = store.allIDs(Reminder.self), queueIDs = store.allIDs(QueueEntry.self)
        // Digest entries: an Unsubscribe or Snooze link, or `snooze ID until DAY`, names one.
        let digestIDs = store.allIDs(DigestEntry.self)
        let digests = store.digestShown.all()
        var classified: [Classified] = []
        for (uid, message, _) in candidates {
            // Whole when the bytes are as long as the server says the message is (a long
            // reply is fetched as a prefix, whose quote must be found within it).
            let reply = bytes[uid].map { raw -> ReplyText in
                let whole = message.size > 0 && raw.count >= message.size
                return ReplyReader.read(inbox.replyBody(raw, whole), complete: whole)
            }
            var verdict = inbox.reader.read(message, reply: reply ?? .userLines([]), reminderIDs: reminderIDs, queueIDs: queueIDs,
                                            digestIDs: digestIDs, digests: digests, now: now, entryIDs: digestIDs)
            if case .apply(let commands) = verdict, !options.dryRun {
                // The store first (idempotent), then the message is marked and moved with the
                // batch's server actions. A record that cannot be changed (unreadable) refuses
                // just this message; a store that cannot be written stops the run as any write does.
                do {
                    try DigestCommand.apply(commands, to: store, now: now, today: Timestamp(now, timeZone: store.timeZone).localDay)
                    checkpoint("store")
                } catch let error as StoreError {
                    switch error {
                    case .unreadable, .ids: verdict = .refuse("the store could not apply it: \(error.message)")
                    default: throw error
                    }
                }
            }
            switch verdict {
            case .apply:
                var actions = [PlannedAction(action: .markRead, rule: DigestCommandInbox.ruleName)]
                if let trash = try inbox.trash() {
                    actions.append(PlannedAction(action: .move(trash), rule: DigestCommandInbox.ruleName))
                } else {
                    report(.warning(account: account, mailbox: mailbox, "UID \(uid): digest command done; the message stays here, "
                        + "read: the server marks no folder \\Trash; set [digest] trash = FOLDER"))
                }
                report(.decision(account: account, mailbox: mailbox, uid: uid, subject: message.subject, actions: actions))
                classified.append((uid, message, actions))
            case .refuse(let reason):
                found.refused.append((message, reason))
                report(.warning(account: account, mailbox: mailbox, "UID \(uid): a digest command was ignored: \(reason)"))
                // Only an obeyed command is kept from the rules: this one is mail like any other
                // (a phishing mail titled like a reply goes where the rules send it).
                // Its whole bytes were fetched for the command: the rules and the records get all of it.
                var message = message
                if let raw = bytes[uid], parts.contains(.text) || missing.contains(uid) {
                    var full = parse(raw)
                    full.size = message.size
                    full.attachments = message.attachments
                    full.server = message.server
                    message = full
                }
                let actions = snoozeable(classify(message), uid: uid, message: message)
                report(.decision(account: account, mailbox: mailbox, uid: uid, subject: message.subject, actions: actions))
                if !actions.isEmpty { classified.append((uid, message, actions)) }
            }
        }
        return classified
    }

    /// Phase 3: the records and server commands the batch's actions make.
    private func makePlan(_ classified: [Classified], archive: ArchiveTarget?, snoozed: String) -> BatchPlan {
        var plan = BatchPlan(created: Timestamp(now, timeZone: store.timeZone))
        for (uid, original, actions) in classified {
            // What the digest may offer to unsubscribe with, decided now: the account's trust is known here.
            var message = original
            message.unsubscribe = message.unsubscribeHeaders.flatMap {
                UnsubscribeOffer($0, fromAddress: message.sender?.address, authservID: authservID)
            }
            for planned in actions {
                // An answer already read (in any mailbox, before or in this batch): no follow-up to make.
                if case .followUp = planned.action, let followUps, followUps.isAnswered(message.messageID ?? "") { continue }
                plan.records.add(planned.action, rule: planned.rule, message: message, created: plan.created,
                                 timeZone: store.timeZone)
            }
            plan.server.add(actions, uid: uid, facts: message.server, mailbox: mailbox, archive: archive, snoozed: snoozed)
            plan.messages[uid] = message
        }
        return plan
    }

    /// `actions` without the snoozes that must not happen: a message that came back from
    /// a snooze by this rule (its record is woken) stays, and so does one without a
    /// Message-ID, which the wake could not find again in the snoozed folder (said once).
    private func snoozeable(_ actions: [PlannedAction], uid: UInt32, message: Message) -> [PlannedAction] {
        actions.filter { planned in
            guard case .snooze = planned.action else { return true }
            guard message.messageID != nil else {
                report(.warning(account: account, mailbox: mailbox, "UID \(uid): not snoozed (rule '\(planned.rule)'): "
                    + "the message has no Message-ID, by which the wake would find it again; it stays here"))
                return false
            }
            let id = RecordID.forMessage(message, rule: planned.rule, action: planned.action)
            if let record = try? store.record(SnoozeRecord.self, id: id), record.woken != nil { return false }
            return true
        }
    }

    /// Phase 4: writes the records, then sends the changes, flags first and moves
    /// last (a move ends the UID's life here). An action the server refuses or a
    /// missing folder is reported (and put in the digest) and the run goes on.
    private func apply(_ plan: BatchPlan, batch batchUIDs: [UInt32], pass: inout Pass, on connection: MailConnection,
                       outcome: inout Outcome) throws {
        let created = plan.created
        // Digest commands were applied when read; those refused are reported.
        for (message, reason) in plan.commands.refused {
            _ = try store.write(DigestCommandInbox.problem(message, reason: reason, created: created))
        }
        // Store records.
        if !plan.records.isEmpty {
            outcome.recordsCreated += try store.write(plan.records).created.count
            checkpoint("store")
        }
        // Follow-ups answered (by this batch, or made by it with an answer known): closed,
        // then the index saved; before the state, so a crash re-reads the batch.
        if let followUps, followUps.changed || plan.records.records.contains(where: { ($0 as? Reminder)?.followUp != nil }) {
            for closed in try followUps.settle(store, now: now) {
                let by = closed.followUp?.answer?.from.map { " by " + DigestFormat.oneLine($0.address, limit: 100) } ?? ""
                report(.note(account: account, mailbox: mailbox, "follow-up answered\(by), closed: \(DigestFormat.oneLine(closed.title))"))
            }
            try followUps.save()
            checkpoint("follow-ups")
        }
        // Server actions: flags first, moves last (a move ends the UID's life here).
        for (change, changeUIDs) in plan.server.changes {
            // Only adding asks for a new keyword: removing one the message has is always allowed.
            if let allowed = pass.status.allowedKeywords, change.operation == .add, !change.labels.isEmpty,
               !change.labels.allSatisfy({ label in allowed.contains { LabelCodec.same(LabelCodec.label(for: $0), label) } }) {
                // The server takes no new keywords (PERMANENTFLAGS without \*): asking
                // would only get a BAD. Every other action still happens.
                pass.labelsSkipped.formUnion(changeUIDs)
                continue
            }
            for refusal in try store(change, uids: changeUIDs, on: connection) {
                let what = change.summary
                outcome.failedActions.append(refusal.error.message)
                report(.actionFailed(account: account, mailbox: mailbox, uids: refusal.uids,
                                     action: what, reason: refusal.error.message))
                // Keyed without the server's text, which may vary (Dovecot adds timings):
                // a rerun with --all meets the same refusal and adds no second entry.
                try reportInDigest(refusal.uids.compactMap { plan.messages[$0] },
                                   problem: "could not \(what): the server refused it (\(refusal.error.detail))",
                                   key: "could not \(what): refused", created: created)
            }
        }
        if !plan.server.unarchived.isEmpty {
            let reason = "no archive folder: set archive = FOLDER in [account \(account)], or give a folder the "
                + "SPECIAL-USE \\Archive attribute on the server"
            outcome.failedActions.append(reason)
            report(.actionFailed(account: account, mailbox: mailbox, uids: plan.server.unarchived, action: "archive", reason: reason))
            try reportInDigest(plan.server.unarchived.compactMap { plan.messages[$0] },
                               problem: "could not archive: the account has no archive folder (set archive = FOLDER in its "
                                   + "[account] section)", key: "could not archive: no archive folder", created: created)
        }
        let journal = pass.journal
        var writer: MoveJournalWriter?
        if !plan.server.moves.isEmpty, let last = batchUIDs.last {
            var next = MoveJournal(uidValidity: pass.status.uidValidity)
            for (folder, moveUIDs) in plan.server.moves { next.moves[folder, default: []] += moveUIDs }
            // Keep what the interrupted run had begun beyond this batch.
            for (folder, started) in journal?.moves ?? [:] {
                let later = started.filter { $0 > last }
                if !later.isEmpty { next.moves[folder, default: []] += later }
            }
            // And its proofs, until the mailbox is done: a second crash must not lose them.
            next.attempts = journal?.attempts ?? []
            try next.save(store: store.root, account: account, mailbox: mailbox)
            checkpoint("journal")
            writer = MoveJournalWriter(next, store: store.root, account: account, mailbox: mailbox, checkpoint: checkpoint)
        }
        for (folder, moveUIDs) in plan.server.moves {
            do {
                if let journal, !journal.started(moveUIDs, to: folder).isEmpty {
                    try connection.resumeMove(moveUIDs, to: folder, attempts: journal.attempts(to: folder), recorder: writer)
                } else {
                    try connection.move(moveUIDs, to: folder, recorder: writer)
                }
                checkpoint("move")
            } catch let error as MailError where error.kind == .missingFolder {
                outcome.failedActions.append(error.message)
                report(.actionFailed(account: account, mailbox: mailbox, uids: moveUIDs,
                                     action: "move \"\(folder)\"", reason: error.message))
                try reportInDigest(moveUIDs.compactMap { plan.messages[$0] }, problem: "could not move to \(folder): the folder does not exist", created: created)
            }
        }
    }

    /// Phase 5: the mailbox state after a batch is done.
    private func saveState(after batchUIDs: [UInt32], finished: Bool, pass: Pass) throws {
        guard let last = batchUIDs.last else { return }
        // The whole mailbox seen (`finished`): mail that arrived before this run started is done.
        try MailboxState(uidValidity: pass.status.uidValidity, lastUID: last, lastRun: finished ? pass.stamp : pass.saved?.lastRun,
                         arrivedAfter: finished ? nil : pass.arrivedAfter)
            .save(store: store.root, account: account, mailbox: mailbox)
        checkpoint("state")
    }

    /// After the last batch: reports labels the server would not take, drops the
    /// finished move journal, and records the state when there was nothing new.
    private func finish(uids: [UInt32], pass: Pass, on connection: MailConnection, outcome: inout Outcome) throws {
        let status = pass.status, saved = pass.saved, stamp = pass.stamp
        if !pass.labelsSkipped.isEmpty {
            let skipped = pass.labelsSkipped.count
            let reason = "\(connection.serverName) allows no new keywords in \(mailbox) (its PERMANENTFLAGS lack \\*, "
                + "as on Exchange and GNU Mailutils), so labels were not set on \(skipped) "
                + "message\(skipped == 1 ? "" : "s"); their other actions were done. "
                + "Remove the label actions for this account, or use folders (move) instead"
            outcome.failedActions.append(reason)
            report(.warning(account: account, mailbox: mailbox, reason))
            try reportMailboxProblem(reason)
        }
        if !options.dryRun, FileManager.default.fileExists(atPath: MoveJournal.path(store: store.root, account: account, mailbox: mailbox)) {
            // Every batch is done: nothing is left to resume.
            try? MoveJournal.remove(store: store.root, account: account, mailbox: mailbox)
        }
        if !options.dryRun, uids.isEmpty {
            let sameNumbers = saved?.uidValidity == status.uidValidity
            if !sameNumbers || options.all || saved?.arrivedAfter != nil {
                // Record the (new) UIDVALIDITY even when there was nothing to do; a UID of
                // the old numbering means nothing in the new one.
                try MailboxState(uidValidity: status.uidValidity, lastUID: max(pass.lastUID, sameNumbers ? saved?.lastUID ?? 0 : 0),
                                 lastRun: stamp)
                    .save(store: store.root, account: account, mailbox: mailbox)
            } else if let saved, (saved.lastRun?.secondsSince1970 ?? .min) < stamp.secondsSince1970 - 86_400 {
                // Nothing new: keep the time of the last complete run fresh, at most one write a day.
                try MailboxState(uidValidity: saved.uidValidity, lastUID: saved.lastUID, lastRun: stamp)
                    .save(store: store.root, account: account, mailbox: mailbox)
            }
        }
    }

    /// Sends one change. When the server refuses it (a tagged NO or BAD, not a lost
    /// connection) for several messages, each is tried alone, so that only the
    /// messages it is refused for stay as they were: those come back, with the reason.
    private func store(_ change: FlagChange, uids: [UInt32], on connection: MailConnection) throws
        -> [(uids: [UInt32], error: MailError)] {
        do {
            try connection.store(change, uids: uids)
            checkpoint("flags")
            return []
        } catch let error as MailError where error.kind == .refused {
            guard uids.count > 1 else { return [([uids[0]], error)] }
        }
        var refused: [(uids: [UInt32], error: MailError)] = []
        for uid in uids {
            do {
                try connection.store(change, uids: [uid])
                checkpoint("flags")
            } catch let error as MailError where error.kind == .refused {
                // Same reason for many messages: one line for all of them.
                if let last = refused.indices.last, refused[last].error == error {
                    refused[last].uids.append(uid)
                } else {
                    refused.append(([uid], error))
                }
            }
        }
        return refused
    }

    /// The message the rules see: parsed header (and text, when fetched), with
    /// what the server said about it. Attachment names come from the server's MIME
    /// structure when it sent one (complete even for long messages), so a rule's
    /// verdict never depends on how much of the body was fetched.
    private func makeMessage(_ item: FetchedMessage) -> Message {
        complete(parse(item.bytes), item)
    }

    /// `message` (parsed from `item`) with what the server said about it.
    private func complete(_ parsed: Message, _ item: FetchedMessage) -> Message {
        var message = parsed
        message.size = item.size
        if let names = item.attachments { message.attachments = names }
        message.server = item.serverFacts(account: account, mailbox: mailbox)
        return message
    }

    /// Puts messages an action failed on into the next digest, section `Problems`,
    /// so the failure is seen even when nobody reads cron's mail.
    /// `key` (default: the problem) names the problem in the entry's identity.
    private func reportInDigest(_ messages: [Message], problem: String, key: String? = nil, created: Timestamp) throws {
        var batch = StoreBatch()
        for message in messages {
            let action = Action.digest(section: MailboxRunner.problemsSection)
            var entry = DigestEntry(id: RecordID.forMessage(message, rule: key ?? problem, action: action),
                                    section: MailboxRunner.problemsSection, created: created, rule: key ?? problem,
                                    message: MessageSummary(message))
            entry.message.snippet = problem + (entry.message.snippet.isEmpty ? "" : " — " + entry.message.snippet)
            batch.add(entry)
        }
        if !batch.isEmpty { _ = try store.write(batch) }
    }

    /// Puts a message skipped after crashes into the digest's `Problems`, once (the id
    /// derives from the mailbox, its UIDVALIDITY and the UID, not from the unread message).
    private func reportSkipped(uid: UInt32, uidValidity: UInt32, subject: String?, messageID: String?, problem: String) throws {
        let created = Timestamp(now, timeZone: store.timeZone)
        let action = Action.digest(section: MailboxRunner.problemsSection)
        let id = RecordID.forMessage(account: account, messageKey: "skipped:\(mailbox)\u{0}\(uidValidity)\u{0}\(uid)",
                                     rule: "skipped after crashes", actionKey: RecordID.actionKey(action))
        let summary = MessageSummary(subject: subject ?? "UID \(uid) in \(account)/\(mailbox)", messageID: messageID,
                                     account: account, mailbox: mailbox, uid: uid, snippet: problem)
        var batch = StoreBatch()
        batch.add(DigestEntry(id: id, section: MailboxRunner.problemsSection, created: created,
                              rule: "skipped after crashes", message: summary))
        _ = try store.write(batch)
    }

    /// Puts a problem of the whole mailbox into the digest's `Problems`, once a day
    /// however many runs meet it (the id derives from the mailbox, the kind of
    /// problem and the day). It names no message: it is about the mailbox.
    private func reportMailboxProblem(_ problem: String) throws {
        let created = Timestamp(now, timeZone: store.timeZone)
        let action = Action.digest(section: MailboxRunner.problemsSection)
        let id = RecordID.forMessage(account: account, messageKey: "mailbox:" + mailbox,
                                     rule: "labels skipped\u{0}" + created.localDay.iso, actionKey: RecordID.actionKey(action))
        let summary = MessageSummary(subject: "Labels not set in \(account)/\(mailbox)", account: account,
                                     mailbox: mailbox, snippet: problem)
        var batch = StoreBatch()
        batch.add(DigestEntry(id: id, section: MailboxRunner.problemsSection, created: created,
                              rule: "labels skipped", message: summary))
        _ = try store.write(batch)
    }

    /// The digest section for actions that failed.
    public static let problemsSection = "Problems"

    /// How far INTERNALDATE (the server's clock) may lag behind the run's clock
    /// before a message that arrived after the last run looks older than it: one hour.
    public static let clockSlack: Int64 = 3_600

    /// The warning for a renumbered mailbox, saying what happens instead of a walk
    /// over everything.
    private func renumbered(_ saved: MailboxState, now uidValidity: UInt32) -> String {
        let head = "UIDVALIDITY changed (\(saved.uidValidity) -> \(uidValidity)): the server renumbered the mailbox; "
        if let lastRun = saved.lastRun {
            return head + "processing only mail that arrived after the last complete run (\(lastRun), less an hour for "
                + "clock differences)\(options.since != nil ? " and since --since" : ""), not all of it again (use --all for that)"
        }
        if options.since != nil {
            return head + "processing the mail since --since (use --all for all of it)"
        }
        return head + "the state does not say when the last run was, so like a first run only mail that arrives "
            + "from now on will be processed (use --since or --all for the mail in between)"
    }
}
