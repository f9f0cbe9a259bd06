import TriageCore
import XCTest

final class DiagnosticRendererTests: XCTestCase {
    func testRendersTheIssueExampleExactly() {
        var lines = Array(repeating: "# filler", count: 11)
        lines.append("  when form:boss@example.test")
        let source = lines.joined(separator: "\n") + "\n"
        let diagnostic = Diagnostic(path: "Rules/default.rules", line: 12, column: 8, length: 5,
                                    message: "unknown operator 'form:'; did you mean 'from:'?")
        XCTAssertEqual(DiagnosticRenderer.render(diagnostic, source: source), """
        Rules/default.rules:12:8: error: unknown operator 'form:'; did you mean 'from:'?
           12 |   when form:boss@example.test
              |        ^~~~~

        """)
    }

    func testParserDiagnosticRendersWithItsSourceLine() {
        let source = "rule \"typo\"\n  when form:boss@example.test\n  then flag\n"
        let (_, diagnostics) = RuleParser.parse(source, path: "Rules/default.rules")
        XCTAssertEqual(DiagnosticRenderer.render(diagnostics, sources: ["Rules/default.rules": source]), """
        Rules/default.rules:2:8: error: unknown operator 'form:'; did you mean 'from:'?
            2 |   when form:boss@example.test
              |        ^~~~~

        """)
    }

    func testGutterGrowsAndTabsKeepTheCaretAligned() {
        let source = String(repeating: "\n", count: 123455) + "\twhen\tfrom:x\n"
        let d = Diagnostic(path: "f.rules", line: 123456, column: 7, length: 5, message: "m")
        XCTAssertEqual(DiagnosticRenderer.render(d, source: source), """
        f.rules:123456:7: error: m
         123456 | \twhen\tfrom:x
                | \t    \t^~~~~

        """)
    }

    func testUnderlineStopsAtTheEndOfTheLineAndCountsCharacters() {
        let source = "rule \"café\" when x\"oops\n"
        let d = Diagnostic(path: "f.rules", line: 1, column: 19, length: 40, message: "unterminated")
        XCTAssertEqual(DiagnosticRenderer.render(d, source: source), """
        f.rules:1:19: error: unterminated
            1 | rule "café" when x"oops
              |                   ^~~~~

        """)
    }

    func testWholeFileAndWholeLineDiagnosticsHaveNoExcerpt() {
        XCTAssertEqual(DiagnosticRenderer.render(Diagnostic(path: "Rules", line: 0, column: 0, message: "no rule files"), source: nil),
                       "Rules: error: no rule files\n")
        XCTAssertEqual(DiagnosticRenderer.render(Diagnostic(path: "t.conf", line: 3, column: 0, message: "bad"), source: "a\nb\nc\n"),
                       "t.conf:3: error: bad\n")
        XCTAssertEqual(DiagnosticRenderer.render(Diagnostic(path: "x.rules", line: 2, column: 1, message: "m"), source: nil),
                       "x.rules:2:1: error: m\n")
    }
}
