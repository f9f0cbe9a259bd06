@testable import TriageCore
import XCTest

/// The snippet fetch's named fields (`HEADER.FIELDS`) are put before the text prefix
/// for the MIME parse: whatever the server sent, they must end in the blank line that
/// ends a header block, or the text would be read as more header fields.
final class SnippetHeaderBlockTests: XCTestCase {
    private func block(_ text: String) -> String {
        String(decoding: MailboxRunner.headerBlock(Array(text.utf8)), as: UTF8.self)
    }

    func testEveryAnswerEndsInOneBlankLine() {
        // An empty answer (no such fields; some servers leave out even the blank line).
        XCTAssertEqual(block(""), "\r\n")
        XCTAssertEqual(block("\r\n"), "\r\n")
        XCTAssertEqual(block("\n"), "\n")
        // The usual answer, with the blank line, in CRLF or LF.
        XCTAssertEqual(block("Content-Type: text/plain\r\n\r\n"), "Content-Type: text/plain\r\n\r\n")
        XCTAssertEqual(block("Content-Type: text/plain\n\n"), "Content-Type: text/plain\n\n")
        // Without it, or cut after the last field's line end.
        XCTAssertEqual(block("Content-Type: text/plain\r\n"), "Content-Type: text/plain\r\n\r\n")
        XCTAssertEqual(block("Content-Type: text/plain"), "Content-Type: text/plain\r\n\r\n")
    }
}
