import Foundation
import TriageCurl
import XCTest

/// The CalDAV sync's HTTP client (TriageCurl's `HTTPClient`) against a real loopback
/// server: bounded in time and in the size of an answer, TLS verified by triage's
/// policy, and a password never sent in clear to another machine. (The test server
/// answers POST only; the bounds are the same for every method.)
final class HTTPClientBoundsTests: XCTestCase {
    func testAStalledServerTimesOut() throws {
        let server = try WebhookTestServer.shared()
        let client = HTTPClient(connectTimeout: 2, timeout: 1)
        let started = Date()
        XCTAssertThrowsError(try client.send(HTTPRequest("POST", "http://127.0.0.1:\(server.httpPort)/stall/5", body: "<x/>"))) { error in
            XCTAssertTrue((error as? HTTPFailure)?.reason.contains("timed out after 1 s") == true, "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 4)
    }

    func testAnAnswerBeyondTheLimitIsRefused() throws {
        let server = try WebhookTestServer.shared()
        let url = "http://127.0.0.1:\(server.httpPort)/status/207"
        let small = HTTPClient(maxResponseBytes: 5)
        XCTAssertThrowsError(try small.send(HTTPRequest("POST", url, body: "<x/>"))) { error in
            XCTAssertTrue((error as? HTTPFailure)?.reason.contains("larger than 5 bytes") == true, "\(error)")
        }
        let enough = try HTTPClient(maxResponseBytes: 1000).send(HTTPRequest("POST", url, body: "<x/>"))
        XCTAssertEqual(enough.status, 207)
        XCTAssertEqual(String(decoding: enough.body, as: UTF8.self), #"{"ok": true}"#)
    }

    func testTLSIsVerifiedAndAPasswordNeverGoesInClearElsewhere() throws {
        let server = try WebhookTestServer.shared()
        let smtp = try SMTPTestServer.shared()
        let url = "https://localhost:\(server.httpsPort)/status/200"
        let trusted = try HTTPClient(trust: TLSTrust(caFile: smtp.caFile), user: "me", password: "pw").send(HTTPRequest("POST", url, body: "x"))
        XCTAssertEqual(trusted.status, 200)
        XCTAssertThrowsError(try HTTPClient(user: "me", password: "pw").send(HTTPRequest("POST", url, body: "x"))) { error in
            XCTAssertEqual((error as? HTTPFailure)?.tls, true, "\(error)")
        }
        XCTAssertThrowsError(try HTTPClient(user: "me", password: "pw").send(HTTPRequest("PUT", "http://192.0.2.1/x", body: "x"))) { error in
            XCTAssertTrue((error as? HTTPFailure)?.reason.contains("refusing plain http://") == true, "\(error)")
        }
    }
}
