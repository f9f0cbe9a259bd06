import TriageCore
import XCTest

/// `ControlCharacters`, and the places that use it in TriageCore: placeholders
/// and JSON.
final class ControlCharactersTests: XCTestCase {
    func testOneLineReplacesEveryControlButTab() {
        XCTAssertEqual(ControlCharacters.replaced(in: "a\u{1B}]0;t\u{07}b\tc\r\nd\u{9B}2Je\u{7F}f\u{0}g"),
                       "a ]0;t b\tc  d 2Je f g")
        // Characters that share the C1 lead byte 0xC2 stay.
        XCTAssertEqual(ControlCharacters.replaced(in: "\u{A0}©½ plain"), "\u{A0}©½ plain")
        // An ESC a combining mark clings to is still replaced.
        XCTAssertEqual(ControlCharacters.replaced(in: "x\u{1B}\u{301}y"), "x \u{301}y")
    }

    func testKeepingLineBreaksKeepsLFAndCRLFButNotABareCR() {
        XCTAssertEqual(ControlCharacters.replaced(in: "a\nb\r\nc\rd\u{1B}[2Je", keepingLineBreaks: true),
                       "a\nb\r\nc d [2Je")
        XCTAssertEqual(ControlCharacters.replaced(in: "end\r", keepingLineBreaks: true), "end ")
    }

    func testPlaceholdersExpandToOneLine() {
        var message = Message()
        message.from = [Address(name: "A\r\nforged\u{1B}[2J", address: "a@example.test")]
        message.subject = "S\u{9B}1m"
        XCTAssertEqual(MessageTemplate.expand("{from.name}: {subject}", message: message, timeZone: .gmt),
                       "A  forged [2J: S 1m")
    }

    func testJSONEscapesEveryControl() {
        let json = JSONValue.string("a\u{1B}b\u{7F}c\u{9B}d\u{85}e\n").serialized
        XCTAssertEqual(json, "\"a\\u001bb\\u007fc\\u009bd\\u0085e\\n\"")
    }
}
