@testable import TriageCore
import XCTest

final class RuleLexerTests: XCTestCase {
    func testKindsTextsAndCharacterColumns() {
        let (tokens, diagnostics) = RuleLexer.tokenize("rule \"café\" when -FROM:x@y.test {a} at 09:00, near 1,-2 # c\n  then", path: "t")
        XCTAssertEqual(diagnostics, [])
        let summary = tokens.map { "\($0.kind):\($0.text)@\($0.span.line):\($0.span.column)+\($0.span.length)" }
        XCTAssertEqual(summary, [
            "word:rule@1:1+4", "string:café@1:6+6", "word:when@1:13+4", "minus:-@1:18+1", "op:from@1:19+5",
            "word:x@y.test@1:24+8", "leftBrace:{@1:33+1", "word:a@1:34+1", "rightBrace:}@1:35+1", "word:at@1:37+2",
            "word:09:00@1:40+5", "comma:,@1:45+1", "word:near@1:47+4", "word:1@1:52+1", "comma:,@1:53+1", "minus:-@1:54+1",
            "word:2@1:55+1", "word:then@2:3+4", "end:@2:7+1",
        ])
        XCTAssertFalse(tokens[4].spaceBefore, "from: stands right after the '-'")
        XCTAssertTrue(tokens[3].spaceBefore)
    }

    func testEscapesAndCRLF() {
        let (tokens, diagnostics) = RuleLexer.tokenize("\"a\\\"b\\\\c\"\r\nx", path: "t")
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(tokens[0].text, "a\"b\\c")
        XCTAssertEqual(tokens[1].span.line, 2)
        XCTAssertEqual(tokens[1].span.column, 1)
    }

    func testByteOrderMarkIsSkipped() {
        let (tokens, _) = RuleLexer.tokenize("\u{FEFF}rule x", path: "t")
        XCTAssertEqual(tokens[0].text, "rule")
        XCTAssertEqual(tokens[0].span.column, 1)
    }

    func testUnicodeWordsSplitAndLowerCase() {
        XCTAssertEqual(WordSplitter.words("Grüße aus MÜNCHEN — Café_au-lait №5 ½"), ["grüße", "aus", "münchen", "café", "au", "lait", "5", "½"])
        XCTAssertEqual(WordSplitter.words("RE: Ünïcode…and ASCII"), ["re", "ünïcode", "and", "ascii"])
        XCTAssertEqual(WordSplitter.words(""), [])
    }

    func testSuggestionsAreCloseOnly() {
        XCTAssertEqual(Suggestion.closest(to: "form", in: ["from", "to"]), "from")
        XCTAssertEqual(Suggestion.closest(to: "lable", in: ["label", "unlabel"]), "label")
        XCTAssertNil(Suggestion.closest(to: "xy", in: ["to", "cc"]))
    }
}
