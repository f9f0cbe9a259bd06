import TriageCore
@testable import TriageMIME
import XCTest

/// Inputs that libFuzzer found to crash or misbehave (`fuzz/run.sh FuzzMessage`,
/// see docs/RELIABILITY.md), kept in `Fixtures/fuzz/` so they stay fixed. Every
/// one is parsed whole and as a header block; the suite also runs under
/// AddressSanitizer, which is what catches a reappearing over-read.
final class FuzzFindingTests: XCTestCase {
    private func findings() throws -> [URL] {
        let folder = Fixture.directory.appendingPathComponent("fuzz")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }

    func testEveryFindingParses() throws {
        let files = try findings()
        XCTAssertFalse(files.isEmpty, "no fuzz findings in Fixtures/fuzz")
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: file))
            let whole = MessageParser.parse(bytes)
            XCTAssertEqual(whole.size, bytes.count, file.lastPathComponent)
            XCTAssertEqual(whole.headerHash.count, 64, file.lastPathComponent)
            let header = MessageParser.parseHeader(bytes)
            XCTAssertEqual(header.headerHash, whole.headerHash, file.lastPathComponent)
        }
    }

    /// libetpan's decoder read one byte past a quoted-printable part ending in `=X`
    /// and put that byte in the text; the cut escape is now kept as written.
    func testQuotedPrintableEndingInACutEscapeKeepsIt() throws {
        // Fixtures/fuzz/qp-cut-escape-at-end.eml is the input the fuzzer found.
        for (body, snippet) in [("caf=E9 ok =4", "café ok =4"), ("abc=\r\n=41=", "abcA="), ("x=3D=", "x=="),
                                ("line=\r\nend =Z", "lineend =Z")] {
            let message = "From: a@example.org\r\nSubject: qp\r\nMIME-Version: 1.0\r\n"
                + "Content-Type: text/plain; charset=iso-8859-1\r\n"
                + "Content-Transfer-Encoding: quoted-printable\r\n\r\n" + body
            XCTAssertEqual(MessageParser.parse(Array(message.utf8)).snippet, snippet, body)
        }
    }

    func testInvalidEscapesAreWrittenAsEscapedEquals() {
        let cases: [(String, String)] = [("", ""), ("=", "=3D"), ("a=4", "a=3D4"), ("=41", "=41"), ("=4", "=3D4"),
                                         ("a=41=4", "a=41=3D4"), ("a=4=", "a=3D4=3D"), ("=\r\n=4", "=\r\n=3D4"),
                                         ("=\n=4", "=\n=3D4"), ("a=\r", "a=\r"), ("= \t\r\nx", "= \t\r\nx"),
                                         ("=od =UTF8 =c3=a9", "=3Dod =3DUTF8 =c3=a9")]
        for (text, expected) in cases {
            XCTAssertEqual(String(decoding: MIMEWalker.keepingInvalidEscapes(Array(text.utf8)), as: UTF8.self),
                           expected, text.debugDescription)
        }
    }
}
