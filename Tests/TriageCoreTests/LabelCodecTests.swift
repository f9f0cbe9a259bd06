import TriageCore
import XCTest

final class LabelCodecTests: XCTestCase {
    func testPlainLabelsAreTheirOwnKeyword() {
        for label in ["receipts", "$Forwarded", "Work/Projects", "a-b_c.d", "[x"] {
            XCTAssertEqual(LabelCodec.keyword(for: label), label)
            XCTAssertEqual(LabelCodec.label(for: label), label)
        }
    }

    func testSpecialCharactersAreEscaped() {
        XCTAssertEqual(LabelCodec.keyword(for: "no push"), "no+20push")
        XCTAssertEqual(LabelCodec.keyword(for: "a+b"), "a+2Bb")
        XCTAssertEqual(LabelCodec.keyword(for: "café"), "caf+C3+A9")
        XCTAssertEqual(LabelCodec.keyword(for: "(x) {y} %*\"\\]"), "+28x+29+20+7By}+20+25+2A+22+5C+5D")
        XCTAssertNil(LabelCodec.keyword(for: ""))
    }

    func testEveryKeywordIsAnIMAPAtom() {
        let forbidden = Set("(){ %*\"\\]".utf8)
        for label in ["no push", "tab\there", "ünïcödé 🎉", "x]y", "+", "++", "\u{7F}"] {
            let keyword = LabelCodec.keyword(for: label)!
            XCTAssertFalse(keyword.isEmpty)
            XCTAssertTrue(keyword.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !forbidden.contains($0) }, keyword)
        }
    }

    func testRoundTrip() {
        for label in ["no push", "a+b", "café", "+", "+20", "a+2Bb", "日本語", "x y z", "100%", "tab\there", "🎉"] {
            XCTAssertEqual(LabelCodec.label(for: LabelCodec.keyword(for: label)!), label, label)
        }
    }

    func testForeignKeywordsThatAreNotCanonicalEncodingsStayAsTheyAre() {
        XCTAssertEqual(LabelCodec.label(for: "C++"), "C++")
        XCTAssertEqual(LabelCodec.label(for: "a+2b"), "a+2b", "lower-case hex is not ours")
        XCTAssertEqual(LabelCodec.label(for: "a+41"), "a+41", "A is plain, so +41 is not canonical")
        XCTAssertEqual(LabelCodec.label(for: "x+FF"), "x+FF", "not UTF-8")
        XCTAssertEqual(LabelCodec.label(for: "end+"), "end+")
    }
}
