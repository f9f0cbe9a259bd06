import Foundation

/// A loopback HTTP and HTTPS server for webhook tests (Tests/Servers/httpd.py),
/// started once per test run. HTTPS uses the SMTP test server's certificate,
/// so `SMTPTestServer.caFile` verifies it. A POST to `/status/NNN` is answered
/// with that status, one to `/stall/N` only after N seconds; every POST is
/// recorded as JSON in `requestsDirectory` when it arrives.
final class WebhookTestServer: @unchecked Sendable {
    /// The server of this test run, started on first use.
    static func shared() throws -> WebhookTestServer {
        lock.lock()
        defer { lock.unlock() }
        if let server = instance { return server }
        let server = try WebhookTestServer()
        instance = server
        return server
    }

    private nonisolated(unsafe) static var instance: WebhookTestServer?
    private static let lock = NSLock()
    private let process: PythonTestServerProcess

    private init() throws {
        let smtp = try SMTPTestServer.shared()
        process = try PythonTestServerProcess(script: "httpd.py", arguments: [smtp.serverCertificate, smtp.serverKey])
    }

    /// Plain HTTP port.
    var httpPort: Int { process.int("http") }
    /// Three more plain HTTP ports of the same server (other hosts, as far as triage can tell).
    var moreHTTPPorts: [Int] { process.ints("http_more") }
    /// HTTPS port.
    var httpsPort: Int { process.int("https") }
    /// Where requests are recorded.
    var requestsDirectory: String { process.string("requests") }

    /// One recorded request.
    struct Request: Decodable {
        var path: String
        var headers: [String: String]
        var body: String
    }

    /// The recorded requests whose path contains `marker`.
    func requests(pathContaining marker: String) throws -> [Request] {
        try all().filter { $0.path.contains(marker) }
    }

    /// The recorded requests whose body contains `marker`.
    func requests(containing marker: String) throws -> [Request] {
        try all().filter { $0.body.contains(marker) }
    }

    /// Every recorded request, in order.
    private func all() throws -> [Request] {
        let names = try FileManager.default.contentsOfDirectory(atPath: requestsDirectory)
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
        return try names.map {
            try JSONDecoder().decode(Request.self, from: Data(contentsOf: URL(fileURLWithPath: requestsDirectory).appendingPathComponent($0)))
        }
    }
}
