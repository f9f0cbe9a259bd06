import TriageCore
import XCTest

final class MailServerURLTests: XCTestCase {
    func testParsesSchemesHostsAndDefaultPorts() throws {
        XCTAssertEqual(try MailServerURL.parse("imaps://imap.example.test"),
                       MailServerURL(scheme: .imaps, host: "imap.example.test", port: 993))
        XCTAssertEqual(try MailServerURL.parse("imap://imap.example.test"),
                       MailServerURL(scheme: .imap, host: "imap.example.test", port: 143))
        XCTAssertEqual(try MailServerURL.parse("imaps://localhost:10993/"),
                       MailServerURL(scheme: .imaps, host: "localhost", port: 10993))
        XCTAssertEqual(try MailServerURL.parse("imap://[::1]:1143"), MailServerURL(scheme: .imap, host: "::1", port: 1143))
        XCTAssertEqual(try MailServerURL.parse("imaps://[::1]:993").serverName, "[::1]:993")
        XCTAssertEqual(try MailServerURL.parse("imaps://mail.example.test").serverName, "mail.example.test:993")
    }

    func testRejectsWhatIsNotAnIMAPServer() {
        for bad in ["maildir:/tmp/x", "https://example.test", "imaps://", "imaps://host:0", "imaps://host:99999",
                    "imaps://user@host", "imaps://host/INBOX", "imap://[::1", "imaps://host:abc"] {
            XCTAssertThrowsError(try MailServerURL.parse(bad), bad) { error in
                XCTAssertEqual((error as? MailError)?.kind, .configuration)
                XCTAssertEqual((error as? MailError)?.exitStatus, .config)
            }
        }
    }

    func testLoopback() {
        for host in ["localhost", "127.0.0.1", "127.1.2.3", "::1", "LOCALHOST"] {
            XCTAssertTrue(MailServerURL(scheme: .imap, host: host).isLoopback, host)
        }
        for host in ["imap.example.test", "128.0.0.1", "127.0.0.1.example.test", "localhost.example.test", "10.0.0.1", "127.0.0"] {
            XCTAssertFalse(MailServerURL(scheme: .imap, host: host).isLoopback, host)
        }
    }
}
