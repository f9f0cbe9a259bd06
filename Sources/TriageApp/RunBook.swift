import Foundation
import TriageCore

/// The run record of one pass (`state/.run-status.json`, what `triage status` shows)
/// and what `QuietFailures` lets it say: `run` keeps one per run, `watch` one per pass.
package final class RunBook {
    /// The record as loaded, then as this pass changed it.
    package var record: RunRecord
    /// The policy (`[triage] quiet_failures`; off in a dry run, which says everything).
    package let quiet: QuietFailures
    /// This pass's time, in the configured zone.
    package let stamp: Timestamp
    private let setup: RunSetup
    private let context: Context
    private let dryRun: Bool

    /// The book of a pass at `context.now`, with the record as the store holds it.
    package init(setup: RunSetup, context: Context, dryRun: Bool) {
        self.setup = setup
        self.context = context
        self.dryRun = dryRun
        record = RunRecord.load(store: setup.store.root)
        quiet = QuietFailures(threshold: dryRun ? nil : setup.config.triage.quietFailures)
        stamp = Timestamp(context.now, timeZone: setup.timeZone)
    }

    /// Settles `source` (`label`: "account home", "digest") with `failure` or success, and
    /// says on standard error what `QuietFailures` says (unless `say` is false: `watch`
    /// speaks for a lost connection itself when quiet_failures is off). With
    /// quiet_failures, an ongoing failure goes into the digest's Problems (`inDigest`).
    /// Returns the line said, if any.
    @discardableResult
    package func settle(_ source: inout RunRecord.Source, _ label: String, _ failure: TriageError?, inDigest: Bool = true,
                        say: Bool = true) -> String? {
        let said = quiet.settle(&source, label: label, failure: failure.map { ($0.exitStatus, $0.message) }, now: stamp)
        if say, let said { context.err("triage: \(said)\n") }
        // With quiet_failures, always in the digest's Problems (once a day), also when kept
        // quiet here; without it, standard error (cron's mail) says every failure already.
        guard inDigest, quiet.threshold != nil, let ongoing = source.failure else { return said }
        var batch = StoreBatch()
        batch.add(RunRecord.problemEntry(label: label, failure: ongoing, now: stamp))
        do { _ = try setup.store.write(batch) } catch {
            let why = (error as? TriageError)?.message ?? "\(error)"
            context.err("triage: warning: cannot note the failure for the digest: \(why)\n")
        }
        return said
    }

    /// Saves the record; a failure only loses history, and is said.
    package func save() {
        do {
            try record.save(store: setup.store.root, durable: setup.store.synchronous)
        } catch let error as TriageError {
            // Only history is lost: say so, but the mail was handled.
            context.err("triage: warning: cannot record the run for triage status: \(error.message)\n")
        } catch {
            context.err("triage: warning: cannot record the run for triage status: \(error)\n")
        }
    }
}
