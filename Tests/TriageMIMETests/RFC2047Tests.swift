@testable import TriageCore
@testable import TriageMIME
import XCTest

final class RFC2047Tests: XCTestCase {
    private let samples = [
        "plain ASCII text that is long enough to need more than one encoded word for sure, really",
        "Réunion d'équipe à Genève — ordre du jour: café, crème brûlée, façade, naïve cœur",
        "日本語のメールの件名はとても長くなることがありますので、分割が必要です。東京、大阪、京都。",
        "Launch 🚀🎉 family 👨‍👩‍👧‍👦 flags 🇫🇷🇯🇵 and thumbs 👍🏽 — done ✅✅✅✅✅✅✅✅✅",
        "",
        "=?UTF-8?Q?not_a_word?= _ ? = ",
    ]

    func testRoundTripBothEncodings() {
        for text in samples {
            for encoding in [RFC2047.Encoding.b, .q, nil] {
                let words = RFC2047.encode(text, encoding: encoding, firstMaxLength: 50)
                // The reader trims the value, as for any header.
                XCTAssertEqual(decoded(words.joined(separator: "\r\n ")), text.trimmingASCIIWhitespace(), "\(encoding.map(\.rawValue) ?? "auto"): \(words)")
                for (i, word) in words.enumerated() {
                    XCTAssertLessThanOrEqual(word.count, i == 0 ? 50 : 75, word)
                    XCTAssertTrue(word.hasPrefix("=?UTF-8?") && word.hasSuffix("?="), word)
                    XCTAssertTrue(word.unicodeScalars.allSatisfy { $0.value > 32 && $0.value < 127 }, word)
                }
            }
        }
    }

    func testEveryWordHoldsWholeCharacters() {
        // Each word must decode on its own to valid UTF-8, without splitting a grapheme cluster.
        let text = samples[3] + samples[2]
        for encoding in [RFC2047.Encoding.b, .q] {
            let words = RFC2047.encode(text, encoding: encoding)
            XCTAssertGreaterThan(words.count, 2)
            for word in words {
                XCTAssertFalse(decoded(word).contains("\u{FFFD}"), word)
            }
            let rebuilt = decoded(words.joined(separator: "\r\n "))
            XCTAssertEqual(rebuilt, text)
            XCTAssertEqual(rebuilt.count, text.count)
        }
    }

    func testOversizedGraphemeClusterIsSplitBetweenScalars() {
        let cluster = "e" + String(repeating: "\u{301}", count: 40)  // one Character, 81 bytes
        let words = RFC2047.encode(cluster, encoding: .b)
        XCTAssertGreaterThan(words.count, 1)
        XCTAssertTrue(words.allSatisfy { $0.count <= 75 })
        XCTAssertEqual(decoded(words.joined(separator: " ")), cluster)
    }

    func testPreferredEncoding() {
        XCTAssertEqual(RFC2047.preferredEncoding(for: "Café au lait"), .q)
        XCTAssertEqual(RFC2047.preferredEncoding(for: "日本語の件名"), .b)
    }

    func testQEncodingIsSafeInPhrases() {
        let word = RFC2047.encode("a \"quoted\", <odd> name; (x)", encoding: .q)[0]
        let payload = word.dropFirst(10).dropLast(2)
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!*+-/=_")
        XCTAssertTrue(payload.allSatisfy { allowed.contains($0) }, String(payload))
        XCTAssertEqual(word, "=?UTF-8?Q?a_=22quoted=22=2C_=3Codd=3E_name=3B_=28x=29?=")
    }

    func testDecodesLatin1AndKeepsSpaceAroundPlainText() {
        XCTAssertEqual(decoded("=?ISO-8859-1?Q?Andr=E9?= Pirard"), "André Pirard")
        XCTAssertEqual(decoded("a =?utf-8?b?w6k=?= =?utf-8?q?=C3=A9?= b"), "a éé b")
    }

    func testDecodingReplacesEncodedControls() {
        XCTAssertEqual(decoded("=?UTF-8?Q?bill=1B[8m=0D=0A.pdf?="), "bill [8m  .pdf")
        XCTAssertEqual(decoded("=?UTF-8?B?wpsybg==?="), "2n")  // U+009B in UTF-8, then trimmed
    }

    func testBase64Vectors() {
        // RFC 4648 section 10, through B words: encoded exactly, and read back.
        let vectors = ["f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            XCTAssertEqual(RFC2047.encode(plain, encoding: .b), ["=?UTF-8?B?\(encoded)?="])
            XCTAssertEqual(decoded("=?UTF-8?B?\(encoded)?="), plain)
        }
    }
}

/// What a mail reader makes of header text triage wrote: TriageMIME's decoder,
/// the one every path of triage reads with.
private func decoded(_ value: String) -> String {
    HeaderText.decode(Array(value.utf8))
}
