import TriageCore
import XCTest

final class DeliveryEndpointTests: XCTestCase {
    func testParsesTheThreeForms() throws {
        XCTAssertEqual(try DeliveryEndpoint(parsing: "smtps://smtp.example.test"), .smtps(host: "smtp.example.test", port: 465))
        XCTAssertEqual(try DeliveryEndpoint(parsing: "smtp://smtp.example.test"), .smtp(host: "smtp.example.test", port: 587))
        XCTAssertEqual(try DeliveryEndpoint(parsing: "smtp://127.0.0.1:2525/"), .smtp(host: "127.0.0.1", port: 2525))
        XCTAssertEqual(try DeliveryEndpoint(parsing: "smtps://[::1]:4650"), .smtps(host: "::1", port: 4650))
        XCTAssertEqual(try DeliveryEndpoint(parsing: "file:/var/mail/triage"), .directory(path: "/var/mail/triage"))
        XCTAssertEqual(try DeliveryEndpoint(parsing: "smtps://[::1]:4650").displayName, "[::1]:4650")
    }

    func testParsesSendmail() throws {
        XCTAssertEqual(try DeliveryEndpoint(parsing: "sendmail"), .sendmail(path: "/usr/sbin/sendmail"))
        XCTAssertEqual(try DeliveryEndpoint(parsing: "sendmail:/usr/bin/msmtp"), .sendmail(path: "/usr/bin/msmtp"))
        XCTAssertThrowsError(try DeliveryEndpoint(parsing: "sendmail:msmtp"))
        XCTAssertThrowsError(try DeliveryEndpoint(parsing: "sendmail:"))
    }

    func testRefusesCredentialsPathsAndBadPorts() {
        for bad in ["smtp://user:secret@host", "smtp://host/path", "smtp://host:0", "smtp://host:99999", "smtp://",
                    "http://host", "smtp://ho st", "smtp://::1", "file:", "smtp://host:25?x=1"] {
            XCTAssertThrowsError(try DeliveryEndpoint(parsing: bad), bad) { error in
                XCTAssertEqual((error as? ConfigError)?.exitStatus, .config)
                XCTAssertFalse((error as? ConfigError)?.message.contains("secret") ?? true, "a password must not be echoed")
            }
        }
    }
}
