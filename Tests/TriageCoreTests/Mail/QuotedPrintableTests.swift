@testable import TriageCore
import XCTest

final class QuotedPrintableTests: XCTestCase {
    func testLinesStayWithin76AndDecodeBack() {
        let text = String(repeating: "é日🚀 word=value\t", count: 30) + "\nshort line \n.leading dot\nFrom the start\r\nlast"
        let encoded = QuotedPrintable.encode(text)
        for line in encoded.components(separatedBy: "\r\n") {
            XCTAssertLessThanOrEqual(line.count, 76, line)
            XCTAssertTrue(line.unicodeScalars.allSatisfy { $0.value >= 32 && $0.value < 127 }, line)
            XCTAssertFalse(line.hasSuffix(" ") || line.hasSuffix("\t"), "trailing white space: \(line)")
            XCTAssertFalse(line.hasPrefix(".") || line.hasPrefix("From "), line)
        }
        XCTAssertFalse(encoded.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        let decoded = String(decoding: QuotedPrintable.decode(encoded), as: UTF8.self)
        XCTAssertEqual(decoded, text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n"))
    }

    func testKnownEncoding() {
        XCTAssertEqual(QuotedPrintable.encode("a=b café \nend"), "a=3Db caf=C3=A9=20\r\nend")
        XCTAssertEqual(QuotedPrintable.encode(".\nFrom x"), "=2E\r\n=46rom x")
    }

    func testSoftBreakNeverSplitsAnEscape() {
        let encoded = QuotedPrintable.encode(String(repeating: "é", count: 100))
        for line in encoded.components(separatedBy: "\r\n") {
            // Escapes come in threes; a line ending in "=" is a soft break after complete escapes.
            let body = line.hasSuffix("=") ? String(line.dropLast()) : line
            XCTAssertEqual(body.count % 3, 0, line)
        }
    }
}
