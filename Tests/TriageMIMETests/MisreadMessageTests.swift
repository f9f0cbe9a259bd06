import TriageCore
@testable import TriageMIME
import XCTest

/// Real mail that triage once misread (issue 13, items 8 and 9), one fixture of
/// our own for each in `Fixtures/misread`, with the reading a mail client gives.
/// Where it applies, `MessageAgreementTests` also compares them with Python's
/// `email` (the differences are listed there and in docs/parsing.md).
final class MisreadMessageTests: XCTestCase {
    private func misread(_ name: String) throws -> Message {
        MessageParser.parse(try Fixture.bytes("misread/" + name))
    }

    /// A UTF-8 part with a few bad bytes stays UTF-8; only those bytes become U+FFFD.
    func testInvalidUTF8ReplacesOnlyTheBadBytes() throws {
        XCTAssertEqual(try misread("invalid-utf8.eml").snippet, "Профиль \u{FFFD}\u{FFFD} обновлён")
    }

    /// RFC 2045 §6.7: an `=` not followed by two hex digits is kept with what follows.
    func testInvalidQuotedPrintableEscapesAreKept() throws {
        XCTAssertEqual(try misread("qp-invalid-escapes.eml").snippet, "Total = 10 =od and =UTF8 stay; café decodes.")
    }

    func testEmptyAddressKeepsTheName() throws {
        XCTAssertEqual(try misread("empty-address.eml").from, [Address(name: "Mail Delivery System", address: "")])
    }

    func testQuotedLocalPartKeepsItsSpace() throws {
        XCTAssertEqual(try misread("quoted-local-part.eml").from,
                       [Address(name: "Admin", address: "\"System Administrator\"@example.com")])
    }

    /// A first line that starts with white space continues no header: it is skipped.
    func testLeadingWhiteSpaceLineDoesNotHideTheHeaders() throws {
        let m = try misread("leading-whitespace.eml")
        XCTAssertEqual(m.from, [Address(name: "Lead", address: "lead@example.org")])
        XCTAssertEqual(m.subject, "First line folded")
        XCTAssertEqual(m.messageID, "leading-ws@example.org")
        XCTAssertEqual(m.snippet, "Body after a leading white-space line.")
    }

    /// RFC 2045 §5.2: a Content-Type that cannot be read means text/plain.
    func testTextWithoutSubtypeIsPlainText() throws {
        XCTAssertEqual(try misread("text-without-subtype.eml").snippet, "Plain text after all.")
    }

    func testRFC2231BoundaryIsHonoured() throws {
        let m = try misread("boundary-rfc2231.eml")
        XCTAssertEqual(m.attachments, ["plan.pdf"])
        XCTAssertEqual(m.snippet, "Text of the first part.")
    }

    func testHeaderlessEmptyPartShowsNoDelimiter() throws {
        XCTAssertEqual(try misread("headerless-empty-part.eml").snippet, "The real text.")
    }

    func testRawUTF8InANameParameterIsUTF8() throws {
        XCTAssertEqual(try misread("raw-utf8-name.eml").attachments, ["Отчёты.zip"])
    }

    /// RFC 2231 continuations, RFC 2047 in any charset, windows-1252 for Latin-1,
    /// a nameless attachment and an attached message: the names `filename:` sees,
    /// the same over IMAP (`AttachmentNameIntegrationTests`).
    func testAttachmentNamesEveryWayTheyAreWritten() throws {
        XCTAssertEqual(try misread("attachment-names-every-way.eml").attachments,
                       ["naïve.pdf", "Привет.pdf", "Grüße\u{2013}Liste.txt", "attachment", "message.eml",
                        "été\u{2013}photo.png"])
    }

    func testMessageIDWithoutClosingBracketDropsTheOpeningOne() throws {
        XCTAssertEqual(try misread("message-id-unclosed.eml").messageID, "unclosed-1234@example.org")
    }

    /// ISO-8859-1 labels mean windows-1252 (WHATWG), in bodies and encoded words.
    func testLatin1WithC1BytesIsWindows1252() throws {
        let m = try misread("latin1-c1.eml")
        XCTAssertEqual(m.subject, "I\u{2019}m late \u{2013} sorry")
        XCTAssertEqual(m.snippet, "I\u{2019}m late \u{2013} the \u{201C}meeting\u{201D} moved to 10 \u{20AC}.")
    }

    func testCharsetLabelsAsMailClientsRead() {
        XCTAssertEqual(CharsetDecoder.decode([0x96], charset: "US-ASCII"), "\u{2013}")
        XCTAssertEqual(CharsetDecoder.decode([0x96], charset: "ISO-8859-1"), "\u{2013}")
        XCTAssertEqual(CharsetDecoder.decode([0x96], charset: "latin1"), "\u{2013}")
        XCTAssertEqual(CharsetDecoder.decode([0x61, 0xE9, 0x62], charset: "utf-8"), "a\u{FFFD}b")
        XCTAssertEqual(CharsetDecoder.decode([0x61, 0xE9, 0x62], charset: nil), "aéb", "unlabelled 8-bit: windows-1252")
        XCTAssertEqual(CharsetDecoder.decode([0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4], charset: "koi8-r"), "Привет")
    }

    /// Every named reference of the HTML Standard, legacy ones without `;` too
    /// (so `&notanentity;` is `¬anentity;`, as in every browser).
    func testHTMLSnippetDecodesEveryNamedReference() throws {
        XCTAssertEqual(try misread("html-entities.eml").snippet,
                       "Next \u{2192} step \u{2665} \u{00BD} Été © 2026 \u{2013} ¬anentity; &")
        XCTAssertEqual(HTMLText.plainText("&NotNestedGreaterGreater; &nbsp;x &ampy &#x1F600; &zzz; &#;"), "\u{2AA2}\u{0338} \u{00A0}x &y 😀 &zzz; &#;")
        XCTAssertEqual(HTMLEntities.named.count, 2125)
    }

    /// An mbox `From ` line after other header fields is skipped, as Python's
    /// `email` does (a misplaced envelope line), not taken as the end of the headers.
    func testMboxFromLineInsideTheHeadersIsSkipped() throws {
        let m = try misread("mbox-from-in-header.eml")
        XCTAssertEqual(m.from, [Address(name: "Sender", address: "sender@example.org")])
        XCTAssertEqual(m.subject, "Envelope line among the headers")
        XCTAssertEqual(m.date?.utcOffsetSeconds, 7200)
        XCTAssertEqual(m.date?.secondsSince1970, 1_725_350_400)
        XCTAssertEqual(m.messageID, "mbox-from-1@example.org")
        XCTAssertEqual(m.deliveredTo, ["me@example.test"])
        XCTAssertEqual(m.snippet, "The body, not the header text.")
    }

    /// RFC 5322 §4.3: `UT` is +0000; `UTC`, common though not in the grammar, too.
    func testZonesUTAndUTCAreZeroOffset() throws {
        for name in ["zone-ut.eml", "zone-utc.eml"] {
            let m = try misread(name)
            XCTAssertEqual(m.date?.utcOffsetSeconds, 0, name)
            XCTAssertEqual(m.date?.secondsSince1970, 1_725_357_600, name)
        }
    }

    /// RFC 5322 §3.6.4: In-Reply-To and References hold `<id>`s; a phrase
    /// without one names no message (else unrelated mail would thread together).
    func testInReplyToWithoutAngleBracketsNamesNoMessage() throws {
        let m = try misread("in-reply-to-phrase.eml")
        XCTAssertNil(m.inReplyTo)
        XCTAssertEqual(m.references, [])
        XCTAssertEqual(m.messageID, "reply-phrase@example.org")
    }

    /// A last part whose closing delimiter never comes runs to the end of the
    /// message, as in Python and mail clients; the text and attachment are kept.
    func testUnclosedLastPartRunsToTheEnd() throws {
        let m = try misread("multipart-unclosed.eml")
        XCTAssertEqual(m.attachments, ["report.pdf"])
        XCTAssertEqual(m.snippet, "The text before the attachment.")
    }
}
