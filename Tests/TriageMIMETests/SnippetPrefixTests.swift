import Foundation
import TriageCore
import TriageMIME
import XCTest

/// `MessageParser.parse(prefix:)`: a record's snippet from a short prefix of the
/// text (`triage run` fetches `BODY.PEEK[TEXT]<0.2048>` first) is the snippet the
/// usual 32 KiB prefix gives, or the prefix is refused (nil) and the run fetches more.
final class SnippetPrefixTests: XCTestCase {
    /// The usual fetch: the whole header and up to 32 KiB of text.
    private func usual(_ bytes: [UInt8]) -> Message {
        let (header, text) = split(bytes)
        return MessageParser.parse(header + Array(text.prefix(32 * 1024)))
    }

    private func split(_ bytes: [UInt8]) -> (header: [UInt8], text: [UInt8]) {
        for i in bytes.indices where bytes[i] == 0x0A {
            if i + 1 < bytes.count, bytes[i + 1] == 0x0A { return (Array(bytes[...(i + 1)]), Array(bytes[(i + 2)...])) }
            if i + 2 < bytes.count, bytes[i + 1] == 0x0D, bytes[i + 2] == 0x0A {
                return (Array(bytes[...(i + 2)]), Array(bytes[(i + 3)...]))
            }
        }
        return (bytes, [])
    }

    /// Every cut of `bytes`' text (each `step` bytes) that settles gives the usual
    /// snippet and header fields; returns how many cuts settled.
    @discardableResult
    private func checkCuts(_ bytes: [UInt8], name: String, step: Int = 37) -> Int {
        let expected = usual(bytes)
        let (header, text) = split(bytes)
        var settled = 0
        var cut = 1
        while cut < min(text.count, 32 * 1024) {
            if let message = MessageParser.parse(prefix: header + Array(text.prefix(cut))) {
                settled += 1
                XCTAssertEqual(message.snippet, expected.snippet, "\(name) cut at \(cut)")
                XCTAssertEqual(message.subject, expected.subject, "\(name) cut at \(cut)")
                XCTAssertEqual(message.headerHash, expected.headerHash, "\(name) cut at \(cut)")
                XCTAssertEqual(message.messageID, expected.messageID, "\(name) cut at \(cut)")
            }
            cut += step
        }
        return settled
    }

    private func message(_ head: String, _ body: String) -> [UInt8] {
        Array(("From: a@example.test\nTo: me@example.test\nSubject: s\nMessage-ID: <x@example.test>\nMIME-Version: 1.0\n"
               + head + "\n\n" + body).utf8)
    }

    /// Words with accents and CJK, so cuts fall inside UTF-8 sequences and escapes.
    private let prose = (0..<80).map { "Zeile \($0): Grüße aus Köln, naïve café — 東京の天気 ok.\n" }.joined()

    func testDemoAndFixtureMessagesGiveTheUsualSnippetFromEveryPrefixThatSettles() throws {
        var settled = 0
        for file in try Fixture.demoMessages() {
            settled += checkCuts([UInt8](try Data(contentsOf: file)), name: file.lastPathComponent, step: 13)
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: Fixture.directory.path) where !name.hasPrefix(".") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: Fixture.directory.appendingPathComponent(name).path,
                                                 isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            settled += checkCuts(try Fixture.bytes(name), name: name, step: 13)
        }
        XCTAssertGreaterThan(settled, 0, "some prefix of the demo settles its snippet")
    }

    func testCutsInsideEncodingsGiveTheUsualSnippet() {
        let base64 = Data(prose.utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed])
        let qp = prose.utf8.map { b -> String in
            b == 0x0A ? "\n" : (b >= 0x80 || b == 0x3D ? String(format: "=%02X", b) : String(UnicodeScalar(b)))
        }.joined()
        let cases: [(String, [UInt8])] = [
            ("8bit", message("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit", prose)),
            ("base64", message("Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: base64", base64)),
            ("qp", message("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable", qp)),
            ("latin1", message("Content-Type: text/plain; charset=iso-8859-1", String(repeating: "caf\u{E9} ", count: 200))),
            ("alternative", message("Content-Type: multipart/alternative; boundary=\"b\"",
                                    "--b\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
                                    + base64 + "\n--b\nContent-Type: text/html\n\n<p>html</p>\n--b--\n")),
        ]
        for (name, bytes) in cases {
            XCTAssertGreaterThan(checkCuts(bytes, name: name, step: 3), 30, name)
        }
        // A 2 KiB prefix settles them (what `triage run` fetches first).
        for (name, bytes) in cases {
            let (header, text) = split(bytes)
            XCTAssertNotNil(MessageParser.parse(prefix: header + Array(text.prefix(2048))), name)
        }
    }

    func testUnsureSnippetsAreRefused() {
        let (h1, t1) = split(message("Content-Type: text/html; charset=utf-8", "<p>" + prose + "</p>"))
        XCTAssertNil(MessageParser.parse(prefix: h1 + Array(t1.prefix(2048))), "HTML: a later text/plain would win")
        // Unlabelled 8-bit text is UTF-8 only if all of it is: the rest decides.
        let (h2, t2) = split(message("Content-Type: text/plain", prose))
        XCTAssertNil(MessageParser.parse(prefix: h2 + Array(t2.prefix(2048))), "unlabelled non-ASCII")
        let (h3, t3) = split(message("Content-Type: text/plain", String(repeating: "plain ascii words ", count: 200)))
        XCTAssertNotNil(MessageParser.parse(prefix: h3 + Array(t3.prefix(2048))), "unlabelled ASCII")
        // iconv charsets may decode a cut sequence differently: fetched whole.
        let (h4, t4) = split(message("Content-Type: text/plain; charset=koi8-r", String(repeating: "words ", count: 400)))
        XCTAssertNil(MessageParser.parse(prefix: h4 + Array(t4.prefix(2048))), "iconv charset")
        // Too short a prefix to fill the snippet.
        let (h5, t5) = split(message("Content-Type: text/plain; charset=utf-8", prose))
        XCTAssertNil(MessageParser.parse(prefix: h5 + Array(t5.prefix(150))), "short prefix")
        // A cut UTF-8 sequence right where the snippet ends: the margin keeps it out.
        let bytes = message("Content-Type: text/plain; charset=utf-8", String(repeating: "a", count: 199) + "é" + prose)
        let (h6, t6) = split(bytes)
        let cut = h6 + Array(t6.prefix(200))
        XCTAssertNil(MessageParser.parse(prefix: cut), "cut sequence at the snippet's end")
        XCTAssertEqual(checkCuts(bytes, name: "edge", step: 1) > 0, true)
    }
}
