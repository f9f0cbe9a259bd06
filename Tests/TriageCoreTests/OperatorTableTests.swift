import Foundation
@testable import TriageCore
import XCTest

/// The operator and action tables (`QueryOperator`, `ActionWord`) against what users
/// read: docs/rules.md lists exactly the table's operators and actions, and the table
/// agrees with the parser and the exporters it describes.
final class OperatorTableTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The first column of the markdown table under `heading` in docs/rules.md.
    private func firstColumn(under heading: String) throws -> [String] {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let start = try XCTUnwrap(lines.firstIndex(of: heading), heading)
        let rows = lines[(start + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.dropFirst(2)
        return rows.map { $0.dropFirst(2).components(separatedBy: " | ")[0] }
    }

    /// The code spans of `cell`: `from:` `to:` gives ["from:", "to:"].
    private func spans(_ cell: String) -> [String] {
        cell.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    }

    func testDocsListExactlyTheTablesOperators() throws {
        let documented = try firstColumn(under: "### Operators").flatMap(spans)
        // header:NAME:VALUE and in:FOLDER are written with their value; is: and has: with each keyword.
        let operators = documented.filter { $0.contains(":") }.map { span in
            QueryOperator.all.contains { $0.spellings.contains(span) } ? span : String(span.prefix { $0 != ":" }) + ":"
        }
        let table = QueryOperator.all.flatMap(\.spellings)
        XCTAssertEqual(Set(operators), Set(table), "docs/rules.md's operator table and QueryOperator.all differ")
        XCTAssertEqual(operators.count, Set(operators).count, "an operator listed twice: \(operators)")
    }

    func testDocsListExactlyTheTablesActions() throws {
        let documented = try firstColumn(under: "## Actions").flatMap(spans)
        let words = documented.map { String($0.prefix { $0 != " " }) }
        XCTAssertEqual(Set(words), Set(ActionWord.Name.allCases.map(\.rawValue)), "docs/rules.md's action table and ActionWord.all differ")
        for action in ActionWord.all {
            for form in action.forms where !form.contains("[") {
                XCTAssertTrue(documented.contains { $0.hasPrefix(form) }, "\(form) not in docs/rules.md")
            }
        }
    }

    /// Every keyword the table lists parses to its own term; every example action is
    /// written with its word; every operator's spelling is one the parser takes.
    func testTheParserReadsTheTable() throws {
        for op in QueryOperator.all {
            let field = try XCTUnwrap(op.field)
            XCTAssertEqual(QueryField(name: field.rawValue), field)
            for keyword in op.keywords {
                let (rules, errors) = RuleParser.parse("rule \"r\" when \(field.spelling)\(keyword) then stop", path: "t.rules")
                XCTAssertEqual(errors, [], keyword)
                guard case .term(let term)? = rules.first?.query else { return XCTFail(keyword) }
                XCTAssertEqual(term.predicate.field, field, keyword)
            }
        }
        for action in ActionWord.all {
            for example in action.examples { XCTAssertEqual(example.word, action.name) }
        }
        XCTAssertFalse(ActionWord.all.first { $0.name == .archive }!.writesRecord)
        XCTAssertTrue(ActionWord.all.first { $0.name == .archive }!.changesServer)
        XCTAssertTrue(ActionWord.all.first { $0.name == .remind }!.writesRecord)
    }

    /// An operator the table says Sieve can never answer leaves its rule to triage, with
    /// the table's reason; the Gmail and SEARCH columns hold for a whole address.
    func testTheExportersFollowTheTable() throws {
        for op in QueryOperator.all {
            let field = try XCTUnwrap(op.field)
            guard case .never(let reason) = op.sieve, field != .category else { continue }
            let value = op.keywords.first ?? sample(field)
            let (rules, diagnostics) = compile("rule \"r\" when \(field.spelling)\(value) then move \"X\"")
            XCTAssertEqual(diagnostics, [], field.rawValue)
            let result = SieveExporter.export(rules, archiveFolder: "Archive")
            XCTAssertEqual(result.leftToTriage.map(\.reason), ["\(field.spelling)\(value): \(reason)"], field.rawValue)
        }
        for field in QueryField.allCases where field.isAddress {
            let (rules, _) = compile("rule \"r\" when \(field.spelling)boss@example.test then move \"X\"")
            XCTAssertEqual(GmailFilterExporter.export(rules, updated: "2026-01-01T00:00:00Z").filters, QueryOperator[field].gmail ? 1 : 0,
                           field.rawValue)
            XCTAssertEqual(ServerNarrowing.plan(rules).key != nil, QueryOperator[field].search != nil, field.rawValue)
        }
    }

    private func sample(_ field: QueryField) -> String {
        switch QueryOperator[field].syntax {
        case .size: return "5M"
        case .age: return "2d"
        case .date: return "2026/01/31"
        case .address: return "boss@example.test"
        default: return "report"
        }
    }

    private func compile(_ text: String) -> (CompiledRules, [Diagnostic]) {
        let (defs, errors) = RuleParser.parse(text, path: "t.rules")
        let (rules, diagnostics) = RuleCompiler.compile(defs, environment: RuleEnvironment(identities: ["me@example.test"], timeZone: TimeZone(identifier: "UTC")!))
        return (rules, errors + diagnostics)
    }
}
