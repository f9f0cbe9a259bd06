import Foundation
import TriageApp
import TriageCore

/// `triage sync`: two-way CalDAV sync of reminders and queues (docs/caldav.md).
enum SyncCommand: Command {
    static let spec = CommandSpec(
        name: "sync",
        summary: "sync reminders and queues with CalDAV task lists (the phone)",
        usage: ["sync [--dry-run] [--verbose] [--config FILE]"],
        about: """
        Puts each open reminder (and each entry of the queues named in [caldav NAME])
        on the server's task list as a VTODO with its due day, time alarm and geofence,
        and reads back what the phone did: checked off or deleted there is done here;
        a title, due day or note edited there is taken over. Done, reopened or removed
        here is completed, reopened or deleted there. Items triage did not put there
        are never touched. 'triage run' syncs at its end too.
        """,
        options: [
            .flag("-n", "--dry-run", help: "say what would change on either side; change nothing"),
            .flag("-v", "--verbose", help: "each request, each change and each conflict"),
            .config,
        ],
        notes: "Exit status: 0 success; 64 usage error; 65 an unreadable sync state; 66 no configuration file; "
            + "75 a server that cannot be reached or answers wrongly, or another triage holds the store's lock; "
            + "77 the server refused the login; 78 a configuration problem (no [caldav NAME] section, a missing list "
            + "with create_lists = no, a server that redirects or points to another origin than url's).")

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        guard a.positional.isEmpty else {
            throw SimpleError(.usage, "sync: unexpected '\(a.positional[0])'; usage: triage sync [--dry-run] [--verbose]")
        }
        let (setup, context) = try RunSetup.load(a, context: context)
        guard !setup.config.caldav.isEmpty else {
            throw SimpleError(.config, "\(setup.config.path): no [caldav NAME] section; add one to sync (see docs/caldav.md)")
        }
        let hook = context.hooks.crashHook(context.output)
        let crashHook: @Sendable (String) -> Void = { hook.checkpoint($0) }
        let dryRun = a.has("--dry-run")
        if !dryRun {
            try setup.store.lock()
            if hook.isArmed { setup.store.checkpoint = crashHook }
        }
        defer { if !dryRun { setup.store.unlock() } }
        if !dryRun { try setup.store.finishInterruptedUpdates() }
        return CalDAVService.syncAll(setup: setup, context: context, dryRun: dryRun, verbose: a.has("--verbose"),
                                     checkpoint: hook.isArmed ? crashHook : nil)
    }
}
