import Foundation
import TriageCore

/// Turns run events into output: warnings and failed actions always go to
/// standard error (cron mails them); decisions and counts only with `--verbose`
/// or `--dry-run`. A successful quiet run prints nothing.
package final class RunPrinter: @unchecked Sendable {
    private let context: Context
    private let verbose: Bool
    private let dryRun: Bool
    /// The current account's move targets that do not exist (`--dry-run` finds them):
    /// shown as a move that cannot happen, not as "would move".
    package var missingFolders: Set<String> = []

    package init(context: Context, verbose: Bool, dryRun: Bool) {
        self.context = context
        self.verbose = verbose
        self.dryRun = dryRun
    }

    package func report(_ event: RunEvent) {
        switch event {
        case let .note(account, mailbox, text):
            if verbose || dryRun { context.out("\(account)/\(mailbox): \(text)\n") }
        case let .warning(account, mailbox, text):
            context.err("triage: \(account)/\(mailbox): \(text)\n")
        case let .decision(account, mailbox, uid, subject, actions):
            guard verbose || dryRun else { return }
            let what = actions.isEmpty ? "no rule matched"
                : actions.map { planned -> String in
                    if case .move(let folder) = planned.action, missingFolders.contains(folder) {
                        return "no move: folder \(String(reflecting: folder)) does not exist [\(planned.rule)]"
                    }
                    return "\(ActionFormatter.text(planned.action)) [\(planned.rule)]"
                }.joined(separator: ", ")
            let prefix = dryRun ? "would: " : ""
            context.out("\(account)/\(mailbox) \(uid) \"\(subject ?? "(no subject)")\": \(prefix)\(what)\n")
        case let .actionFailed(account, mailbox, uids, action, reason):
            context.err("triage: \(account)/\(mailbox): \(action) of UID \(UIDRanges.sequenceSet(uids)) failed: \(reason)\n")
        case let .mailboxDone(account, mailbox, processed, records):
            if verbose { context.out("\(account)/\(mailbox): \(Counted.of(processed, "message")) processed, \(Counted.of(records, "new record"))\n") }
        }
    }
}
