/// Why an HTTP request got no answer (not: an answer with an error status).
public struct HTTPFailure: Error, Sendable {
    /// What happened, naming the origin only (never a path, query or password).
    public var reason: String
    /// Whether it was the server's certificate (exit 75 like any server trouble, but worth saying).
    public var tls: Bool
}
