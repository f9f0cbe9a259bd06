import Foundation
import TriageCore
import XCTest

/// Loading several files, and the shipped default rules.
final class RuleLoaderTests: XCTestCase {
    let environment = RuleEnvironment(identities: ["me@example.test"], timeZone: TimeZone(identifier: "UTC")!)

    func testFolderWithoutRuleFilesIsADiagnostic() {
        let (rules, diagnostics) = RuleLoader.load([], folder: "Rules", environment: environment)
        XCTAssertNil(rules)
        XCTAssertEqual(diagnostics.map { DiagnosticRenderer.render($0, source: nil) },
                       ["Rules: error: no rule files in this folder; add a file whose name ends in .rules (Rules/default.rules is a start)\n"])
    }

    func testRulesRunInFileOrderAndNamesAreUniqueAcrossFiles() throws {
        let a = RuleSource(path: "Rules/a.rules", text: "rule one when x then label \"a\"\nrule two when x then label \"b\"")
        let b = RuleSource(path: "Rules/b.rules", text: "rule three when x then flag")
        let (rules, diagnostics) = RuleLoader.load([a, b], folder: "Rules", environment: environment)
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(try XCTUnwrap(rules).rules.map(\.name), ["one", "two", "three"])
        XCTAssertEqual(rules?.rules.map(\.path), ["Rules/a.rules", "Rules/a.rules", "Rules/b.rules"])

        let dup = RuleSource(path: "Rules/c.rules", text: "# again\nrule two when y then flag")
        let (none, problems) = RuleLoader.load([a, b, dup], folder: "Rules", environment: environment)
        XCTAssertNil(none)
        XCTAssertEqual(DiagnosticRenderer.render(problems, sources: [dup.path: dup.text]), """
        Rules/c.rules:2:6: error: duplicate rule name "two"; it is first used at Rules/a.rules:2
            2 | rule two when y then flag
              |      ^~~

        """)
    }

    func testDiagnosticsOfEveryFileAreCollectedInFileOrder() {
        let a = RuleSource(path: "a.rules", text: "rule x when form:y then flag\nrule z when q then lable \"l\"")
        let b = RuleSource(path: "b.rules", text: "rule w when cc:me then flg")
        let (_, diagnostics) = RuleLoader.load([a, b], folder: ".", environment: RuleEnvironment(identities: [], timeZone: environment.timeZone))
        XCTAssertEqual(diagnostics.map { "\($0.path):\($0.line):\($0.column)" },
                       ["a.rules:1:13", "a.rules:2:20", "b.rules:1:16", "b.rules:1:24"])
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testDefaultRulesCheckCleanAndDoWhatTheySay() throws {
        let path = Self.root.appendingPathComponent("Rules/default.rules").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let (loaded, diagnostics) = RuleLoader.load([RuleSource(path: "Rules/default.rules", text: text)], folder: "Rules",
                                                    environment: environment)
        XCTAssertEqual(diagnostics, [])
        let rules = try XCTUnwrap(loaded)
        var ccOnly = Message()
        ccOnly.to = [Address(address: "team@x.test")]
        ccOnly.cc = [Address(address: "me@example.test")]
        var money = Message()
        money.to = [Address(address: "me@example.test")]
        money.server.labels = ["money"]
        let now = Date(timeIntervalSince1970: 1_772_463_600)
        XCTAssertEqual(RuleEvaluator.evaluate(ccOnly, rules: rules, now: now).planned.map(\.action),
                       [.label("no push"), .archive, .digest(section: "FYI")], "out of the inbox: no push")
        var ccList = ccOnly
        ccList.listID = "dev.lists.example"
        XCTAssertEqual(RuleEvaluator.evaluate(ccList, rules: rules, now: now).planned.map(\.action), [], "lists are left to list rules")
        XCTAssertEqual(RuleEvaluator.evaluate(money, rules: rules, now: now).planned.map(\.action), [.queue(name: "rec", inDays: nil)])

        // Every rule is introduced by a comment, and the suggested rules compile once uncommented.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (i, line) in lines.enumerated() where line.hasPrefix("rule ") || line.hasPrefix("# rule ") {
            XCTAssertTrue(i > 0 && lines[i - 1].hasPrefix("#") && !lines[i - 1].hasPrefix("# rule"), "no comment above: \(line)")
        }
        let uncommented = lines.map { line -> String in
            line.hasPrefix("# rule ") || line.hasPrefix("#   when ") || line.hasPrefix("#   then ") ? String(line.dropFirst(2)) : line
        }.joined(separator: "\n")
        let (all, problems) = RuleLoader.load([RuleSource(path: "default", text: uncommented)], folder: ".", environment: environment)
        XCTAssertEqual(problems, [])
        XCTAssertGreaterThanOrEqual(all?.rules.count ?? 0, 5)
    }
}
