import Foundation
import TriageCalDAV
import TriageCore
import TriageCurl

/// Syncs every `[caldav NAME]` of the configuration (`triage sync`, and the end of
/// `triage run`): reads each password, runs `CalDAVSync`, prints what it did. A
/// failing server is reported and the others still sync; the status is the worst.
package enum CalDAVService {
    /// Syncs all sections, or those named in `only`; the caller holds the store's lock.
    package static func syncAll(setup: RunSetup, context: Context, dryRun: Bool, verbose: Bool,
                        checkpoint: (@Sendable (String) -> Void)?, only: Set<String>? = nil) -> ExitStatus {
        var worst = ExitStatus.ok
        for section in setup.config.caldav where only?.contains(section.name) ?? true {
            do {
                let report = try sync(section, setup: setup, context: context, dryRun: dryRun, verbose: verbose, checkpoint: checkpoint)
                if verbose || dryRun {
                    context.out("caldav \(section.name): \(dryRun ? "dry run, nothing changed" : "synced"): "
                                + "\(report.created) added, \(report.updated) updated, \(report.deleted) deleted on the server; "
                                + "\(report.changedHere) changed here; \(Counted.of(report.conflicts, "conflict"))\n")
                }
                if report.deferred > 0 { worst = max(worst, .tempFail) }
                if !dryRun {
                    record(section.name, setup: setup, context: context, failure: report.deferred == 0 ? nil
                           : (.tempFail, "\(Counted.of(report.deferred, "change")) could not be made on the server; the next sync tries again"))
                }
            } catch let error as TriageError {
                context.err("triage: caldav \(section.name): \(error.message)\n")
                worst = max(worst, error.exitStatus)
                if !dryRun { record(section.name, setup: setup, context: context, failure: (error.exitStatus, error.message)) }
            } catch {
                context.err("triage: caldav \(section.name): \(error)\n")
                worst = max(worst, .tempFail)
                if !dryRun { record(section.name, setup: setup, context: context, failure: (.tempFail, "\(error)")) }
            }
        }
        return worst
    }

    /// Notes the sync of `name` in the run record for `triage status`: when, and the
    /// failure going on (said already on standard error). The caller holds the store lock.
    private static func record(_ name: String, setup: RunSetup, context: Context, failure: (ExitStatus, String)?) {
        var record = RunRecord.load(store: setup.store.root)
        var source = record.caldav[name] ?? RunRecord.Source()
        let stamp = Timestamp(context.now, timeZone: setup.timeZone)
        source.lastRun = stamp
        if let (status, message) = failure {
            let previous = source.failure
            source.failure = RunRecord.Failure(exitStatus: status.rawValue, message: message, since: previous?.since ?? stamp,
                                               last: stamp, runs: (previous?.runs ?? 0) + 1, reported: true)
        } else {
            source.lastSuccess = stamp
            source.failure = nil
        }
        record.caldav[name] = source
        do {
            try record.save(store: setup.store.root, durable: setup.store.synchronous)
        } catch {
            // Only history is lost: say so, the sync itself stands.
            context.err("triage: warning: cannot record the CalDAV sync for triage status: "
                        + "\((error as? TriageError)?.message ?? "\(error)")\n")
        }
    }

    private static func sync(_ section: CalDAVSection, setup: RunSetup, context: Context, dryRun: Bool, verbose: Bool,
                             checkpoint: (@Sendable (String) -> Void)?) throws -> CalDAVSync.Report {
        guard HTTPClient.isSafe(section.url) else {
            throw SimpleError(.config, "\(setup.config.path): [caldav \(section.name)] url must be https:// (plain http:// only to this machine): "
                              + "the password would cross the network in clear")
        }
        var password = section.password
        if let command = section.passwordCommand {
            password = try SecretCommand.run(command, purpose: "password_command of [caldav \(section.name)]",
                                             section: "[caldav \(section.name)]", timeout: section.commandTimeout)
        }
        let http = HTTPClient(trust: TLSTrust(caFile: section.caFile), user: section.user, password: password,
                              timeout: Double(section.timeout ?? 60))
        var client = CalDAVClient(http: http, configuredURL: section.url)
        client.checkpoint = checkpoint
        if verbose {
            client.trace = { line in context.out("caldav \(section.name): \(ControlCharacters.replaced(in: line))\n") }
        }
        var sync = CalDAVSync(section: section, client: client, store: setup.store, timeZone: setup.timeZone, now: context.now)
        sync.dryRun = dryRun
        if verbose || dryRun { sync.say = { context.out($0 + "\n") } }
        return try sync.run()
    }
}
