import Foundation
import TriageCore

/// Taking the store lock when another triage may hold it for a moment: a cron run
/// or `triage watch` (which holds it only while it processes a batch). `run` waits
/// for it quietly (cron mails whatever is said), the interactive commands say that
/// they wait, and `watch` waits for a `run` to finish.
package enum LockWait {
    /// How long an interactive command (`queue done`, `remind add` and the like) waits.
    package static let seconds = 5.0
    /// How long `triage run` waits for the lock before it gives up (exit 75).
    package static let runSeconds = 10.0

    /// Takes `store`'s lock, trying again every 0.1 s for up to `seconds` (forever
    /// when nil) while `giveUp` says no; `waiting` is called once, with the holder's
    /// pid, when the first try finds the lock held. Throws `StoreError.locked` when
    /// the time is up, and every other store error at once. Returns false when
    /// `giveUp` said yes.
    @discardableResult
    package static func lock(_ store: Store, seconds: Double?, giveUp: () -> Bool = { false },
                     waiting: (Int32?) -> Void = { _ in }) throws -> Bool {
        // Elapsed time on the monotonic clock: not the wall clock `--now` moves.
        let start = ContinuousClock.now
        var said = false
        while true {
            do {
                try store.lock()
                return true
            } catch StoreError.locked(let root, let pid) {
                if let seconds, ContinuousClock.now - start >= .milliseconds(Int(seconds * 1000)) {
                    throw StoreError.locked(store: root, pid: pid)
                }
                if giveUp() { return false }
                if !said {
                    waiting(pid)
                    said = true
                }
                usleep(100_000)
            }
        }
    }

    /// Runs `body` holding `store`'s lock, waited for up to `seconds`, saying so on
    /// standard error once. Still held after the wait: `StoreError.locked` (75).
    package static func holding<T>(_ store: Store, context: Context, _ body: () throws -> T) throws -> T {
        try lock(store, seconds: seconds, waiting: { pid in
            let who = pid.map { "process \($0)" } ?? "another process"
            context.err("triage: waiting for the store lock held by \(who) (a running triage run?), "
                + "up to \(Int(seconds)) s...\n")
        })
        defer { store.unlock() }
        return try body()
    }
}
