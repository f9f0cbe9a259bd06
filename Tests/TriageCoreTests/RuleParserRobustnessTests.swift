import Foundation
import TriageCore
import XCTest

/// The parser must finish, without crashing, on any text: mangled copies of the
/// issue's examples stand in for what people type.
final class RuleParserRobustnessTests: XCTestCase {
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11 | state << 53
        }
    }

    func testMangledRuleFilesNeverCrashAndEveryDiagnosticPointsIntoTheFile() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("RuleCases/example-issue.rules")
        let original = Array(try String(contentsOf: url, encoding: .utf8))
        let pieces: [String] = ["(", ")", "{", "}", "\"", ",", "-", ":", "#", "\n", " ", "OR", "rule", "then", "when", "near", "é", "\t", "9"]
        var random = Seeded(state: 7)
        let environment = RuleEnvironment(identities: ["me@example.test"], timeZone: TimeZone(identifier: "UTC")!)
        var withErrors = 0
        for _ in 0..<400 {
            var text = original
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let at = Int.random(in: 0..<text.count, using: &random)
                if Bool.random(using: &random) {
                    text.remove(at: at)
                } else {
                    text.insert(contentsOf: pieces.randomElement(using: &random)!, at: at)
                }
            }
            let source = String(text)
            let (_, diagnostics) = RuleLoader.load([RuleSource(path: "m.rules", text: source)], folder: ".", environment: environment)
            let lines = source.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            for d in diagnostics {
                XCTAssertTrue(d.line >= 1 && d.line <= lines.count, "line \(d.line) outside the file: \(d.message)")
                XCTAssertTrue(d.column >= 1 && d.column <= lines[d.line - 1].count + 1, "column \(d.column) outside line \(d.line)")
                XCTAssertFalse(DiagnosticRenderer.render(d, source: source).isEmpty)
            }
            if !diagnostics.isEmpty { withErrors += 1 }
        }
        XCTAssertGreaterThan(withErrors, 100, "the mangling should break most files")
    }
}
