import TriageCore

/// A test hook: with `TRIAGE_TEST_TIME_SCALE=s` in the environment (0 < s ≤ 1),
/// `triage watch` runs its reconnect policy s times as fast (the pauses between
/// attempts and the minute a connection must stay up to end an outage), so a test
/// sees a whole outage, its end and the next in seconds. Read once, through
/// `Context.environment`, as `CrashHook` is. Without it (or with any other value),
/// the real durations.
enum WatchTimeScale {
    static let variable = "TRIAGE_TEST_TIME_SCALE"

    /// The reconnect policy for `environment`.
    static func policy(_ environment: [String: String]) -> ReconnectPolicy {
        guard let text = environment[variable], let scale = Double(text), scale > 0, scale <= 1 else {
            return ReconnectPolicy()
        }
        return .scaled(scale)
    }
}
