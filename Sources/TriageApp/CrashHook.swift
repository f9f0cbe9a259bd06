import Foundation
import TriageCore

/// A test hook: with `TRIAGE_TEST_KILL_AT=k` in the environment, the run kills
/// itself with SIGKILL at its k-th checkpoint, so tests can check that a rerun after
/// a crash at any step converges. Checkpoints: each IMAP command's answer, each file
/// the store puts in place or removes, the runner's steps (fetch, store, flags, move,
/// journal, state), each journaled COPY without MOVE (journal copy, journal copied),
/// each webhook POST and the digest delivery; in a CalDAV sync each PUT, DELETE and
/// MKCALENDAR and each save of the sync state. Before dying it says
/// which step it was on standard error (`triage: test hook: killed at step 7 (UID COPY)`).
/// Without the variable it does nothing.
package final class CrashHook: @unchecked Sendable {
    private let killAt: Int?
    private let lock = NSLock()
    private var count = 0

    /// Says the step on standard error before dying (the executable's stream).
    private let say: @Sendable (String) -> Void

    package init(killAt: Int?, say: @escaping @Sendable (String) -> Void) {
        self.killAt = killAt
        self.say = say
    }

    /// Whether the hook is armed (the checkpoints are worth installing).
    package var isArmed: Bool { killAt != nil }

    /// A second test hook: with `TRIAGE_TEST_CRASH_SUBJECT=TEXT`, the run dies (SIGKILL)
    /// as soon as it has parsed a message whose Subject contains TEXT, as a trap on a
    /// crafted message would; the poison-message tests show the next runs skip it.
    package static func messageHook(_ setting: String?, say: @escaping @Sendable (String) -> Void) -> ((Message) -> Void)? {
        guard let setting, !setting.isEmpty else { return nil }
        return { message in
            guard message.subject?.contains(setting) ?? false else { return }
            say("triage: test hook: crashed on a message (\(setting))\n")
            kill(getpid(), SIGKILL)
        }
    }

    package func checkpoint(_ step: String) {
        guard let killAt else { return }
        lock.lock()
        count += 1
        let now = count
        lock.unlock()
        if now >= killAt {
            say("triage: test hook: killed at step \(now) (\(step))\n")
            kill(getpid(), SIGKILL)
        }
    }
}
