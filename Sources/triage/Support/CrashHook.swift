import Foundation

/// A test hook: with `TRIAGE_TEST_KILL_AT=k` in the environment, the run kills
/// itself with SIGKILL at its k-th checkpoint (store write, server command, state
/// save), so tests can check that a rerun after a crash at any step converges.
/// Without the variable it does nothing.
final class CrashHook: @unchecked Sendable {
    private let killAt: Int?
    private var count = 0

    init(_ setting: String?) {
        killAt = setting.flatMap(Int.init)
    }

    func checkpoint(_ step: String) {
        guard let killAt else { return }
        count += 1
        if count >= killAt { kill(getpid(), SIGKILL) }
    }
}
