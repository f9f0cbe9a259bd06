import Foundation
import TriageCore

/// Taking the store lock when another triage may hold it for a moment: `triage
/// watch` holds it only while it processes a batch, so `run` waits that long
/// rather than fail, and `watch` waits for a `run` to finish.
enum LockWait {
    /// How long `triage run` waits for the lock before it gives up (exit 75).
    static let runSeconds = 10.0

    /// Takes `store`'s lock, trying again every 0.2 s for up to `seconds` (forever
    /// when nil) while `giveUp` says no. Throws `StoreError.locked` when the time
    /// is up, and every other store error at once. Returns false when `giveUp` said yes.
    @discardableResult
    static func lock(_ store: Store, seconds: Double?, giveUp: () -> Bool = { false }) throws -> Bool {
        let deadline = seconds.map { Date().addingTimeInterval($0) }
        while true {
            do {
                try store.lock()
                return true
            } catch StoreError.locked where deadline.map({ Date() < $0 }) ?? true {
                if giveUp() { return false }
                usleep(200_000)
            }
        }
    }
}
