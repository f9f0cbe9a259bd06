import Foundation
import TriageCore
import XCTest

/// What compiling a `follow up` rule sets up: the header fields every fetch brings (an
/// answer's In-Reply-To and References, a sent message's recipients), `in:Sent` reading
/// the Sent folder, and the exporters leaving the action to triage.
final class FollowUpRulesTests: XCTestCase {
    private func compile(_ text: String) throws -> CompiledRules {
        let (defs, errors) = RuleParser.parse(text, path: "t.rules")
        XCTAssertEqual(errors, [])
        let (rules, diagnostics) = RuleCompiler.compile(defs, environment: RuleEnvironment(identities: ["me@example.test"],
                                                                                          timeZone: TimeZone(identifier: "UTC")!))
        XCTAssertEqual(diagnostics, [])
        return rules
    }

    func testFollowUpsFetchTheAnswerFieldsAndInSentReadsTheSentFolder() throws {
        let rules = try compile("rule \"q\" when in:Sent subject:quote then follow up in 3 days\n")
        XCTAssertTrue(rules.followsUp)
        XCTAssertTrue(rules.readsSent)
        let fields = try XCTUnwrap(rules.neededHeaderFields)
        for field in ["IN-REPLY-TO", "REFERENCES", "TO", "CC", "MESSAGE-ID", "FROM"] { XCTAssertTrue(fields.contains(field), field) }

        let plain = try compile("rule \"q\" when in:sent/ subject:quote then flag\n")
        XCTAssertFalse(plain.followsUp)
        XCTAssertTrue(plain.readsSent, "in:sent/ is in:Sent")
        XCTAssertFalse(plain.neededHeaderFields?.contains("IN-REPLY-TO") ?? true)
        XCTAssertFalse(try compile("rule \"q\" when in:\"Sent Items\" then flag\n").readsSent)
        XCTAssertTrue(try compile("rule \"q\" when -in:Sent then flag\n").readsSent, "a negated in:Sent still names the folder")
    }

    func testTheExportersLeaveFollowUpsToTriage() throws {
        let rules = try compile("rule \"q\" when subject:quote then follow up on monday at 9am\n")
        let sieve = SieveExporter.export(rules, archiveFolder: "Archive")
        XCTAssertEqual(sieve.leftToTriage.map(\.rule.name), ["q"])
        let gmail = GmailFilterExporter.export(rules, updated: "2026-01-01T00:00:00Z")
        XCTAssertEqual(gmail.filters, 0)
        XCTAssertEqual(gmail.leftToTriage.map(\.rule.name), ["q"])
        XCTAssertEqual(ActionWord.all.first { $0.name == .follow }?.writesRecord, true)
        XCTAssertEqual(ActionWord.all.first { $0.name == .follow }?.changesServer, false)
    }
}
