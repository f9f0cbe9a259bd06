import Foundation
import TriageCurl
import XCTest

/// WebhookPoster against a loopback HTTP(S) server.
final class WebhookPosterTests: XCTestCase {
    private var server: WebhookTestServer!

    override func setUpWithError() throws {
        server = try WebhookTestServer.shared()
    }

    private func marker() -> String { "m-" + UUID().uuidString }

    func testPostsTheJSONBody() throws {
        let mark = marker()
        let json = #"{"rule":"boss","subject":"Ré: 日本 🚀","marker":"\#(mark)"}"#
        let result = WebhookPoster(timeout: 5).post(url: "http://127.0.0.1:\(server.httpPort)/hook?x=1", json: json)
        XCTAssertEqual(result, .delivered(status: 200))
        let requests = try server.requests(containing: mark)
        XCTAssertEqual(requests.count, 1)
        XCTAssertEqual(requests.first?.body, json)
        XCTAssertEqual(requests.first?.path, "/hook?x=1")
        XCTAssertEqual(requests.first?.headers["content-type"], "application/json")
        XCTAssertTrue(requests.first?.headers["user-agent"]?.hasPrefix("triage/") ?? false)
    }

    func testServerErrorIsAFailureWithTheStatus() throws {
        let result = WebhookPoster(timeout: 5).post(url: "http://127.0.0.1:\(server.httpPort)/status/500", json: #"{"a":1}"#)
        guard case .failed(let reason) = result else { return XCTFail("expected a failure, got \(result)") }
        XCTAssertTrue(reason.contains("HTTP 500"), reason)
        XCTAssertTrue(reason.contains("http://127.0.0.1:\(server.httpPort)"), reason)
        XCTAssertFalse(result.succeeded)
    }

    func testRefusedConnectionIsAFailureWithAReasonAndNoSecret() throws {
        let port = try LoopbackSocket.closedPort()
        let result = WebhookPoster(timeout: 5).post(url: "http://user:pa55@127.0.0.1:\(port)/hooks/secret-token-123", json: "{}")
        guard case .failed(let reason) = result else { return XCTFail("expected a failure, got \(result)") }
        XCTAssertTrue(reason.contains("cannot connect"), reason)
        XCTAssertTrue(reason.contains("127.0.0.1:\(port)"), reason)
        XCTAssertFalse(reason.contains("secret-token-123"), reason)
        XCTAssertFalse(reason.contains("pa55"), reason)
    }

    func testHTTPSIsVerified() throws {
        let url = "https://localhost:\(server.httpsPort)/hook"
        let smtp = try SMTPTestServer.shared()
        let mark = marker()
        XCTAssertEqual(WebhookPoster(trust: TLSTrust(caFile: smtp.caFile), timeout: 5).post(url: url, json: #"{"m":"\#(mark)"}"#),
                       .delivered(status: 200))
        let untrusted = marker()
        let result = WebhookPoster(timeout: 5).post(url: url, json: #"{"m":"\#(untrusted)"}"#)
        guard case .failed(let reason) = result else { return XCTFail("an untrusted certificate was accepted") }
        XCTAssertTrue(reason.contains("TLS"), reason)
        XCTAssertEqual(try server.requests(containing: mark).count, 1)
        XCTAssertEqual(try server.requests(containing: untrusted).count, 0)
    }

    func testSilentServerTimesOut() throws {
        // Listens (the kernel accepts the connection) but never answers.
        let listener = try LoopbackSocket()
        defer { listener.close() }
        XCTAssertEqual(listener.listen(), 0)
        let port = listener.port
        let start = Date()
        let result = WebhookPoster(connectTimeout: 1, timeout: 1).post(url: "http://127.0.0.1:\(port)/hook", json: "{}")
        guard case .failed(let reason) = result else { return XCTFail("expected a timeout, got \(result)") }
        XCTAssertTrue(reason.contains("timed out"), reason)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    func testOnlyHTTPAndHTTPSAreAllowed() {
        guard case .failed(let reason) = WebhookPoster().post(url: "file:///etc/passwd", json: "{}") else {
            return XCTFail("file: must be refused")
        }
        XCTAssertTrue(reason.contains("https://"), reason)
    }
}
