import Foundation
import TriageCore
import XCTest

/// Walks `RuleCases/`: each file states its own expected diagnostics or matches
/// in comments (see `RuleCase`), in the manner of Crafting Interpreters' suite.
final class RuleCaseTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("RuleCases")

    func testEveryRuleCase() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".rules") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 20, "the case folder looks incomplete")
        for name in names {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
            let ruleCase = try RuleCase(name: name, text: text)
            check(ruleCase, text: text)
        }
    }

    private func check(_ c: RuleCase, text: String) {
        XCTAssertFalse(c.errors.isEmpty && c.messages.isEmpty, "\(c.name): states no expectation")
        guard let zone = TimeZone(identifier: c.timeZone), let now = RuleCase.messageDate(c.now) else {
            return XCTFail("\(c.name): bad time zone or now")
        }
        let environment = RuleEnvironment(identities: c.identities, timeZone: zone, places: c.places,
                                          today: Timestamp.day(of: Date(timeIntervalSince1970: TimeInterval(now.secondsSince1970)), in: zone))
        let (rules, diagnostics) = RuleLoader.load([RuleSource(path: c.name, text: text)], folder: "RuleCases", environment: environment)
        func written(_ severity: Diagnostic.Severity) -> [String] {
            diagnostics.filter { $0.severity == severity }.map { "\($0.line):\($0.column): \($0.message)" }
        }
        XCTAssertEqual(written(.error), c.errors, "\(c.name): errors differ")
        XCTAssertEqual(written(.warning), c.warnings, "\(c.name): warnings differ")
        guard c.errors.isEmpty else {
            XCTAssertTrue(c.messages.isEmpty, "\(c.name): a file with errors cannot also test messages")
            return
        }
        guard let rules else { return XCTFail("\(c.name): did not compile") }
        let instant = Date(timeIntervalSince1970: TimeInterval(now.secondsSince1970))
        for m in c.messages {
            let place = "\(c.name):\(m.line) (\(m.title))"
            XCTAssertTrue(m.expectsNoMatch || !m.matches.isEmpty || m.json != nil, "\(place): no match expectation")
            let evaluation = RuleEvaluator.evaluate(m.message, rules: rules, now: instant, explain: true)
            XCTAssertEqual(evaluation.matches.map(\.rule), m.matches.map(\.rule), "\(place): matched rules differ")
            for (expected, actual) in zip(m.matches, evaluation.matches) where expected.why != nil {
                XCTAssertEqual(actual.why.joined(separator: ", "), expected.why, "\(place): why of \(expected.rule)")
            }
            if let actions = m.actions {
                XCTAssertEqual(evaluation.planned.map { ActionFormatter.text($0.action) }, actions, "\(place): planned actions differ")
            }
            if let dropped = m.dropped {
                XCTAssertEqual(evaluation.dropped.map { ActionFormatter.text($0.action) }, dropped, "\(place): dropped actions differ")
            }
            if let json = m.json {
                let line = RuleTestReport.json(file: "case", message: m.message, evaluation: evaluation,
                                               today: rules.today(at: instant)).serialized
                XCTAssertEqual(line, json, "\(place): JSON differs")
            }
        }
    }
}
