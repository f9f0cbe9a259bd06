import TriageCore

/// The test hooks, one value read once from the environment by the executable's
/// `main` (nothing else reads `TRIAGE_TEST_*` or the other switches below):
///
/// - `TRIAGE_TEST_KILL_AT=k`: the run kills itself at its k-th checkpoint (`CrashHook`).
/// - `TRIAGE_TEST_CRASH_SUBJECT=TEXT`: dies on parsing a message whose Subject contains TEXT.
/// - `TRIAGE_TEST_TIME_SCALE=s` (0 < s ≤ 1): `watch` runs its reconnect policy and its
///   CalDAV interval s times as fast, so a test sees them in seconds.
/// - `TRIAGE_WHOLE_SNIPPET=1`, `TRIAGE_WHOLE_HEADER=1`: fetch each text, each header whole
///   (the tests compare both ways); `TRIAGE_TRACE=1` with `--verbose`: the IMAP trace.
package struct TestHooks: Sendable {
    /// The checkpoint at which to die, if any.
    package var killAt: Int?
    /// The Subject text to die on, if any.
    package var crashSubject: String?
    /// The factor for `watch`'s durations (1: the real ones).
    package var timeScale = 1.0
    /// Fetch every record's text at full length.
    package var wholeSnippet = false
    /// Fetch every header whole.
    package var wholeHeader = false
    /// Trace IMAP with `--verbose`.
    package var trace = false

    package init() {}

    /// The hooks `environment` sets; anything malformed is no hook.
    package init(environment: [String: String]) {
        killAt = environment["TRIAGE_TEST_KILL_AT"].flatMap(Int.init)
        if let subject = environment["TRIAGE_TEST_CRASH_SUBJECT"], !subject.isEmpty { crashSubject = subject }
        if let text = environment["TRIAGE_TEST_TIME_SCALE"], let scale = Double(text), scale > 0, scale <= 1 {
            timeScale = scale
        }
        wholeSnippet = environment["TRIAGE_WHOLE_SNIPPET"] == "1"
        wholeHeader = environment["TRIAGE_WHOLE_HEADER"] == "1"
        trace = environment["TRIAGE_TRACE"] == "1"
    }

    /// `watch`'s reconnect policy: the real durations, or scaled by `timeScale`.
    package var reconnectPolicy: ReconnectPolicy {
        timeScale < 1 ? .scaled(timeScale) : ReconnectPolicy()
    }

    /// The crash hook these hooks arm (or not), saying its step on `output`'s standard error.
    package func crashHook(_ output: any OutputSink) -> CrashHook {
        CrashHook(killAt: killAt, say: { output.err($0) })
    }
}
