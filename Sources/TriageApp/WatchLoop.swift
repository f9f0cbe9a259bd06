import CChildGroup
import Foundation
import Glibc
import TriageConfig
import TriageCore

/// The loop of `triage watch`: the connections of each account's `WatchPlan` (NOTIFY,
/// IDLE, STATUS polls, within `max_connections`), all waited on at once (poll) in one
/// thread, so batches never overlap and the store sees one writer.
///
/// Each pass is `RunPipeline`'s, the very steps `triage run` takes (the mailboxes due,
/// webhooks, the digest when due, the run record through `QuietFailures`, and the
/// CalDAV sync after mail and every `[caldav NAME] interval`), under the store lock
/// taken for that pass only, at most one a second
/// per mailbox (`passGap`: a server that never stops announcing gets one pass a
/// second, not one per notice). A connection that fails (server gone, network down,
/// silence, password refused, closed right after login) is dropped and tried again
/// after a pause that doubles for as long as no connection stays up a minute
/// (`ReconnectPolicy`); the runner's saved state makes the first pass after it
/// take exactly what arrived meanwhile.
package final class WatchLoop {
    private let setup: RunSetup
    private let context: Context
    private let verbose: Bool
    /// The pipeline `run` drives too; the loop is only its schedule.
    private let pipeline: RunPipeline
    /// The connections of every account: first one per account, then its plan's.
    private var channels: [WatchChannel]
    /// The configured mailboxes, then the Sieve-filed folders found on connecting.
    private var watches: [MailboxWatch] = []
    /// Seconds between looks on a connection that polls.
    private let pollInterval: Double
    /// Seconds one IDLE may last before it is ended and started again.
    private let idleInterval: Double
    /// When to look whether the digest is due.
    private var nextDigestCheck = Date.distantPast
    /// After a failed send: not before this (not after every batch either).
    private var digestRetryAt = Date.distantPast
    /// The reconnect policy each connection starts with.
    private let policy: ReconnectPolicy
    /// When each `[caldav NAME]` is next synced at the latest (its `interval`).
    private var nextSync: [String: Date] = [:]
    /// The seconds between syncs of each `[caldav NAME]` (scaled by the test hook).
    private let syncInterval: [String: Double]
    /// Accounts whose server refused a login for its connection limit (said once).
    private var limited: Set<String> = []
    /// Accounts whose server offered NOTIFY but refused it: watched without.
    private var notifyRefused: Set<String> = []
    /// When the soonest snoozed message wakes (`SnoozeWake.nextWake`): the wait ends
    /// then, and the pass of the account's first mailbox wakes it, without new mail.
    private var nextWakeAt = Date.distantFuture
    /// How long after a wake that could not happen (no connection) it is tried again.
    package static let wakeRetry = 60.0
    /// Connections lost since the last pass, to go into the run record (under the lock).
    private var failures: [(channel: WatchChannel, error: Error)] = []

    /// How often the digest's hour is looked for, and how long after a failed send it is tried again.
    package static let digestCheck = 60.0, digestRetry = 600.0
    /// The shortest time between the starts of two passes of one mailbox, in seconds:
    /// what a server announces meanwhile is taken by the next pass.
    package static let passGap = 1.0

    package init(setup: RunSetup, context: Context, accounts: [AccountSection], verbose: Bool,
         policy: ReconnectPolicy = ReconnectPolicy()) {
        self.policy = policy
        self.setup = setup
        self.context = context
        self.verbose = verbose
        pipeline = RunPipeline(setup: setup, context: context, options: RunOptions(), verbose: verbose)
        // At once on starting (what changed on the phone meanwhile), then every interval.
        syncInterval = Dictionary(setup.config.caldav.map {
            ($0.name, Double($0.interval ?? CalDAVSection.defaultInterval) * context.hooks.timeScale)
        }, uniquingKeysWith: { first, _ in first })
        for section in setup.config.caldav { nextSync[section.name] = .distantPast }
        // One connection per account first: what the server can do (NOTIFY, IDLE) makes the plan.
        channels = accounts.map { WatchChannel(account: $0, role: nil, policy: policy) }
        for channel in channels {
            channel.mailboxes = WatchPlan.inboxFirst(channel.account.mailboxes).map {
                MailboxWatch(account: channel.account, mailbox: $0)
            }
            for watch in channel.mailboxes { watch.channel = channel }
            watches += channel.mailboxes
        }
        pollInterval = Double(setup.config.triage.pollInterval ?? 60)
        idleInterval = Double(min(setup.config.triage.idleInterval ?? 1740, 1740))
        if setup.config.digest == nil { nextDigestCheck = .distantFuture }
        nextWakeAt = SnoozeWake.nextWake(in: setup.store)?.date ?? .distantFuture
    }

    private var stopping: Bool { triage_stop_requested() != 0 }

    /// Runs until SIGTERM or SIGINT; the batch under way is finished first. Returns 0.
    package func run() -> ExitStatus {
        while !stopping {
            let now = Date()
            for channel in channels where channel.connection == nil && channel.nextAttempt <= now && !stopping {
                // (Not one given up meanwhile for a server's connection limit.)
                if channels.contains(where: { $0 === channel }) { connect(channel) }
            }
            for channel in channels where channel.connection != nil && channel.policy.recovered(at: now) {
                sayRecovered(channel)
            }
            // A snoozed message's time has come: the pass of its account's first mailbox wakes it.
            let wakeDue = nextWakeAt <= now
            pollDue(now)
            let due = watches.filter { watch in
                guard let channel = watch.channel, channel.connection != nil, channel.idleSince == nil else { return false }
                let looks = channel.role == .poll && channel.connection?.canPollStatus != true && watch.nextPoll <= now
                return (watch.dirty || looks || (wakeDue && watch.wakes)) && watch.lastPass.addingTimeInterval(Self.passGap) <= now
            }
            var digestDue = false
            // Once a minute, and after mail (as at the end of each `run`): mail may have
            // made the first entry of a day whose hour has passed.
            if setup.config.digest != nil && now >= digestRetryAt && (nextDigestCheck <= now || !due.isEmpty) {
                // Looked for without the lock: most minutes it is not due.
                digestDue = digestIsDue(now)
                if !digestDue { nextDigestCheck = now.addingTimeInterval(Self.digestCheck) }
            }
            let syncDue = Set(nextSync.filter { $0.value <= now }.keys)
            if !stopping && (!due.isEmpty || digestDue || !syncDue.isEmpty || !failures.isEmpty) {
                processBatch(due, digest: digestDue, sync: syncDue)
            }
            if stopping { break }
            for channel in channels where channel.connection != nil { takeNews(channel) }
            // Not while a pass is pending (it waits for `passGap`): the server's next
            // notice would end the IDLE at once, again and again.
            for channel in channels where channel.idles && channel.idleSince == nil && !channel.mailboxes.contains(where: \.dirty) {
                guard let connection = channel.connection else { continue }
                do {
                    if channel.notifyPending {
                        try connection.notify(channel.mailboxes.map(\.mailbox))
                        channel.notifyPending = false
                        // Notices that came with its answer would not wake the wait.
                        takeNews(channel)
                        if channel.mailboxes.contains(where: \.dirty) { continue }
                    }
                    // IDLE needs a mailbox open: the first pass opened one.
                    try connection.startIdle()
                    channel.idleSince = Date()
                } catch {
                    lost(channel, error)
                }
            }
            wait()
        }
        for channel in channels {
            if channel.idleSince != nil { try? channel.connection?.finishIdle() }
            channel.drop()
        }
        return .ok
    }

    // MARK: - Connections

    private func connect(_ channel: WatchChannel) {
        do {
            let connection = try AccountSession.connect(channel.account, credential: nil, context: context, verbose: verbose,
                                                        checkpoint: pipeline.armedCheckpoint)
            channel.connection = connection
            try AccountSession.prepare(connection, account: channel.account, mailboxes: channel.mailboxes.map(\.mailbox),
                                       setup: setup, verbose: verbose, context: context)
            channel.shared = try AccountSession.accountSetup(channel.account, on: connection, setup: setup,
                                                             options: pipeline.options, context: context)
            addFiled(channel)
            if channel.role == nil { plan(channel, on: connection) }
            switch channel.role {
            case .notify?:
                // Before the first passes: mail that comes after a pass is announced.
                do {
                    try connection.notify(channel.mailboxes.map(\.mailbox))
                    channel.notifyPending = false
                } catch let refused as MailError where refused.kind == .protocol && !notifyRefused.contains(channel.account.name) {
                    // Offered but refused (a name it will not take, say): IDLE and STATUS
                    // polls instead, for as long as `watch` runs.
                    notifyRefused.insert(channel.account.name)
                    context.err("triage: watch: account \(channel.account.name): \(refused.message); watching with IDLE "
                                + "and STATUS looks instead (within max_connections)\n")
                    plan(channel, on: connection)
                    if channel.role == .poll && connection.canPollStatus {
                        for watch in channel.mailboxes { watch.counters = try connection.pollStatus(watch.mailbox) }
                    }
                }
            case .poll? where connection.canPollStatus:
                for watch in channel.mailboxes { watch.counters = try connection.pollStatus(watch.mailbox) }
            default:
                break
            }
            // In an outage it is said once the connection has held (`sayRecovered`):
            // one that closes again within the minute is the same outage.
            if verbose && !channel.policy.inOutage {
                for watch in channel.mailboxes {
                    let what = watch.filed ? " (a folder the Sieve script files into)"
                        : channel.shared.sent == watch.mailbox ? " (the Sent folder, for in:Sent)" : ""
                    context.out("\(watch.name): watching with \(how(channel, connection))\(what)\n")
                }
            }
            channel.policy.connected(at: Date())
            for watch in channel.mailboxes {
                watch.dirty = true
                watch.nextPoll = Date().addingTimeInterval(pollInterval)
            }
        } catch {
            lost(channel, error)
        }
    }

    /// How a channel's mailboxes are watched, for `--verbose`.
    private func how(_ channel: WatchChannel, _ connection: MailConnection) -> String {
        switch channel.role {
        case .notify?:
            return "NOTIFY (one connection for the account's \(channel.mailboxes.count) mailbox\(channel.mailboxes.count == 1 ? "" : "es"))"
        case .idle?:
            return "IDLE"
        case .poll?, nil:
            guard connection.canIdle else { return "a look every \(Int(pollInterval)) s (no IDLE)" }
            return "a STATUS look every \(Int(pollInterval)) s (max_connections = \(maxConnections(channel.account)) "
                + "leaves no connection for its IDLE)"
        }
    }

    private func maxConnections(_ account: AccountSection) -> Int {
        account.maxConnections ?? AccountSection.defaultMaxConnections
    }

    /// The account's first connection has said what the server can: it takes the
    /// plan's first part, and the other connections of the plan are made on the next turns.
    private func plan(_ first: WatchChannel, on connection: MailConnection) {
        let mine = first.mailboxes
        let plan = WatchPlan.make(mailboxes: mine.map(\.mailbox), maxConnections: maxConnections(first.account),
                                  idle: connection.canIdle,
                                  notify: connection.canNotify && !notifyRefused.contains(first.account.name))
        for (index, part) in plan.channels.enumerated() {
            let channel = index == 0 ? first : WatchChannel(account: first.account, role: nil, policy: policy)
            switch part {
            case .notify: channel.role = .notify
            case .idle: channel.role = .idle
            case .poll: channel.role = .poll
            }
            channel.mailboxes = part.mailboxes.compactMap { name in mine.first { $0.mailbox == name } }
            for watch in channel.mailboxes { watch.channel = channel }
            if index > 0 { channels.append(channel) }
        }
    }

    /// Adds a watch for each folder a deployed Sieve script files into that is not
    /// watched yet, as `run` reads them besides `mailboxes`: mail filed at delivery
    /// still gets its local actions. Looked up on every connection of the account, so
    /// a folder made later is found at the next reconnection. Before the plan they
    /// join the first connection's mailboxes (the plan places them); after it, the
    /// NOTIFY connection, or the one that polls (made when there is none: the plan
    /// always leaves a connection free for it). The Sent folder (a rule reads `in:Sent`)
    /// is added the same way.
    private func addFiled(_ channel: WatchChannel) {
        for folder in channel.shared.extra
        where !watches.contains(where: { $0.account.name == channel.account.name && $0.mailbox == folder }) {
            let watch = MailboxWatch(account: channel.account, mailbox: folder, filed: channel.shared.filed.contains(folder))
            watches.append(watch)
            let mine = channels.filter { $0.account.name == channel.account.name }
            let target: WatchChannel
            if channel.role == nil {
                target = channel
            } else if let notify = mine.first(where: { $0.role == .notify }) {
                target = notify
                notify.notifyPending = true
            } else if let poll = mine.first(where: { $0.role == .poll }) {
                target = poll
            } else {
                target = WatchChannel(account: channel.account, role: .poll, policy: policy)
                channels.append(target)
            }
            target.mailboxes.append(watch)
            watch.channel = target
            if target !== channel && target.connection != nil, verbose {
                let what = watch.filed ? "a folder the Sieve script files into" : "the Sent folder, for in:Sent"
                context.out("\(watch.name): watching with \(how(target, target.connection!)) (\(what))\n")
            }
        }
    }

    /// The STATUS looks of the connections that poll: a mailbox whose counters
    /// changed needs a pass.
    private func pollDue(_ now: Date) {
        for channel in channels where channel.role == .poll && channel.connection?.canPollStatus == true && !stopping {
            for watch in channel.mailboxes where !watch.dirty && watch.nextPoll <= now {
                guard let connection = channel.connection else { break }
                do {
                    let counters = try connection.pollStatus(watch.mailbox)
                    if counters != watch.counters { watch.dirty = true }
                    watch.counters = counters
                    watch.nextPoll = now.addingTimeInterval(pollInterval)
                } catch {
                    lost(channel, error)
                }
            }
        }
    }

    /// What a NOTIFY connection heard (in IDLE, or with the answers of a pass): the
    /// mailboxes it names need a pass.
    private func takeNews(_ channel: WatchChannel) {
        guard channel.role == .notify, let connection = channel.connection else { return }
        let news = connection.takeMailboxNews()
        guard !news.isEmpty else { return }
        for watch in channel.mailboxes {
            let named = news.mailboxes.contains { $0 == watch.mailbox || ($0.uppercased() == "INBOX" && watch.mailbox.uppercased() == "INBOX") }
            if news.unclear || named { watch.dirty = true }
        }
    }

    /// Drops the connection and plans the next attempt; says so once per outage,
    /// and again only when the cause changes (the server is back but refuses the password).
    private func lost(_ channel: WatchChannel, _ error: Error) {
        channel.drop()
        if (error as? MailError)?.kind == .connectionLimit, shrink(channel, error) { return }
        let now = Date()
        let status = (error as? TriageError)?.exitStatus ?? .software
        let failure = channel.policy.failed(at: now, cause: status)
        if failure.recoveredFirst { sayRecovered(channel) }
        channel.nextAttempt = now.addingTimeInterval(failure.pause)
        // Into the run record at the next pass, as a failed run of the account; with
        // quiet_failures, that says it (once it has lasted), as for `run`.
        failures.append((channel, error))
        guard failure.say, !quiet else { return }
        let reason = (error as? TriageError)?.message ?? "\(error)"
        context.err("triage: watch: \(channel.name): \(reason); trying again after growing pauses "
                    + "(up to \(Self.duration(channel.policy.cap))) until a connection stays up "
                    + "for \(Self.duration(channel.policy.settle)); says when one has\n")
    }

    /// A login refused for the server's connection limit while other connections of the
    /// account are up: the server allows fewer than `max_connections`. The refused
    /// connection is given up and its mailboxes join the account's STATUS look (made of
    /// its last IDLE connection, not INBOX's, when there is none), so every mailbox is
    /// still watched within what the server allows. Says so once, with the refusal.
    /// False when no other connection is up (then it is tried again as any failure).
    private func shrink(_ refused: WatchChannel, _ error: Error) -> Bool {
        let account = refused.account.name
        let others = channels.filter { $0 !== refused && $0.account.name == account && $0.connection != nil && $0.role != nil }
        guard !others.isEmpty else { return false }
        let poll: WatchChannel
        var moved = refused.mailboxes.map(\.mailbox)
        if let existing = others.first(where: { $0.role == .poll }) {
            poll = existing
        } else if let idle = others.last(where: { $0.role == .idle && $0 !== others.first }) {
            // It stops idling; its mailbox is looked at with the rest.
            if idle.idleSince != nil {
                do {
                    try idle.connection?.finishIdle()
                    idle.idleSince = nil
                } catch {
                    return false
                }
            }
            idle.role = .poll
            poll = idle
            moved = idle.mailboxes.map(\.mailbox) + moved
        } else {
            return false
        }
        for watch in refused.mailboxes {
            watch.channel = poll
            watch.dirty = true
            watch.counters = nil
        }
        poll.mailboxes += refused.mailboxes
        channels.removeAll { $0 === refused }
        refused.mailboxes = []
        let names = moved.joined(separator: ", ")
        if limited.insert(account).inserted {
            let reason = (error as? TriageError)?.message ?? "\(error)"
            context.err("triage: watch: account \(account): \(reason); the server allows \(others.count) connection"
                        + "\(others.count == 1 ? "" : "s") now: watching \(names) with a STATUS look every \(Int(pollInterval)) s "
                        + "on one of them instead (set max_connections = \(others.count) to start that way)\n")
        } else if verbose {
            context.out("\(refused.account.name): the server's connection limit again: \(names) joins the STATUS look\n")
        }
        return true
    }

    /// Whether `[triage] quiet_failures` decides what is said of a failure (as in `run`).
    private var quiet: Bool { setup.config.triage.quietFailures != nil }

    /// The end of an outage: a connection made during it has stayed up `settle` seconds.
    private func sayRecovered(_ channel: WatchChannel) {
        // With quiet_failures, the run record's recovery line says it (`RunBook.settle`).
        guard !quiet else { return }
        context.err("triage: watch: \(channel.name): connected again, and up for \(Self.duration(channel.policy.settle)) "
                    + "now; what arrived meanwhile was taken\n")
    }

    /// `5 minutes`, `1 minute`, `3 s`: a duration for a message.
    package static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        guard whole >= 60, whole % 60 == 0 else { return seconds >= 1 ? "\(whole) s" : String(format: "%.2f s", seconds) }
        return whole == 60 ? "1 minute" : "\(whole / 60) minutes"
    }

    // MARK: - Batches

    /// One pass of the pipeline: the runner over `due`, webhooks, the digest when its
    /// time has come, the run record, and the CalDAV sync (every section after mail, the
    /// sections in `sync` when their interval has passed), all under the store lock,
    /// which is held only this long (a `triage run` or `triage queue done` meanwhile
    /// waits for it; a run that holds it is waited for).
    private func processBatch(_ due: [MailboxWatch], digest digestDue: Bool, sync syncDue: Set<String>) {
        let now = Date()
        var context = self.context
        context.now = now
        // The digest's password_command runs before the lock is taken, as in `run`.
        let digestPassword = digestDue ? DigestService.prefetchPassword(setup: setup, now: now) : nil
        let store = setup.store
        // The connections lost since the last pass (into the run record below; not again
        // if the lock cannot be had).
        let lostNow = failures
        failures = []
        do {
            guard try LockWait.lock(store, seconds: nil, giveUp: { stopping }) else { return }
        } catch {
            context.err("triage: watch: \((error as? TriageError)?.message ?? "\(error)")\n")
            for channel in channels where due.contains(where: { $0.channel === channel }) { lost(channel, error) }
            return
        }
        defer { store.unlock() }
        let book = RunBook(setup: setup, context: context, dryRun: false)
        // The connections lost since the last pass: failed runs of their accounts.
        for (channel, error) in lostNow {
            var source = book.record.accounts[channel.account.name] ?? RunRecord.Source()
            let failure = (error as? TriageError) ?? SimpleError(.software, "\(error)")
            let before = source.failure
            // Said once per outage and cause, as the reconnect policy says it without quiet_failures.
            let said = book.settle(&source, "account \(channel.account.name)", failure, say: false)
            if quiet, let said, before?.reported != true || before?.exitStatus != failure.exitStatus.rawValue {
                context.err("triage: \(said)\n")
            }
            book.record.accounts[channel.account.name] = source
        }
        var tookMail = false
        var passed: Set<String> = []
        for watch in due {
            guard let channel = watch.channel, let connection = channel.connection else { continue }
            watch.lastPass = now
            do {
                if watch.wakes {
                    // As `run` does: the due wakes first, so a woken message is in this pass's INBOX.
                    try SnoozeService.wakeDue(watch.account, on: connection, store: store, dryRun: false, context: context,
                                              printer: pipeline.printer, checkpoint: pipeline.checkpoint)
                }
                let outcome = try AccountSession.runMailbox(watch.mailbox, account: watch.account, on: connection, setup: setup,
                                                            options: pipeline.options, shared: channel.shared, parts: pipeline.parts,
                                                            printer: pipeline.printer, context: context,
                                                            checkpoint: pipeline.checkpoint)
                if watch.wakes {
                    // What a digest reply read in this pass snoozed: out of its mailbox.
                    if try SnoozeService.putAwayPending(watch.account, on: connection, store: store, dryRun: false, context: context,
                                                        printer: pipeline.printer, checkpoint: pipeline.checkpoint) {
                        // IDLE watches the open mailbox: this one again.
                        _ = try connection.open(watch.mailbox, readOnly: false)
                    }
                }
                watch.dirty = false
                watch.nextPoll = now.addingTimeInterval(pollInterval)
                var source = book.record.accounts[watch.account.name] ?? RunRecord.Source()
                source.mailboxes[watch.mailbox] = RunRecord.MailboxRun(lastRun: book.stamp, messages: outcome.processed)
                book.record.accounts[watch.account.name] = source
                passed.insert(watch.account.name)
                // Mail taken may have made or closed records (a reminder, a Done command).
                if outcome.processed > 0 || outcome.records > 0 { tookMail = true }
            } catch {
                lost(channel, error)
            }
        }
        // An account whose every mailbox is connected again has recovered.
        for name in passed where !channels.contains(where: { $0.account.name == name && $0.connection == nil }) {
            var source = book.record.accounts[name] ?? RunRecord.Source()
            book.settle(&source, "account \(name)", nil)
            book.record.accounts[name] = source
        }
        do {
            if digestDue || !due.isEmpty {
                let (status, _) = try pipeline.afterMail(book: book, context: context, digest: digestDue,
                                                         digestPassword: digestPassword)
                if digestDue {
                    nextDigestCheck = now.addingTimeInterval(status == .ok ? Self.digestCheck : Self.digestRetry)
                    if status != .ok { digestRetryAt = nextDigestCheck }
                }
            }
        } catch {
            context.err("triage: watch: \((error as? TriageError)?.message ?? "\(error)")\n")
            nextDigestCheck = now.addingTimeInterval(Self.digestRetry)
            digestRetryAt = nextDigestCheck
        }
        if !due.isEmpty || !lostNow.isEmpty || digestDue { book.save() }
        // This pass may have snoozed mail or woken it; one it could not wake is tried again later.
        nextWakeAt = SnoozeWake.nextWake(in: store)?.date ?? .distantFuture
        if nextWakeAt <= now { nextWakeAt = now.addingTimeInterval(Self.wakeRetry) }
        // CalDAV last, as in `run`: after mail every section (this pass's reminders reach
        // the phone), else those whose interval has passed (the phone's changes come back).
        let sections = tookMail ? Set(nextSync.keys) : syncDue
        if !sections.isEmpty {
            _ = pipeline.syncCalDAV(context: context, only: sections)
            for name in sections { nextSync[name] = now.addingTimeInterval(syncInterval[name] ?? 300) }
        }
    }

    /// Whether the day's digest is due and not sent yet (read without the lock).
    private func digestIsDue(_ now: Date) -> Bool {
        guard let service = try? DigestService(setup: setup), let sent = try? setup.store.digestLedger.sentDays() else {
            return false
        }
        return service.dispatcher.schedule.dueDay(at: now, sent: sent) != nil
    }

    // MARK: - Waiting

    /// Waits until a server says something in IDLE, an IDLE, poll or retry is due,
    /// the digest's check is due, or a stop signal comes; then ends the IDLE of
    /// every connection that has something to say or has idled long enough.
    private func wait() {
        let now = Date()
        var until = min(nextSync.values.reduce(nextDigestCheck, min), nextWakeAt)
        var descriptors: [pollfd] = []
        var idling: [WatchChannel] = []
        var buffered = false
        for channel in channels {
            guard let connection = channel.connection else {
                until = min(until, channel.nextAttempt)
                continue
            }
            if let settles = channel.policy.settlesAt { until = min(until, settles) }
            if let since = channel.idleSince {
                until = min(until, since.addingTimeInterval(idleInterval))
                descriptors.append(pollfd(fd: connection.idleDescriptor, events: Int16(POLLIN), revents: 0))
                idling.append(channel)
                buffered = buffered || connection.hasBufferedInput
                continue
            }
            for watch in channel.mailboxes {
                let look = channel.role == .poll || watch.dirty ? watch.nextPoll : Date.distantFuture
                until = min(until, max(watch.dirty ? now : look, watch.lastPass.addingTimeInterval(Self.passGap)))
            }
        }
        let milliseconds = buffered ? 0 : Int32(max(0, min(until.timeIntervalSince(now), 3600)) * 1000)
        _ = descriptors.withUnsafeMutableBufferPointer { buffer in
            triage_stop_wait(buffer.baseAddress, nfds_t(buffer.count), milliseconds)
        }
        if stopping { return }
        let after = Date()
        for (index, channel) in idling.enumerated() {
            guard let since = channel.idleSince, let connection = channel.connection else { continue }
            let spoke = descriptors[index].revents != 0 || connection.hasBufferedInput
            // A snoozed message's time has come: the channel of the mailbox that wakes it stops idling.
            let wakes = after >= nextWakeAt && channel.mailboxes.contains(where: \.wakes)
            guard spoke || wakes || after >= since.addingTimeInterval(idleInterval) else { continue }
            do {
                try connection.finishIdle()
                channel.idleSince = nil
                if channel.role == .notify {
                    // NOTIFY names the mailboxes that changed (a renewal names none).
                    takeNews(channel)
                } else {
                    // Whatever it said (EXISTS, EXPUNGE, a flag change) or none: one pass of
                    // the runner costs a SELECT when nothing is new.
                    for watch in channel.mailboxes { watch.dirty = true }
                }
            } catch {
                lost(channel, error)
            }
        }
    }
}
