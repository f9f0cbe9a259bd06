import TriageCore
@testable import TriageMIME
import XCTest

/// One test per kind of malformed mail: nothing crashes or hangs, and what can
/// be read is read.
final class NastyMessageTests: XCTestCase {
    private func nasty(_ name: String) throws -> Message {
        let bytes = try Fixture.bytes("nasty/" + name)
        let message = MessageParser.parse(bytes)
        XCTAssertEqual(message.size, bytes.count, name)
        XCTAssertEqual(message.headerHash.count, 64, name)
        return message
    }

    func testBareLineFeeds() throws {
        let m = try nasty("bare-lf.eml")
        XCTAssertEqual(m.from, [Address(name: "Ann Lee", address: "ann@example.org")])
        XCTAssertEqual(m.subject, "Bare LF line ends")
        XCTAssertEqual(m.date?.rfc3339, "2026-11-03T09:00:00+01:00")
        XCTAssertEqual(m.messageID, "bare-lf@example.org")
        XCTAssertEqual(m.attachments, ["data.csv"])
        XCTAssertEqual(m.snippet, "Only line feeds here.")
    }

    /// Raw ESC, encoded `=1B`, CR LF inside an encoded word, a C1 CSI in UTF-8, in
    /// every header triage reads and in file names: each control is a space.
    func testControlCharactersBecomeSpaces() throws {
        let m = try nasty("controls.eml")
        XCTAssertEqual(m.from, [Address(name: "Evil ]0;owned   [31mCorp", address: "evil@example.test")])
        XCTAssertEqual(m.replyTo.first, Address(name: "Broken  [2J", address: "reply @example.test"))
        XCTAssertEqual(m.subject, "Invoice [2J paid  forged: line raw [31mred  2J")
        XCTAssertEqual(m.messageID, "ctl [2J@example.test")
        XCTAssertEqual(m.listID, "list .example.test")
        XCTAssertEqual(m.deliveredTo, ["me [8m@example.test"])
        XCTAssertEqual(m.attachments, ["bill [8m  .pdf", "note .txt"])
        XCTAssertEqual(m.snippet, "Body [2J text 31m and overwrite")
        let texts = [m.subject, m.messageID, m.listID, m.snippet].compactMap { $0 } + m.deliveredTo + m.attachments
            + (m.from + m.replyTo).flatMap { [$0.name ?? "", $0.address] }
        for text in texts {
            XCTAssertFalse(text.unicodeScalars.contains { ControlCharacters.isControl($0) && $0 != "\t" }, text.debugDescription)
        }
    }

    func testNoHeaderBodySeparator() throws {
        let m = try nasty("no-separator.eml")
        XCTAssertEqual(m.subject, "No separator")
        XCTAssertEqual(m.messageID, "nosep@example.org")
        // The first line that is not a header starts the body (as in Python's email).
        XCTAssertEqual(m.snippet, "This line is the body because it is not a header. And so is this one.")
    }

    func testRawLatin1BytesInHeadersAreReadAsWindows1252() throws {
        let m = try nasty("raw-8bit-latin1-headers.eml")
        XCTAssertEqual(m.from.first?.name, "René François")
        XCTAssertEqual(m.from.first?.address, "rene@example.fr")
        XCTAssertEqual(m.subject, "Réunion à 8h € prix")
        XCTAssertEqual(m.snippet, "Corps sans charset: café")
    }

    func testRawUTF8InHeaders() throws {
        let m = try nasty("raw-utf8-headers.eml")
        XCTAssertEqual(m.from, [Address(name: "Zoë Åberg", address: "zoe@example.se")])
        XCTAssertEqual(m.to.first?.name, "Jürgen")
        XCTAssertEqual(m.subject, "Smörgåsbord på fredag ☕")
    }

    func testInvalidUTF8InsideEncodedWordsBecomesValidText() throws {
        let m = try nasty("invalid-utf8-encoded-word.eml")
        XCTAssertEqual(m.from.first?.address, "bad@example.org")
        let name = try XCTUnwrap(m.from.first?.name)
        XCTAssertTrue(name.hasSuffix("abc"), name)
        let subject = try XCTUnwrap(m.subject)
        XCTAssertTrue(subject.hasPrefix("ok é then bad "), subject)
        XCTAssertTrue(subject.hasSuffix(" end"), subject)
        // Swift strings are always valid Unicode; check the bytes round-trip as UTF-8.
        XCTAssertNotNil(String(validating: Array(subject.utf8), as: UTF8.self))
    }

    func testUnknownCharsetsFallBack() throws {
        let m = try nasty("unknown-charset.eml")
        // libetpan reads an encoded word in an unknown charset as ISO-8859-1.
        XCTAssertEqual(m.from.first?.name, "Café Owner")
        XCTAssertEqual(m.subject, "Hello world")
        XCTAssertEqual(m.snippet, "qapla' plain ASCII body")
    }

    func testBrokenBase64() throws {
        let m = try nasty("broken-base64.eml")
        XCTAssertEqual(m.subject, "Broken base64")
        XCTAssertEqual(m.attachments, ["scan.pdf"])
        // Invalid characters are skipped; the valid quads still decode.
        XCTAssertTrue(m.snippet.hasPrefix("Hello "), m.snippet)
        XCTAssertTrue(m.snippet.contains("broken base64"), m.snippet)
    }

    func testBrokenQuotedPrintable() throws {
        let m = try nasty("broken-qp.eml")
        XCTAssertEqual(m.subject, "Broken QP")
        XCTAssertTrue(m.snippet.hasPrefix("Price "), m.snippet)
        XCTAssertTrue(m.snippet.contains("10é and soft break"), m.snippet)
    }

    func testMultipartWithoutBoundaryIsOneTextPart() throws {
        let m = try nasty("multipart-no-boundary.eml")
        XCTAssertEqual(m.subject, "Multipart without boundary")
        XCTAssertEqual(m.attachments, [])
        XCTAssertTrue(m.snippet.contains("Text that never gets a part of its own."), m.snippet)
    }

    func testMultipartWhoseBoundaryNeverCloses() throws {
        let m = try nasty("multipart-unclosed.eml")
        XCTAssertEqual(m.subject, "Unclosed multipart")
        XCTAssertEqual(m.attachments, ["backup.zip"])
        XCTAssertEqual(m.snippet, "First part text.")
    }

    func testOneMegabyteHeaderLine() throws {
        let long = String(repeating: "x", count: 1 << 20)
        let words = String(repeating: "word ", count: 200_000)
        let text = "From: a@example.org\r\nTo: me@example.test\r\nSubject: \(long)\r\nX-Long: \(words)\r\n"
            + "Message-ID: <big@example.org>\r\n\r\nbody text\r\n"
        let started = ContinuousClock.now
        let m = MessageParser.parse(Array(text.utf8))
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(20), "no pathological slowness")
        XCTAssertEqual(m.subject?.count, 1 << 20)
        XCTAssertEqual(m.messageID, "big@example.org")
        XCTAssertEqual(m.to, [Address(address: "me@example.test")])
        XCTAssertEqual(m.snippet, "body text")
    }

    func testNULBytes() throws {
        let m = try nasty("nul-bytes.eml")
        // libetpan copies values as C strings, so a value ends at its first NUL.
        XCTAssertEqual(m.subject, "Before")
        XCTAssertEqual(m.messageID, "nul@example.org")
        XCTAssertEqual(m.snippet, "Body with a NUL in it")
    }

    func testMessageRFC822Nested50Deep() {
        let m = MessageParser.parse(Array(Self.nested(depth: 50).utf8))
        XCTAssertEqual(m.from.first?.address, "level49@example.org")
        XCTAssertEqual(m.subject, "level 49")
        XCTAssertEqual(m.attachments.last, "deep.pdf", "the innermost message is still reached")
        // Each body that is itself a message counts as an attached message, as over IMAP.
        XCTAssertEqual(Set(m.attachments.dropLast()), ["message.eml"])
        XCTAssertEqual(m.snippet, "deep text")
    }

    func testNestingBeyondTheLimitStillReadsHeaders() {
        let bytes = Array(Self.nested(depth: 20_000).utf8)
        let m = MessageParser.parse(bytes)
        XCTAssertEqual(m.subject, "level 19999")
        XCTAssertEqual(m.size, bytes.count)
        XCTAssertEqual(m.attachments, [], "structure deeper than the limit is not walked")
    }

    func testDeeplyNestedCommentsDoNotOverflowTheStack() {
        // libetpan parses comments recursively; 200,000 levels crashed it before the guard.
        let open = String(repeating: "(", count: 200_000), close = String(repeating: ")", count: 200_000)
        let text = "From: a@example.org\r\nTo: \(open)\(close) x@example.org\r\n"
            + "Date: Tue, 3 Nov 2026 09:00:00 +0100 \(open)\r\nSubject: still here\r\n\r\nbody\r\n"
        let bytes = Array(text.utf8)
        let m = MessageParser.parse(bytes)
        XCTAssertEqual(m.to, [Address(address: "x@example.org")])
        XCTAssertEqual(m.subject, "still here")
        XCTAssertEqual(m.snippet, "body")
        XCTAssertEqual(m.size, bytes.count)
        // The hash is of the original bytes, not of the sanitised copy.
        let headerEnd = text.utf8.count - "\r\nbody\r\n".utf8.count
        XCTAssertEqual(m.headerHash, SHA256.hex(bytes: SHA256.hash(bytes[..<headerEnd])))
    }

    func testEmptyFile() throws {
        let m = try nasty("empty.eml")
        XCTAssertEqual(m.size, 0)
        XCTAssertNil(m.subject)
        XCTAssertNil(m.date)
        XCTAssertEqual(m.from, [])
        XCTAssertEqual(m.snippet, "")
        XCTAssertEqual(m.headerHash, SHA256.hex(""))
    }

    func testBrokenStructuredHeadersAreRecovered() throws {
        let m = try nasty("broken-headers.eml")
        XCTAssertEqual(m.from.first?.address, "henry@example.org")
        XCTAssertTrue(m.to.contains(Address(address: "ok@example.org")))
        XCTAssertTrue(m.to.contains(Address(name: "Name", address: "named@example.org")))
        XCTAssertEqual(m.cc.first?.address, "helen@example.org")
        XCTAssertNil(m.date, "an impossible date is dropped, not guessed")
        XCTAssertEqual(m.messageID, "no-brackets-id@example.org")
        XCTAssertEqual(m.inReplyTo, "first@example.org")
        XCTAssertEqual(m.subject, "Broken headers")
    }

    func testMboxFromLineIsSkipped() throws {
        let m = try nasty("mbox-from-line.eml")
        XCTAssertEqual(m.from, [Address(name: "Ivan", address: "ivan@example.org")])
        XCTAssertEqual(m.subject, "Saved from an mbox")
        XCTAssertEqual(m.snippet, "Body.")
    }

    /// Every prefix and many byte-flipped copies of the nasty fixtures parse
    /// without crashing and report their size.
    func testTruncatedAndMutatedInputNeverCrashes() throws {
        let folder = Fixture.directory.appendingPathComponent("nasty")
        var generator = SplitMix64(seed: 2026)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            let bytes = try Fixture.bytes("nasty/" + name)
            for end in stride(from: 0, through: bytes.count, by: 3) {
                XCTAssertEqual(MessageParser.parse(Array(bytes[..<end])).size, end)
            }
            guard !bytes.isEmpty else { continue }
            let interesting: [UInt8] = [0, 0x0A, 0x0D, 0x3D, 0x3F, 0x22, 0x3C, 0x3E, 0x3A, 0x2D, 0xFF, 0x80]
            for _ in 0..<200 {
                var copy = bytes
                for _ in 0..<3 {
                    let at = Int(generator.next() % UInt64(copy.count))
                    copy[at] = interesting[Int(generator.next() % UInt64(interesting.count))]
                }
                XCTAssertEqual(MessageParser.parse(copy).size, copy.count)
            }
        }
    }

    /// A message wrapped in `depth` levels of message/rfc822, with an attachment innermost.
    static func nested(depth: Int) -> String {
        let inner = "From: inner@example.org\r\nSubject: innermost\r\nContent-Type: multipart/mixed; boundary=in\r\n\r\n"
            + "--in\r\nContent-Type: text/plain\r\n\r\ndeep text\r\n"
            + "--in\r\nContent-Type: application/pdf; name=deep.pdf\r\n\r\nx\r\n--in--\r\n"
        var text = ""
        for level in (0..<depth).reversed() {
            text += "From: level\(level)@example.org\r\nSubject: level \(level)\r\nMIME-Version: 1.0\r\n"
                + "Content-Type: message/rfc822\r\n\r\n"
        }
        return text + inner
    }
}

/// A small deterministic random generator for the mutation test.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
