import CChildGroup
import Foundation
import TriageApp
import TriageConfig
import TriageCore

/// `triage watch`: stays connected and processes new mail within seconds, with
/// IMAP IDLE (RFC 2177), through the same runner, rules and store as `triage run`.
enum WatchCommand: Command {
    static let spec = CommandSpec(
        name: "watch",
        summary: "stay connected and process new mail as it arrives (IMAP IDLE)",
        usage: ["watch [--config FILE] [--account NAME] [--verbose]"],
        about: """
        Keeps one connection per configured mailbox, and per folder the rules'
        Sieve script files into, and waits with IMAP IDLE for
        the server to announce new mail, which it then processes exactly as
        `triage run` does (same rules, store and state: nothing is done twice,
        and `run` may still be used beside it). Without IDLE on the server, and for
        maildir: accounts, it looks every poll_interval seconds (default 60). Sends
        the day's digest at its hour, and syncs CalDAV as run does: on starting,
        after every pass that took mail, and at least every [caldav NAME] interval
        seconds (default 300) for what changed on the phone. Each pass is a run for
        'triage status', and quiet_failures applies as in run. A lost connection (server restart, network
        down, no answer, password refused, closed right after login) is tried
        again after growing pauses (1 s doubling up to 5 minutes, until a
        connection stays up a minute), said once on standard error; the mail that
        arrived meanwhile is processed then. A mailbox gets at most one pass a
        second. SIGTERM or SIGINT end it after the batch under way, with exit
        status 0. See docs/watch.md.
        """,
        options: [
            .flag("-v", "--verbose", help: "say how each mailbox is watched, and per-message decisions"),
            .value("--account", "NAME", help: "only this account"),
            .config,
        ],
        notes: """
        Exit status: 0 after SIGTERM or SIGINT; 64 usage error; 66 no configuration
        file; 75 the operating system refused what watching needs; 78 configuration
        or rule errors, or no account to watch. Trouble with a server never ends it.
        """)

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        try a.expectNoPositional()
        let verbose = a.has("--verbose")
        let (setup, context) = try RunSetup.load(a, context: context, withRules: true)
        var accounts = setup.config.accounts
        if let only = a.value("--account") {
            accounts = accounts.filter { $0.name == only }
            guard !accounts.isEmpty else { throw SimpleError(.usage, "watch: no [account \(only)] in \(setup.config.path)") }
        }
        guard accounts.contains(where: { !$0.mailboxes.isEmpty }) else {
            throw SimpleError(.config, "\(setup.config.path): no [account NAME] section with a mailbox to watch; "
                              + "add one (\(ShippedFiles.exampleHint))")
        }
        // Before anything else: the signals stay blocked outside the waits (see CChildGroup.h).
        guard triage_stop_install() == 0 else {
            throw SimpleError(.tempFail, "watch: could not install the SIGTERM and SIGINT handler (errno \(errno))")
        }
        // A status change a crash cut short (see `run`): cleared once, under the lock.
        do {
            guard try LockWait.lock(setup.store, seconds: nil, giveUp: { triage_stop_requested() != 0 }) else { return .ok }
            defer { setup.store.unlock() }
            try setup.store.finishInterruptedUpdates()
        }
        return WatchLoop(setup: setup, context: context, accounts: accounts, verbose: verbose,
                         policy: context.hooks.reconnectPolicy).run()
    }
}
