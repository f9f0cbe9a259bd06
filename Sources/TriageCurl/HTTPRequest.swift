/// One HTTP request, as `HTTPClient` sends it.
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
