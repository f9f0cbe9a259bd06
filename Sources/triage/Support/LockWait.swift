import Foundation
import TriageCore

/// How the interactive commands (`queue done`, `remind add` and the like) take the
/// store lock: a cron run holds it for a moment, so they wait up to `seconds`,
/// saying so on standard error once, rather than fail at once with 75.
enum LockWait {
    /// How long an interactive command waits for the lock.
    static let seconds = 5.0

    /// Runs `body` holding `store`'s lock, waited for as above. Still held after
    /// the wait: `StoreError.locked` (75) naming the holder.
    static func holding<T>(_ store: Store, context: Context, _ body: () throws -> T) throws -> T {
        // Elapsed time on the monotonic clock (as `BoundedCommand`): not the wall clock `--now` moves.
        let start = ContinuousClock.now
        var said = false
        while true {
            do {
                try store.lock()
                break
            } catch StoreError.locked(let root, let pid) {
                guard ContinuousClock.now - start < .milliseconds(Int(seconds * 1000)) else { throw StoreError.locked(store: root, pid: pid) }
                if !said {
                    let who = pid.map { "process \($0)" } ?? "another process"
                    context.err("triage: waiting for the store lock held by \(who) (a running triage run?), "
                        + "up to \(Int(seconds)) s...\n")
                    said = true
                }
                usleep(100_000)
            }
        }
        defer { store.unlock() }
        return try body()
    }
}
