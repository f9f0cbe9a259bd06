/// One HTTP request and its answer, as `HTTPClient` sends and receives it.
public struct HTTPRequest: Sendable {
    /// The method (`PROPFIND`, `REPORT`, `PUT`, `DELETE`, `MKCALENDAR`, `GET`).
    public var method: String
    /// The absolute URL.
    public var url: String
    /// Extra header lines (`Depth: 1`, `If-Match: "x"`).
    public var headers: [String]
    /// The body, or nil for none.
    public var body: String?

    /// Creates a request.
    public init(_ method: String, _ url: String, headers: [String] = [], body: String? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// An HTTP answer: status, the header fields triage reads, and the (bounded) body.
public struct HTTPResponse: Sendable {
    /// The status code (207, 404, 412).
    public var status: Int
    /// Header fields by lower-cased name (the last one of a name wins).
    public var headers: [String: String]
    /// The body.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether the status is 2xx.
    public var ok: Bool { (200..<300).contains(status) }
}

/// Why an HTTP request got no answer (not: an answer with an error status).
public struct HTTPFailure: Error, Sendable {
    /// What happened, naming the origin only (never a path, query or password).
    public var reason: String
    /// Whether it was the server's certificate (exit 75 like any server trouble, but worth saying).
    public var tls: Bool
}
