import CChildGroup
import Foundation
import Glibc
import TriageConfig
import TriageCore
import TriageIMAP

/// The loop of `triage watch`: one connection per mailbox, all waited on at once
/// (poll) in one thread, so batches never overlap and the store sees one writer.
///
/// Each pass of a mailbox is `RunCommand.runMailbox`, the very step `triage run`
/// takes, under the store lock taken for that batch only. A connection that fails
/// (server gone, network down, silence, password refused) is dropped and tried
/// again after a doubling pause (`ReconnectBackoff`); the runner's saved state
/// makes the first pass after it take exactly what arrived meanwhile.
final class WatchLoop {
    private let setup: RunSetup
    private let context: Context
    private let verbose: Bool
    private let printer: RunPrinter
    private let options: RunOptions
    private let parts: MessageParts
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

    /// How often the digest's hour is looked for, and how long after a failed send it is tried again.
    static let digestCheck = 60.0, digestRetry = 600.0

    init(setup: RunSetup, context: Context, accounts: [AccountSection], verbose: Bool) {
        self.setup = setup
        self.context = context
        self.verbose = verbose
        printer = RunPrinter(context: context, verbose: verbose, dryRun: false)
        parts = setup.rules?.neededParts ?? .all
        var options = RunOptions()
        options.batchSize = RunCommand.defaultBatchSize(parts: parts, options.batchSize)
        self.options = options
        watches = accounts.flatMap { account in account.mailboxes.map { MailboxWatch(account: account, mailbox: $0) } }
        pollInterval = Double(setup.config.triage.pollInterval ?? 60)
        idleInterval = Double(min(setup.config.triage.idleInterval ?? 1740, 1740))
        if setup.config.digest == nil { nextDigestCheck = .distantFuture }
    }

    private var stopping: Bool { triage_stop_requested() != 0 }

    /// Runs until SIGTERM or SIGINT; the batch under way is finished first. Returns 0.
    func run() -> ExitStatus {
        while !stopping {
            let now = Date()
            for watch in watches where watch.connection == nil && watch.nextAttempt <= now && !stopping {
                connect(watch)
            }
            let due = watches.filter { $0.connection != nil && $0.idleSince == nil && ($0.dirty || $0.nextPoll <= now) }
            var digestDue = false
            // Once a minute, and after mail (as at the end of each `run`): mail may have
            // made the first entry of a day whose hour has passed.
            if setup.config.digest != nil && now >= digestRetryAt && (nextDigestCheck <= now || !due.isEmpty) {
                // Looked for without the lock: most minutes it is not due.
                digestDue = digestIsDue(now)
                if !digestDue { nextDigestCheck = now.addingTimeInterval(Self.digestCheck) }
            }
            if !stopping && (!due.isEmpty || digestDue) { processBatch(due, digest: digestDue) }
            if stopping { break }
            for watch in watches where watch.connection != nil && watch.idleSince == nil {
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
            let connection = try RunCommand.connect(watch.account, credential: nil, context: context, verbose: verbose)
            watch.connection = connection
            try RunCommand.prepare(connection, account: watch.account, mailboxes: [watch.mailbox], setup: setup,
                                   verbose: verbose, context: context)
            watch.shared = try RunCommand.accountSetup(watch.account, on: connection, setup: setup, options: options,
                                                       context: context)
            addFiled(watch)
            if watch.reportedFailure != nil {
                context.err("triage: watch: \(watch.name): connected again; taking what arrived meanwhile\n")
            } else if verbose {
                let how = watch.idler != nil ? "IDLE" : "a look every \(Int(pollInterval)) s (no IDLE)"
                let what = watch.filed ? " (a folder the Sieve script files into)" : ""
                context.out("\(watch.name): watching with \(how)\(what)\n")
            }
            watch.backoff.succeeded()
            watch.reportedFailure = nil
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
            watches.append(MailboxWatch(account: watch.account, mailbox: folder, filed: true))
        }
    }

    /// Drops the connection and plans the next attempt; says so once per outage,
    /// and again only when the cause changes (the server is back but refuses the password).
    private func lost(_ watch: MailboxWatch, _ error: Error) {
        watch.drop()
        let pause = watch.backoff.failed()
        watch.nextAttempt = Date().addingTimeInterval(pause)
        let status = (error as? TriageError)?.exitStatus ?? .software
        guard watch.reportedFailure != status else { return }
        watch.reportedFailure = status
        let reason = (error as? TriageError)?.message ?? "\(error)"
        context.err("triage: watch: \(watch.name): \(reason); trying again after growing pauses "
                    + "(up to \(Int(watch.backoff.cap / 60)) minutes); says when it is connected again\n")
    }

    // MARK: - Batches

    /// Passes the runner over `due` and, when its time has come, sends the digest, all
    /// under the store lock, which is held only this long (a `triage run` or `triage
    /// queue done` meanwhile waits for it; a run that holds it is waited for).
    private func processBatch(_ due: [MailboxWatch], digest digestDue: Bool) {
        let now = Date()
        var context = self.context
        context.now = now
        // The digest's password_command runs before the lock is taken, as in `run`.
        let digestPassword = digestDue ? DigestService.prefetchPassword(setup: setup, now: now) : nil
        let store = setup.store
        do {
            guard try LockWait.lock(store, seconds: nil, giveUp: { stopping }) else { return }
        } catch {
            context.err("triage: watch: \((error as? TriageError)?.message ?? "\(error)")\n")
            for watch in due { lost(watch, error) }
            return
        }
        defer { store.unlock() }
        for watch in due {
            guard let connection = watch.connection else { continue }
            do {
                _ = try RunCommand.runMailbox(watch.mailbox, account: watch.account, on: connection, setup: setup,
                                              options: options, shared: watch.shared, parts: parts, printer: printer,
                                              context: context, checkpoint: { _ in })
                watch.dirty = false
                watch.nextPoll = now.addingTimeInterval(pollInterval)
            } catch {
                lost(watch, error)
            }
        }
        do {
            if digestDue {
                var status = ExitStatus.ok
                if case .failure(let error)? = try RunCommand.afterMail(setup: setup, context: context,
                                                                       digestPassword: digestPassword, checkpoint: { _ in }) {
                    context.err("triage: \(error.message)\n")
                    status = error.exitStatus
                }
                nextDigestCheck = now.addingTimeInterval(status == .ok ? Self.digestCheck : Self.digestRetry)
                if status != .ok { digestRetryAt = nextDigestCheck }
            } else if !due.isEmpty {
                for failure in try WebhookDispatcher.deliverPending(store: store, policy: WebhookDispatcher.policy(setup.config),
                                                                    context: context, checkpoint: { _ in }) {
                    context.err("triage: \(failure)\n")
                }
            }
        } catch {
            context.err("triage: watch: \((error as? TriageError)?.message ?? "\(error)")\n")
            nextDigestCheck = now.addingTimeInterval(Self.digestRetry)
            digestRetryAt = nextDigestCheck
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
        var until = nextDigestCheck
        var descriptors: [pollfd] = []
        var idling: [MailboxWatch] = []
        var buffered = false
        for watch in watches {
            if watch.connection == nil {
                until = min(until, watch.nextAttempt)
            } else if let since = watch.idleSince, let idler = watch.idler {
                until = min(until, since.addingTimeInterval(idleInterval))
                descriptors.append(pollfd(fd: idler.idleDescriptor, events: Int16(POLLIN), revents: 0))
                idling.append(watch)
                buffered = buffered || idler.hasBufferedInput
            } else {
                until = min(until, watch.dirty ? now : watch.nextPoll)
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
            guard spoke || after >= since.addingTimeInterval(idleInterval) else { continue }
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
