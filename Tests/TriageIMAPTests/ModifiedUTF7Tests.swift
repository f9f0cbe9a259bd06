import TriageIMAP
import XCTest

final class ModifiedUTF7Tests: XCTestCase {
    func testKnownEncodings() {
        // RFC 3501 §5.1.3 examples and common folder names.
        XCTAssertEqual(ModifiedUTF7.encode("~peter/mail/日本語/台北"), "~peter/mail/&ZeVnLIqe-/&U,BTFw-")
        XCTAssertEqual(ModifiedUTF7.encode("Entwürfe"), "Entw&APw-rfe")
        XCTAssertEqual(ModifiedUTF7.encode("Tom & Jerry"), "Tom &- Jerry")
        XCTAssertEqual(ModifiedUTF7.encode("INBOX"), "INBOX")
        XCTAssertEqual(ModifiedUTF7.encode("🎉"), "&2DzfiQ-")
    }

    func testDecoding() {
        XCTAssertEqual(ModifiedUTF7.decode("~peter/mail/&ZeVnLIqe-/&U,BTFw-"), "~peter/mail/日本語/台北")
        XCTAssertEqual(ModifiedUTF7.decode("Entw&APw-rfe"), "Entwürfe")
        XCTAssertEqual(ModifiedUTF7.decode("Tom &- Jerry"), "Tom & Jerry")
        XCTAssertEqual(ModifiedUTF7.decode("&2DzfiQ-"), "🎉")
    }

    func testInvalidInputIsReturnedUnchanged() {
        XCTAssertEqual(ModifiedUTF7.decode("a&b"), "a&b")
        XCTAssertEqual(ModifiedUTF7.decode("&!!-"), "&!!-")
    }

    func testRoundTrip() {
        for name in ["Archiv/2024", "Reçus", "a&b&c", "Ελληνικά", "x 🎉 y", "&-"] {
            XCTAssertEqual(ModifiedUTF7.decode(ModifiedUTF7.encode(name)), name)
        }
    }
}
