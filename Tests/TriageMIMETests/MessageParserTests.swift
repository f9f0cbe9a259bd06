import TriageCore
@testable import TriageMIME
import XCTest

/// Behaviour of `MessageParser` beyond what Python's `email` can check:
/// header hash, header-only parsing, snippets, list and delivery headers.
final class MessageParserTests: XCTestCase {
    private func parse(_ text: String) -> Message { MessageParser.parse(Array(text.utf8)) }

    private let header = "From: Ann <ann@example.org>\r\nTo: me@example.test\r\nSubject: Hi\r\nMessage-ID: <h@example.org>\r\n"

    /// `bodyText` keeps the lines (a reply's commands are one a line), decodes the
    /// transfer encoding and takes the text/plain part of an alternative.
    func testBodyTextKeepsLinesOfThePlainPart() {
        let message = header + "MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n"
            + "--b\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            + "done 0162\r\nsnooze 21c1 3 days =E2=80=94 ok\r\n\r\n> quoted\r\n"
            + "--b\r\nContent-Type: text/html\r\n\r\n<p>done 9999</p>\r\n--b--\r\n"
        let text = MessageParser.bodyText(Array(message.utf8))
        XCTAssertEqual(text.components(separatedBy: "\r\n").prefix(4), ["done 0162", "snooze 21c1 3 days — ok", "", "> quoted"])
        XCTAssertFalse(text.contains("9999"))
        // The snippet of the same message is one line.
        XCTAssertFalse(parse(message).snippet.contains("\n"))
    }

    func testHeaderHashCoversTheHeaderBlockOnly() {
        let a = parse(header + "\r\nfirst body\r\n")
        let b = parse(header + "\r\nanother body entirely\r\n")
        let c = parse(header.replacingOccurrences(of: "Subject: Hi", with: "Subject: Ho") + "\r\nfirst body\r\n")
        XCTAssertEqual(a.headerHash, b.headerHash)
        XCTAssertNotEqual(a.headerHash, c.headerHash)
        XCTAssertEqual(a.headerHash, SHA256.hex(header))
    }

    func testHeaderOnlyParseMatchesFullParse() {
        let full = parse(header + "Content-Type: text/plain\r\n\r\nbody text\r\n")
        // What an IMAP BODY.PEEK[HEADER] returns: the header block and its blank line.
        let headerOnly = MessageParser.parseHeader(Array((header + "Content-Type: text/plain\r\n\r\n").utf8))
        XCTAssertEqual(headerOnly.from, full.from)
        XCTAssertEqual(headerOnly.subject, full.subject)
        XCTAssertEqual(headerOnly.messageID, full.messageID)
        XCTAssertEqual(headerOnly.headerHash, full.headerHash)
        XCTAssertEqual(headerOnly.snippet, "")
        XCTAssertEqual(full.snippet, "body text")
    }

    func testServerFactsAreAttached() {
        var facts = ServerFacts()
        facts.mailbox = "INBOX"
        facts.uid = 42
        facts.flags = ["\\Seen"]
        let message = MessageParser.parse(Array((header + "\r\nx").utf8), server: facts)
        XCTAssertEqual(message.server.uid, 42)
        XCTAssertTrue(message.server.isSeen)
        XCTAssertEqual(message.subject, "Hi")
    }

    func testFirstOfRepeatedHeadersWinsButDeliveredToCollectsAll() {
        let m = parse("Subject: first\r\nSubject: second\r\nDelivered-To: me@example.test\r\n"
            + "Delivered-To: <me.alias@example.test>\r\nList-Id: Dev <dev.lists.example>\r\n"
            + "List-Id: <other.example>\r\nReferences: <a@x> <b@x>\r\n (comment) <c@x>\r\n\r\n")
        XCTAssertEqual(m.subject, "first")
        XCTAssertEqual(m.deliveredTo, ["me@example.test", "me.alias@example.test"])
        XCTAssertEqual(m.listID, "dev.lists.example")
        XCTAssertEqual(m.references, ["a@x", "b@x", "c@x"])
    }

    /// RFC 5322 allows one To, Cc and Bcc field, but lists and MTAs write several and
    /// mail clients show every one: all are read, in header order, so `cc:me` sees the
    /// second Cc. From and Reply-To stay the first field's (as Python's `msg[name]`).
    func testEveryToCcAndBccFieldIsReadInOrder() throws {
        let m = MessageParser.parse(try Fixture.bytes("messages/repeated-address-fields.eml"))
        XCTAssertEqual(m.to, [Address(name: "Team", address: "team@example.org"),
                              Address(name: "Bob", address: "bob@example.test"),
                              Address(address: "carol@example.test")])
        XCTAssertEqual(m.cc, [Address(name: "Ann", address: "ann@example.org"),
                              Address(name: "Me", address: "me@example.test"),
                              Address(name: "Dee", address: "dee@example.org")])
        XCTAssertEqual(m.bcc, [Address(address: "audit@example.org"),
                               Address(name: "Records, Office", address: "records@example.org")])
        XCTAssertEqual(m.from, [Address(name: "Lists Relay", address: "relay@lists.example")])
        XCTAssertEqual(m.replyTo, [Address(address: "first-reply@example.org")])
        XCTAssertEqual(m.subject, "Several To, Cc and Bcc fields")
        // A header-only parse (IMAP BODY.PEEK[HEADER], what `triage run` reads) agrees.
        let header = MessageParser.parseHeader(try Fixture.bytes("messages/repeated-address-fields.eml"))
        XCTAssertEqual(header.cc, m.cc)
        XCTAssertEqual(header.to, m.to)
    }

    func testListIdWithoutBracketsIsTakenWhole() {
        XCTAssertEqual(parse("List-Id: plain.list.example\r\n\r\n").listID, "plain.list.example")
    }

    func testSnippetFallsBackToHTMLWithoutTagsOrEntities() {
        let m = parse("Content-Type: text/html; charset=utf-8\r\n\r\n<html><head><title>T</title>"
            + "<style>p{color:red}</style></head><body><p>Caf&eacute; &amp; bar&nbsp;&#8211; "
            + "<b>bold</b>text</p><script>var x = 1;</script><!-- hidden --><div>a &lt; b</div></body></html>")
        XCTAssertEqual(m.snippet, "Café & bar – boldtext a < b")
    }

    func testSnippetPrefersPlainTextAndCollapsesWhitespace() {
        let m = parse("MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n"
            + "--b\r\nContent-Type: text/html\r\n\r\n<p>html version</p>\r\n"
            + "--b\r\nContent-Type: text/plain\r\n\r\n  plain\t\tversion\r\n\r\n  here \r\n--b--\r\n")
        XCTAssertEqual(m.snippet, "plain version here")
    }

    func testSnippetIsCutToAbout200Characters() {
        let m = parse("Subject: long\r\n\r\n" + String(repeating: "wörd ", count: 500))
        XCTAssertEqual(m.snippet.count, ParserLimits.snippetLength)
        XCTAssertTrue(m.snippet.hasPrefix("wörd wörd"))
    }

    func testSnippetSkipsAttachedTextFiles() {
        let m = parse("Content-Type: multipart/mixed; boundary=b\r\n\r\n"
            + "--b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename=log.txt\r\n\r\nlog line\r\n"
            + "--b\r\nContent-Type: text/plain; charset=koi8-r\r\nContent-Transfer-Encoding: base64\r\n\r\n"
            + "8NLJ18XU\r\n--b--\r\n")
        XCTAssertEqual(m.attachments, ["log.txt"])
        XCTAssertEqual(m.snippet, "Привет")
    }

    func testDateKeepsTheSendersOffset() throws {
        let m = parse("Date: Fri, 20 Apr 2001 19:35:02 -0400\r\n\r\n")
        let date = try XCTUnwrap(m.date)
        XCTAssertEqual(date.rfc3339, "2001-04-20T19:35:02-04:00")
        XCTAssertEqual(date.secondsSince1970, 987_809_702)
        XCTAssertEqual(date.utcOffsetSeconds, -4 * 3600)
    }

    func testSizeIsTheByteCount() {
        let text = "Subject: ä\r\n\r\nbody"
        XCTAssertEqual(parse(text).size, text.utf8.count)
    }

    func testSHA256AroundBlockBoundaries() {
        // Expected values from Python's hashlib.
        let expected = [
            55: "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
            56: "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
            63: "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34",
            64: "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
            119: "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb",
            120: "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c",
        ]
        for (length, hex) in expected {
            XCTAssertEqual(SHA256.hex(String(repeating: "a", count: length)), hex, "length \(length)")
            let bytes = [UInt8](repeating: 0x61, count: length)
            XCTAssertEqual(bytes.withUnsafeBytes { SHA256.hex(bytes: SHA256.hash(buffer: $0)) }, hex)
        }
    }

    func testMIMEParametersJoinRFC2231Continuations() {
        var parameters = MIMEParameters()
        parameters.append(name: Array("FILENAME*1*".utf8), value: Array("%C3%BCller.pdf".utf8))
        parameters.append(name: Array("filename*0*".utf8), value: Array("utf-8'de'M".utf8))
        parameters.append(name: Array("filename*2".utf8), value: Array(" (copy)".utf8))
        XCTAssertEqual(parameters.value("filename"), "Müller.pdf (copy)")
        XCTAssertNil(parameters.value("name"))
    }

    func testHeaderCommentsAreStrippedOutsideQuotes() {
        let stripped = HeaderComments.strip(Array("Sam (phone (nested)) <s@x> \"keep (this)\"".utf8))
        XCTAssertEqual(String(decoding: stripped, as: UTF8.self), "Sam   <s@x> \"keep (this)\"")
    }

    /// `header:` rules: the fields asked for are kept, every occurrence, decoded and
    /// unfolded, with controls neutralised; the subject is still read as usual; none
    /// is kept when none is asked for.
    func testKeepsTheHeaderFieldsRulesName() {
        let text = header + "X-Spam-Flag: YES\r\nX-Note: =?utf-8?q?caf=C3=A9?=\r\n folded\u{1B}[31m\r\nx-spam-flag: no\r\n\r\nbody\r\n"
        let kept = MessageParser.parse(Array(text.utf8), keepingHeaders: ["x-spam-flag", "x-note", "subject"])
        XCTAssertEqual(kept.headers, [HeaderField("Subject", "Hi"), HeaderField("X-Spam-Flag", "YES"),
                                      HeaderField("X-Note", "café folded [31m"), HeaderField("x-spam-flag", "no")])
        XCTAssertEqual(kept.subject, "Hi")
        XCTAssertEqual(parse(text).headers, [])
    }
}
