@testable import TriageIMAP
import XCTest

/// The stream guard's parenthesis counter: only the levels libetpan's parser would
/// recurse into count, whatever sits in literals and quoted strings, and however the
/// bytes are cut into reads.
final class NestingScannerTests: XCTestCase {
    private func scan(_ chunks: [String], limit: Int = 3) -> [Int?] {
        var scanner = NestingScanner(limit: limit)
        return chunks.map { chunk in
            Array(chunk.utf8).withUnsafeBytes { scanner.scan($0) }
        }
    }

    func testStopsAtTheFirstLevelPastTheLimit() {
        XCTAssertEqual(scan(["* 1 FETCH (BODYSTRUCTURE ((("]), [27])
        XCTAssertEqual(scan(["* 1 FETCH (BODYSTRUCTURE ((x) (y)) z)\r\n"]), [nil], "siblings do not add up")
    }

    func testCountsAcrossReads() {
        XCTAssertEqual(scan(["* 1 FETCH ((", "(x)", "(("]), [nil, nil, 1])
    }

    func testALineEndResetsTheDepth() {
        XCTAssertEqual(scan(["* 1 FETCH (((\r\n", "* 2 FETCH (((\r\n"]), [nil, nil])
    }

    func testParenthesesInLiteralsDoNotCount() {
        let header = "Subject: ((((((((((\r\n\r\n"
        XCTAssertEqual(scan(["* 1 FETCH (BODY[HEADER] {\(header.utf8.count)}\r\n" + header + ")\r\n"]), [nil])
        // Cut inside the announcement and inside the literal.
        XCTAssertEqual(scan(["* 1 FETCH (X {2", "0}\r\n((((((((((", "((((((((((", ")\r\n"]), [nil, nil, nil, nil])
        // After the literal, counting goes on where it was (one level open).
        XCTAssertEqual(scan(["* 1 FETCH (X {3+}\r\n(((", "((("]), [nil, 2])
    }

    func testParenthesesInQuotedStringsDoNotCount() {
        XCTAssertEqual(scan(["* 1 FETCH (ENVELOPE (\"((((\\\"((((\" NIL))\r\n"]), [nil])
    }

    func testABraceThatIsNoLiteralIsReadAsText() {
        XCTAssertEqual(scan(["* OK {x ((((", ""]), [11, nil])
    }
}
