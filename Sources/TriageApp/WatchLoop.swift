import CChildGroup
import Foundation
import Glibc
import TriageConfig
import TriageCore
import TriageIMAP

/// The loop of `triage watch`: one connection per mailbox, all waited on at once
/// (poll) in one thread, so batches never overlap and the store sees one writer.
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
    /// The configured mailboxes, then the Sieve-filed folders found on connecting.
    private var watches: [MailboxWatch]
    /// Seconds between looks on a connection without IDLE.
    private let pollInterval: Double
    /// Seconds one IDLE may last before it is ended and started again.
    private let idleInterval: Double
    /// When to look whether the digest is due.
    private var nextDigestCheck = Date.distantPast
    /// After a failed send: not before this (not after every batch either).
    private var digestRetryAt = Date.distantPast
    /// The reconnect policy each mailbox starts with.
    private let policy: ReconnectPolicy
    /// When each `[caldav NAME]` is next synced at the latest (its `interval`).
    private var nextSync: [String: Date] = [:]
    /// The seconds between syncs of each `[caldav NAME]` (scaled by the test hook).
    private let syncInterval: [String: Double]
    /// When the soonest snoozed message wakes (`SnoozeWake.nextWake`): the wait ends
    /// then, and the pass of the account's first mailbox wakes it, without new mail.
    private var nextWakeAt = Date.distantFuture
    /// How long after a wake that could not happen (no connection) it is tried again.
    package static let wakeRetry = 60.0
    /// Connections lost since the last pass, to go into the run record (under the lock).
    private var failures: [(watch: MailboxWatch, error: Error)] = []

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
        watches = accounts.flatMap { account in
            account.mailboxes.map { MailboxWatch(account: account, mailbox: $0, policy: policy) }
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
            for watch in watches where watch.connection == nil && watch.nextAttempt <= now && !stopping {
                connect(watch)
            }
            for watch in watches where watch.connection != nil && watch.policy.recovered(at: now) {
                sayRecovered(watch)
            }
            // A snoozed message's time has come: the pass of its account's first mailbox wakes it.
            let wakeDue = nextWakeAt <= now
            let due = watches.filter {
                $0.connection != nil && $0.idleSince == nil && ($0.dirty || $0.nextPoll <= now || (wakeDue && $0.wakes))
                    && $0.lastPass.addingTimeInterval(Self.passGap) <= now
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
            // Not while a pass is pending (it waits for `passGap`): the server's next
            // notice would end the IDLE at once, again and again.
            for watch in watches where watch.connection != nil && watch.idleSince == nil && !watch.dirty {
                guard let idler = watch.idler else { continue }
                do {
                    try idler.startIdle()
                    watch.idleSince = Date()
                } catch {
                    lost(watch, error)
                }
            }
            wait()
        }
        for watch in watches {
            if watch.idleSince != nil, let idler = watch.idler { try? idler.finishIdle() }
            watch.drop()
        }
        return .ok
    }

    // MARK: - Connections

    private func connect(_ watch: MailboxWatch) {
        do {
            let connection = try AccountSession.connect(watch.account, credential: nil, context: context, verbose: verbose,
                                                        checkpoint: pipeline.armedCheckpoint)
            watch.connection = connection
            try AccountSession.prepare(connection, account: watch.account, mailboxes: [watch.mailbox], setup: setup,
                                   verbose: verbose, context: context)
            watch.shared = try AccountSession.accountSetup(watch.account, on: connection, setup: setup, options: pipeline.options,
                                                       context: context)
            addFiled(watch)
            // In an outage it is said once the connection has held (`sayRecovered`):
            // one that closes again within the minute is the same outage.
            if verbose && !watch.policy.inOutage {
                let how = watch.idler != nil ? "IDLE" : "a look every \(Int(pollInterval)) s (no IDLE)"
                let what = watch.filed ? " (a folder the Sieve script files into)" : ""
                context.out("\(watch.name): watching with \(how)\(what)\n")
            }
            watch.policy.connected(at: Date())
            watch.dirty = true
        } catch {
            lost(watch, error)
        }
    }

    /// Adds a watch (its own connection, IDLE where the server has it) for each folder
    /// a deployed Sieve script files into that is not watched yet, as `run` reads them
    /// besides `mailboxes`: mail filed at delivery still gets its local actions. Looked
    /// up on every connection of the account, so a folder made later is found at the
    /// next reconnection; the new watches connect on the loop's next turn.
    private func addFiled(_ watch: MailboxWatch) {
        for folder in watch.shared.filed
        where !watches.contains(where: { $0.account.name == watch.account.name && $0.mailbox == folder }) {
            watches.append(MailboxWatch(account: watch.account, mailbox: folder, filed: true, policy: policy))
        }
    }

    /// Drops the connection and plans the next attempt; says so once per outage,
    /// and again only when the cause changes (the server is back but refuses the password).
    private func lost(_ watch: MailboxWatch, _ error: Error) {
        watch.drop()
        let now = Date()
        let status = (error as? TriageError)?.exitStatus ?? .software
        let failure = watch.policy.failed(at: now, cause: status)
        if failure.recoveredFirst { sayRecovered(watch) }
        watch.nextAttempt = now.addingTimeInterval(failure.pause)
        // Into the run record at the next pass, as a failed run of the account; with
        // quiet_failures, that says it (once it has lasted), as for `run`.
        failures.append((watch, error))
        guard failure.say, !quiet else { return }
        let reason = (error as? TriageError)?.message ?? "\(error)"
        context.err("triage: watch: \(watch.name): \(reason); trying again after growing pauses "
                    + "(up to \(Self.duration(watch.policy.cap))) until a connection stays up "
                    + "for \(Self.duration(watch.policy.settle)); says when one has\n")
    }

    /// Whether `[triage] quiet_failures` decides what is said of a failure (as in `run`).
    private var quiet: Bool { setup.config.triage.quietFailures != nil }

    /// The end of an outage: a connection made during it has stayed up `settle` seconds.
    private func sayRecovered(_ watch: MailboxWatch) {
        // With quiet_failures, the run record's recovery line says it (`RunBook.settle`).
        guard !quiet else { return }
        context.err("triage: watch: \(watch.name): connected again, and up for \(Self.duration(watch.policy.settle)) "
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
            for watch in due { lost(watch, error) }
            return
        }
        defer { store.unlock() }
        let book = RunBook(setup: setup, context: context, dryRun: false)
        // The connections lost since the last pass: failed runs of their accounts.
        for (watch, error) in lostNow {
            var source = book.record.accounts[watch.account.name] ?? RunRecord.Source()
            let failure = (error as? TriageError) ?? SimpleError(.software, "\(error)")
            let before = source.failure
            // Said once per outage and cause, as the reconnect policy says it without quiet_failures.
            let said = book.settle(&source, "account \(watch.account.name)", failure, say: false)
            if quiet, let said, before?.reported != true || before?.exitStatus != failure.exitStatus.rawValue {
                context.err("triage: \(said)\n")
            }
            book.record.accounts[watch.account.name] = source
        }
        var tookMail = false
        var passed: Set<String> = []
        for watch in due {
            guard let connection = watch.connection else { continue }
            watch.lastPass = now
            do {
                if watch.wakes {
                    // As `run` does: the due wakes first, so a woken message is in this pass's INBOX.
                    try SnoozeService.wakeDue(watch.account, on: connection, store: store, dryRun: false, context: context,
                                              printer: pipeline.printer, checkpoint: pipeline.checkpoint)
                }
                let outcome = try AccountSession.runMailbox(watch.mailbox, account: watch.account, on: connection, setup: setup,
                                                            options: pipeline.options, shared: watch.shared, parts: pipeline.parts,
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
                lost(watch, error)
            }
        }
        // An account whose every mailbox is connected again has recovered.
        for name in passed where !watches.contains(where: { $0.account.name == name && $0.connection == nil }) {
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
        var idling: [MailboxWatch] = []
        var buffered = false
        for watch in watches {
            if watch.connection == nil {
                until = min(until, watch.nextAttempt)
                continue
            }
            if let settles = watch.policy.settlesAt { until = min(until, settles) }
            if let since = watch.idleSince, let idler = watch.idler {
                until = min(until, since.addingTimeInterval(idleInterval))
                descriptors.append(pollfd(fd: idler.idleDescriptor, events: Int16(POLLIN), revents: 0))
                idling.append(watch)
                buffered = buffered || idler.hasBufferedInput
            } else {
                until = min(until, max(watch.dirty ? now : watch.nextPoll, watch.lastPass.addingTimeInterval(Self.passGap)))
            }
        }
        let milliseconds = buffered ? 0 : Int32(max(0, min(until.timeIntervalSince(now), 3600)) * 1000)
        _ = descriptors.withUnsafeMutableBufferPointer { buffer in
            triage_stop_wait(buffer.baseAddress, nfds_t(buffer.count), milliseconds)
        }
        if stopping { return }
        let after = Date()
        for (index, watch) in idling.enumerated() {
            guard let since = watch.idleSince, let idler = watch.idler else { continue }
            let spoke = descriptors[index].revents != 0 || idler.hasBufferedInput
            let wakes = watch.wakes && after >= nextWakeAt
            guard spoke || wakes || after >= since.addingTimeInterval(idleInterval) else { continue }
            do {
                try idler.finishIdle()
                watch.idleSince = nil
                // Whatever it said (EXISTS, EXPUNGE, a flag change) or none: one pass of
                // the runner costs a SELECT when nothing is new.
                watch.dirty = true
            } catch {
                lost(watch, error)
            }
        }
    }
}
