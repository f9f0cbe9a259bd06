import Foundation
import TriageCore
@testable import TriageMIME
import XCTest

/// A bare header block (what `triage run` fetches with `BODY.PEEK[HEADER.FIELDS (...)]`)
/// is parsed without a MIME parse when no Content-* field shapes it: the header fields,
/// hash, size, empty snippet and attachments must be what the full parse gives.
final class HeaderBlockParseTests: XCTestCase {
    /// The header block of `bytes` with the blank line that ends it.
    private func headerBlock(_ bytes: [UInt8]) -> [UInt8] {
        for i in bytes.indices where bytes[i] == 0x0A {
            if i + 1 < bytes.count, bytes[i + 1] == 0x0A { return Array(bytes[...(i + 1)]) }
            if i + 2 < bytes.count, bytes[i + 1] == 0x0D, bytes[i + 2] == 0x0A { return Array(bytes[...(i + 2)]) }
        }
        return bytes
    }

    private func assertSameHeader(_ block: Message, _ whole: Message, _ name: String, contentFields: Bool) {
        XCTAssertEqual(block.from, whole.from, name)
        XCTAssertEqual(block.to, whole.to, name)
        XCTAssertEqual(block.cc, whole.cc, name)
        XCTAssertEqual(block.replyTo, whole.replyTo, name)
        XCTAssertEqual(block.subject, whole.subject, name)
        XCTAssertEqual(block.date, whole.date, name)
        XCTAssertEqual(block.messageID, whole.messageID, name)
        XCTAssertEqual(block.listID, whole.listID, name)
        XCTAssertEqual(block.headerHash, whole.headerHash, name)
        XCTAssertEqual(block.snippet, "", name)
        // A single part's own file name is an attachment even without a body (a Content-*
        // field); without Content-* fields there is none.
        if !contentFields { XCTAssertEqual(block.attachments, [], name) }
    }

    /// Every message of the corpus and the demo Maildir, cut to its header block.
    func testHeaderBlocksOfTheCorpusParseLikeTheirMessages() throws {
        var files: [URL] = []
        for folder in ["messages", "misread"] {
            let directory = Fixture.directory.appendingPathComponent(folder)
            files += try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                .map { directory.appendingPathComponent($0) }
        }
        files += try Fixture.demoMessages()
        XCTAssertGreaterThan(files.count, 20)
        var withoutContentFields = 0
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: file))
            let block = headerBlock(bytes)
            guard block.count < bytes.count else { continue }
            let text = "\n" + String(decoding: block, as: UTF8.self).lowercased()
            let contentFields = text.contains("\ncontent-")
            if !contentFields { withoutContentFields += 1 }
            let parsed = MessageParser.parse(block)
            assertSameHeader(parsed, MessageParser.parse(bytes), file.lastPathComponent, contentFields: contentFields)
            XCTAssertEqual(parsed.size, block.count, file.lastPathComponent)
        }
        // Both ways are taken: blocks without Content-* fields skip the MIME parse.
        XCTAssertGreaterThan(withoutContentFields, 0)
    }

    /// Content-* fields on an empty body still go through the MIME parse: a single
    /// part's file name, disposition or attached message is an attachment there too.
    func testContentFieldsOnAnEmptyBodyAreStillParsed() {
        let header = "From: a@example.org\r\nSubject: s\r\nMessage-ID: <x@example.org>\r\n"
        for (content, names) in [("Content-Type: multipart/mixed; boundary=b\r\n", []),
                                 ("Content-Type: message/rfc822\r\n", ["message.eml"]),
                                 ("content-disposition: attachment; filename=bill.pdf\r\n", ["bill.pdf"]),
                                 ("Content-Type: text/plain; name=a.txt\r\n", ["a.txt"])] {
            for end in ["\r\n", "\n", ""] {
                let message = MessageParser.parse(Array((header + content + end).utf8))
                XCTAssertEqual(message.subject, "s", content)
                XCTAssertEqual(message.attachments, names, content + end)
                XCTAssertEqual(message.snippet, "", content)
            }
        }
    }

    /// Bytes after the blank line are a body: parsed as one.
    func testABodyAfterTheHeaderIsStillRead() {
        let message = MessageParser.parse(Array("From: a@example.org\r\nSubject: s\r\n\r\nhello there\r\n".utf8))
        XCTAssertEqual(message.snippet, "hello there")
    }
}
