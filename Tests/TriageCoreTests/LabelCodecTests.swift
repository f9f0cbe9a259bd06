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
        XCTAssertEqual(LabelCodec.keyword(for: "no push"), "no_push", "a space reads as _")
        XCTAssertEqual(LabelCodec.keyword(for: "a+b"), "a+2Bb")
        XCTAssertEqual(LabelCodec.keyword(for: "café"), "caf+C3+A9")
        XCTAssertEqual(LabelCodec.keyword(for: "(x) {y} %*\"\\]"), "+28x+29_+7By}_+25+2A+22+5C+5D")
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
        for label in ["a+b", "café", "+", "+20", "a+2Bb", "日本語", "x_y_z", "100%", "tab\there", "🎉", "café_plans"] {
            XCTAssertEqual(LabelCodec.label(for: LabelCodec.keyword(for: label)!), label, label)
        }
    }

    /// A space is spelled `_` on the server and reads back as `_`: the same label to
    /// `label:` and to `same(_:_:)`, so a rerun adds nothing.
    func testASpaceReadsBackAsAnUnderscoreThatIsTheSameLabel() {
        for (label, keyword) in [("no push", "no_push"), ("x y z", "x_y_z"), ("café plans", "caf+C3+A9_plans")] {
            XCTAssertEqual(LabelCodec.keyword(for: label), keyword)
            let back = LabelCodec.label(for: keyword)
            XCTAssertEqual(back, label.replacingOccurrences(of: " ", with: "_"))
            XCTAssertTrue(LabelCodec.same(back, label), label)
            XCTAssertEqual(LabelName.normalize(back), LabelName.normalize(label))
        }
    }

    /// Keywords written by an earlier triage (`no+20push`) read back as the label they
    /// stood for, count as the same label, and are removed with it.
    func testLegacySpellingReadsBackAsBefore() {
        XCTAssertEqual(LabelCodec.legacyKeyword(for: "no push"), "no+20push")
        XCTAssertEqual(LabelCodec.label(for: "no+20push"), "no push")
        XCTAssertEqual(LabelCodec.label(for: "caf+C3+A9+20plans"), "café plans")
        XCTAssertTrue(LabelCodec.same(LabelCodec.label(for: "no+20push"), "no push"))
        XCTAssertTrue(LabelCodec.same(LabelCodec.label(for: "No+20Push"), "no push"), "case as Cyrus keeps it")
        XCTAssertTrue(LabelCodec.same(LabelCodec.label(for: "no_push"), LabelCodec.label(for: "no+20push")))
        XCTAssertEqual(LabelCodec.keywords(for: "no push"), ["no_push", "no+20push"])
        XCTAssertEqual(LabelCodec.keywords(for: "receipts"), ["receipts"])
        XCTAssertEqual(LabelCodec.label(for: "no+5Fpush"), "no+5Fpush", "_ is plain: +5F is nobody's spelling")
    }

    func testForeignKeywordsThatAreNotCanonicalEncodingsStayAsTheyAre() {
        XCTAssertEqual(LabelCodec.label(for: "C++"), "C++")
        XCTAssertEqual(LabelCodec.label(for: "a+2b"), "a+2b", "lower-case hex is not ours")
        XCTAssertEqual(LabelCodec.label(for: "a+41"), "a+41", "A is plain, so +41 is not canonical")
        XCTAssertEqual(LabelCodec.label(for: "x+FF"), "x+FF", "not UTF-8")
        XCTAssertEqual(LabelCodec.label(for: "end+"), "end+")
    }
}

/// Labels too long for one keyword (servers refuse more than 50 bytes), and the
/// case-insensitive comparison IMAP keywords call for.
final class LabelCodecLimitTests: XCTestCase {
    private let long = "Dr. Maximiliane Müller-Lüdenscheidt von Hohenzollern-Sigmaringen"

    func testALabelThatFitsIsUnchanged() {
        let fifty = String(repeating: "k", count: 50)
        XCTAssertEqual(LabelCodec.keyword(for: fifty), fifty)
        XCTAssertTrue(LabelCodec.fits(fifty))
        XCTAssertFalse(LabelCodec.fits(fifty + "k"))
        XCTAssertEqual(LabelCodec.stored(fifty), fifty)
        XCTAssertEqual(LabelCodec.encodedLength("é é"), 13, "a space is one byte, _")
    }

    func testALongLabelIsShortenedToAPrefixAndAHash() throws {
        let keyword = try XCTUnwrap(LabelCodec.keyword(for: long))
        XCTAssertLessThanOrEqual(keyword.utf8.count, LabelCodec.maxKeywordBytes)
        XCTAssertTrue(keyword.hasPrefix("Dr._Maximiliane_M+C3+BCller-L+E2+80+A6"), keyword)
        XCTAssertEqual(keyword.utf8.count, 46, "the next letter, ü, takes 6 bytes and does not fit")
        let stored = LabelCodec.stored(long)
        XCTAssertTrue(stored.hasPrefix("Dr. Maximiliane Müller-L…"), stored)
        XCTAssertTrue(stored.contains("…"), stored)
        XCTAssertEqual(stored.split(separator: "…").last?.count, 8, "8 hex digits of the hash")
        // What the server keeps reads back as the stored form (spaces as `_`), which
        // encodes to the same keyword and is the same label to `label:`.
        XCTAssertEqual(LabelCodec.label(for: keyword), stored.replacingOccurrences(of: " ", with: "_"))
        XCTAssertEqual(LabelName.normalize(LabelCodec.label(for: keyword)), LabelName.normalize(stored))
        XCTAssertEqual(LabelCodec.keyword(for: stored), keyword)
        XCTAssertEqual(LabelCodec.stored(stored), stored, "shortening twice changes nothing")
    }

    /// A long label an earlier triage shortened (spaces as `+20`, so a shorter prefix)
    /// is still the same label: no second, differently shortened keyword on a rerun.
    func testALegacyShortenedKeywordIsTheSameLabel() throws {
        let old = try XCTUnwrap(LabelCodec.legacyKeyword(for: long))
        XCTAssertTrue(old.hasPrefix("Dr.+20Maximiliane+20M+C3+BCller-L+E2+80+A6"), old)
        XCTAssertNotEqual(old, LabelCodec.keyword(for: long))
        XCTAssertTrue(LabelCodec.same(LabelCodec.label(for: old), long))
        XCTAssertEqual(LabelCodec.keywords(for: long).last, old)
        // Many spaces: the old prefix is shorter than today's, and still the same label.
        let spaced = String(repeating: "a b ", count: 20)
        let oldSpaced = try XCTUnwrap(LabelCodec.legacyKeyword(for: spaced))
        XCTAssertNotEqual(LabelCodec.label(for: oldSpaced).count, LabelCodec.stored(spaced).count)
        XCTAssertTrue(LabelCodec.same(LabelCodec.label(for: oldSpaced), spaced))
    }

    func testDifferentLongLabelsKeepDifferentKeywords() {
        let other = long.replacingOccurrences(of: "Sigmaringen", with: "Hechingen")
        XCTAssertNotEqual(LabelCodec.keyword(for: long), LabelCodec.keyword(for: other))
        XCTAssertFalse(LabelCodec.same(long, other))
        XCTAssertTrue(LabelCodec.same(long, LabelCodec.stored(long)))
    }

    func testEveryShortenedKeywordIsAnAtomOfWholeCharacters() {
        let forbidden = Set("(){ %*\"\\]".utf8)
        for label in [String(repeating: "é", count: 40), String(repeating: "🎉", count: 20), String(repeating: "a b", count: 30),
                      String(repeating: "x", count: 51), String(repeating: "👩‍👩‍👧‍👦", count: 3)] {
            let keyword = LabelCodec.keyword(for: label)!
            XCTAssertLessThanOrEqual(keyword.utf8.count, 50, label)
            XCTAssertTrue(keyword.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !forbidden.contains($0) }, keyword)
            XCTAssertNotNil(String(validating: Array(LabelCodec.stored(label).utf8), as: UTF8.self))
            XCTAssertEqual(LabelCodec.label(for: keyword), LabelCodec.stored(label).replacingOccurrences(of: " ", with: "_"), label)
        }
    }

    func testKeywordsCompareWithoutASCIICase() {
        XCTAssertTrue(LabelCodec.same("REC", "rec"))
        XCTAssertTrue(LabelCodec.same("No Push", "no push"))
        XCTAssertTrue(LabelCodec.same("CAF" + "é", "caf" + "é"))
        XCTAssertFalse(LabelCodec.same("café", "cafÉ"), "non-ASCII letters are bytes to IMAP")
        XCTAssertFalse(LabelCodec.same("no push", "no-push"))
        XCTAssertFalse(LabelCodec.same("", "x"))
    }

    func testLongLabelsDifferingInASCIICaseAreTheSameKeyword() {
        let upper = "RECEIPTS FROM THE SHOP ACROSS THE STREET AND THE ONE DOWN THE ROAD"
        XCTAssertTrue(LabelCodec.same(upper, upper.lowercased()))
    }
}
