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
