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

    func testCutEscapeDetection() {
        let cases: [(String, Bool)] = [("", false), ("=", false), ("a=4", true), ("=41", false), ("=4", true),
                                       ("a=41=4", true), ("a=4=", false), ("=\r\n=4", true), ("=\n=4", true),
                                       ("=\r=4", true), ("a=\r", false), ("=3=4", false)]
        for (text, expected) in cases {
            XCTAssertEqual(MIMEWalker.endsInCutEscape(Array(text.utf8)), expected, text.debugDescription)
        }
    }
}
