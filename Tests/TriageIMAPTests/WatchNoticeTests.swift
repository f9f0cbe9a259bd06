@testable import TriageIMAP
import XCTest

/// What `triage watch` reads off an IMAP connection (issue 26): the notices NOTIFY
/// sends, however the bytes are cut into reads; the names in `* STATUS`; and which
/// refused logins mean "too many connections".
final class WatchNoticeTests: XCTestCase {
    private func collect(_ text: String, cutEvery step: Int, selected: String? = nil) -> [(line: String, selected: String?)] {
        let guard_ = StreamGuard(tracer: nil, maxBytes: 1 << 20, deadline: .seconds(60))
        guard_.collectsNotices = true
        guard_.selectedMailbox = selected
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + step)
            bytes[start..<end].withUnsafeBytes { guard_.collectNotices($0) }
            start = end
        }
        return guard_.takeNotices().lines.map { (String(decoding: $0.line, as: UTF8.self), $0.selected) }
    }

    func testStatusNoticesAreKeptWhateverTheReads() {
        let answer = "* STATUS Lists (MESSAGES 1 UIDNEXT 3)\r\n* 2 FETCH (FLAGS (\\Seen))\r\n"
            + "* STATUS \"Work mail\" (MESSAGES 0 UIDNEXT 2)\r\n9 OK Idle completed.\r\n"
        for step in [1, 2, 7, 1000] {
            let kept = collect(answer, cutEvery: step)
            XCTAssertEqual(kept.map(\.line), ["* STATUS Lists (MESSAGES 1 UIDNEXT 3)", "* STATUS \"Work mail\" (MESSAGES 0 UIDNEXT 2)"],
                           "reads of \(step) bytes")
        }
    }

    func testExistsCountsOnlyWithAMailboxOpenAndSaysWhich() {
        XCTAssertTrue(collect("* 3 EXISTS\r\n* 0 RECENT\r\n", cutEvery: 5).isEmpty, "SELECT's own EXISTS")
        let kept = collect("* 3 EXISTS\r\n* 1 EXPUNGE\r\n", cutEvery: 5, selected: "INBOX")
        XCTAssertEqual(kept.map(\.line), ["* 3 EXISTS"])
        XCTAssertEqual(kept.map(\.selected), ["INBOX"])
    }

    func testALineInsideALiteralStartsNoNotice() {
        // Not at a line start: no notice.
        XCTAssertTrue(collect("* 1 FETCH (BODY[TEXT] {30}\r\nsee * STATUS INBOX (MESSAGES 1)\r\n)\r\n", cutEvery: 3).isEmpty)
    }

    func testStatusNames() {
        XCTAssertEqual(IMAPConnection.statusName("INBOX (MESSAGES 1)"), "INBOX")
        XCTAssertEqual(IMAPConnection.statusName("\"Work \\\"mail\\\"\" (MESSAGES 1)"), "Work \"mail\"")
        XCTAssertNil(IMAPConnection.statusName("{5}"))
        XCTAssertNil(IMAPConnection.statusName("\"unterminated"))
    }

    func testTooManyConnectionsIsToldFromOtherRefusals() {
        XCTAssertEqual(IMAPConnection.connectionLimit(
            text: "Maximum number of connections from user+IP exceeded (mail_max_userip_connections=2)",
            line: "3 NO [LIMIT] Maximum number of connections from user+IP exceeded"),
            "[LIMIT] Maximum number of connections from user+IP exceeded (mail_max_userip_connections=2)")
        XCTAssertNotNil(IMAPConnection.connectionLimit(text: "Maximum number of connections from user+IP exceeded",
                                                       line: "3 NO [UNAVAILABLE] Maximum number of connections"))
        XCTAssertNotNil(IMAPConnection.connectionLimit(text: "Too many connections", line: "a NO Too many connections"))
        XCTAssertNotNil(IMAPConnection.connectionLimit(text: "", line: "a NO [LIMIT]"))
        XCTAssertNil(IMAPConnection.connectionLimit(text: "Authentication failed.", line: "3 NO [AUTHENTICATIONFAILED] Authentication failed."))
        XCTAssertNil(IMAPConnection.connectionLimit(text: "Temporary authentication failure.",
                                                    line: "3 NO [UNAVAILABLE] Temporary authentication failure."))
        // A server's words never reach the terminal raw.
        XCTAssertFalse(IMAPConnection.connectionLimit(text: "Too many connections\u{1b}[2J", line: "")?.contains("\u{1b}") ?? true)
    }
}
