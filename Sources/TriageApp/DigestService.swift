import Foundation
import TriageCore
import TriageCurl

/// The digest as the commands use it: the dispatcher over the configured store,
/// with the delivery built from `[digest]` (the password read only when a
/// message is actually sent), and messages for standard error.
package struct DigestService {
    package let setup: RunSetup
    package let settings: DigestSection
    package let endpoint: DeliveryEndpoint
    /// The outcome of `password_command` when it already ran (`prefetchPassword`).
    package var password: Result<String, any Error>?
    /// The Done links' address and key (made on first use), and the Gmail accounts.
    package let links: DigestLinks

    /// The service of a configuration with a `[digest]` section; throws a
    /// configuration error (78) when there is none. (A malformed `smtp` was
    /// refused when the configuration was loaded.)
    package init(setup: RunSetup) throws {
        guard let settings = setup.config.digest else {
            throw SimpleError(.config, "\(setup.config.path) has no [digest] section; add one with to, from and smtp (see man triage.conf)")
        }
        self.setup = setup
        self.settings = settings
        endpoint = settings.smtp
        links = try DigestCommands.links(setup: setup, settings: settings)
    }

    package var dispatcher: DigestDispatcher {
        var dispatcher = DigestDispatcher(store: setup.store, settings: settings, timeZone: setup.timeZone)
        dispatcher.links = links
        return dispatcher
    }

    /// The delivery for `[digest] smtp`, with the login when `user` is set.
    package func delivery() throws -> any MailDelivery {
        if case .sendmail(let path) = endpoint {
            return SendmailDelivery(path: path, timeout: settings.commandTimeout ?? SendmailDelivery.defaultTimeout)
        }
        var credentials: SMTPCredentials?
        if let user = settings.user {
            let password: String
            if let prefetched = self.password {
                password = try prefetched.get()
            } else if let command = settings.passwordCommand {
                password = try Self.runPasswordCommand(command, settings: settings)
            } else if let stored = settings.password {
                password = stored
            } else {
                throw SimpleError(.config, "[digest] in \(setup.config.path) has user = \(user) but no password_command or password")
            }
            credentials = SMTPCredentials(user: user, password: password)
        }
        return MailDeliveryFactory.make(endpoint, credentials: credentials, trust: TLSTrust(caFile: setup.config.digestCAFile),
                                        tlsOff: settings.tlsOff)
    }

    /// Runs `[digest] password_command`, bounded by its `command_timeout`.
    private static func runPasswordCommand(_ command: String, settings: DigestSection) throws -> String {
        try SecretCommand.run(command, purpose: "password_command of [digest]", section: "[digest]",
                              timeout: settings.commandTimeout)
    }

    /// Runs `[digest] password_command` ahead, for `triage run` to call before it takes
    /// the store lock, when a digest is due at `now` and has something to send (or
    /// `send_empty` is on). Nil when it is not needed yet: then it runs, if at all,
    /// when the message is sent (the run may still add the first entry of the day).
    package static func prefetchPassword(setup: RunSetup, now: Date) -> Result<String, any Error>? {
        guard let settings = setup.config.digest, settings.user != nil, let command = settings.passwordCommand,
              let service = try? DigestService(setup: setup),
              let sent = try? setup.store.digestLedger.sentDays(),
              let day = service.dispatcher.schedule.dueDay(at: now, sent: sent) else { return nil }
        if !settings.sendEmpty && service.dispatcher.plan(day: day).0.isEmpty { return nil }
        return Result { try runPasswordCommand(command, settings: settings) }
    }

    /// What a failed send says: the day, the step that failed, and the cause.
    package static func failure(_ error: Error, day: CivilDate?) -> TriageError {
        let what = "digest" + (day.map { " of \($0.iso)" } ?? "")
        switch error {
        case let error as MailDeliveryError:
            return SimpleError(error.exitStatus, "\(what) not sent (step: \(error.step.rawValue)): \(error.message)")
        case let error as TriageError:
            return SimpleError(error.exitStatus, "\(what): \(error.message)")
        default:
            return SimpleError(.software, "\(what): \(error)")
        }
    }

    /// The end of `triage run`: sends the digest due now, if any. The caller says
    /// a failure (quietly or not: `QuietFailures`) and merges its exit status.
    /// `checkpoint` is called once the delivery accepted the message, before the store records it.
    /// `password` is what `prefetchPassword` returned, if anything.
    package static func sendDue(setup: RunSetup, context: Context, password: Result<String, any Error>? = nil,
                        checkpoint: @escaping @Sendable (String) -> Void = { _ in }) -> Result<DigestOutcome, SimpleError> {
        do {
            var service = try DigestService(setup: setup)
            service.password = password
            let outcome = try service.dispatcher.sendDue(now: context.now) {
                CheckpointedDelivery(inner: try service.delivery(), checkpoint: checkpoint)
            }
            setup.report(outcome.problems, context)
            return .success(outcome)
        } catch {
            let failure = failure(error, day: nil)
            return .failure(SimpleError(failure.exitStatus, failure.message))
        }
    }
}
