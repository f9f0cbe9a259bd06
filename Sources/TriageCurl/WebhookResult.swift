/// The outcome of one webhook POST; a failure is retried by a later run.
public enum WebhookResult: Sendable, Hashable {
    /// The server answered with a 2xx status.
    case delivered(status: Int)
    /// It did not work, and why (names the host, never the URL's path or credentials).
    case failed(reason: String)

    /// Whether the POST succeeded.
    public var succeeded: Bool {
        if case .delivered = self { return true }
        return false
    }
}
