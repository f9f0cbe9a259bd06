/// Where the app's output goes: the executable's standard streams (the only place
/// that prints), or a test's buffer. Text arrives with its controls already replaced
/// (`Context.out`, `Context.err`).
package protocol OutputSink: Sendable {
    /// Standard output: what a command shows.
    func out(_ text: String)
    /// Standard error: warnings and failures.
    func err(_ text: String)
}
