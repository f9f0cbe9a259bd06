import Foundation
import TriageCore
import XCTest

/// Labels as the server keeps them: compared without ASCII case when planning (so a
/// rerun sends nothing where Cyrus, Courier or Dovecot kept the case first set),
/// shortened when too long, and refused by `triage check` when a rule spells out
/// a label no server would take.
final class LabelPlanningTests: XCTestCase {
    private let environment = RuleEnvironment(identities: ["me@example.test"], timeZone: TimeZone(identifier: "UTC")!)
    private let long = "Dr. Maximiliane Müller-Lüdenscheidt von Hohenzollern-Sigmaringen"

    private func facts(labels: Set<String>) -> ServerFacts {
        var facts = ServerFacts()
        facts.labels = labels
        return facts
    }

    private func plan(_ actions: [Action], labels: Set<String>) -> ServerPlan {
        var plan = ServerPlan()
        plan.add(actions.map { PlannedAction(action: $0, rule: "r") }, uid: 7, facts: facts(labels: labels), mailbox: "INBOX")
        return plan
    }

    func testALabelTheMessageHasInAnotherCaseIsNotSentAgain() {
        XCTAssertTrue(plan([.label("rec")], labels: ["REC"]).isEmpty)
        XCTAssertTrue(plan([.label("No Push")], labels: ["no push"]).isEmpty)
        XCTAssertEqual(plan([.label("rec")], labels: ["receipts"]).changes.map(\.change), [FlagChange(.add, labels: ["rec"])])
    }

    func testUnlabelRemovesTheSpellingTheMessageHas() {
        let changes = plan([.unlabel("rec")], labels: ["REC"]).changes
        XCTAssertEqual(changes.map(\.change), [FlagChange(.remove, labels: ["REC"])])
        XCTAssertEqual(changes.map(\.uids), [[7]])
        XCTAssertTrue(plan([.unlabel("rec")], labels: ["other"]).isEmpty)
    }

    func testALongLabelTheServerKeptShortenedIsNotSentAgain() {
        XCTAssertTrue(plan([.label(long)], labels: [LabelCodec.stored(long)]).isEmpty)
        XCTAssertFalse(plan([.label(long + "!")], labels: [LabelCodec.stored(long)]).isEmpty)
    }

    private func load(_ text: String) -> (CompiledRules?, [Diagnostic]) {
        RuleLoader.load([RuleSource(path: "t.rules", text: text)], folder: ".", environment: environment)
    }

    func testCheckRefusesAStaticLabelTooLongForAKeyword() {
        let (rules, diagnostics) = load("rule a when x then label \"\(long)\"\nrule b when y then unlabel \"\(long)\"")
        XCTAssertNil(rules)
        XCTAssertEqual(diagnostics.map(\.line), [1, 2])
        XCTAssertTrue(diagnostics.allSatisfy { $0.message.contains("too long for an IMAP keyword") && $0.message.contains("at most 50") },
                      "\(diagnostics.map(\.message))")
        // 50 bytes once encoded is fine; 51 is not.
        XCTAssertEqual(load("rule a when x then label \"\(String(repeating: "k", count: 50))\"").1, [])
        XCTAssertEqual(load("rule a when x then label \"\(String(repeating: "k", count: 51))\"").1.count, 1)
        XCTAssertEqual(load("rule a when x then label \"\(String(repeating: "é", count: 8))\"").1, [], "48 bytes")
        XCTAssertEqual(load("rule a when x then label \"\(String(repeating: "é", count: 9))\"").1.count, 1, "54 bytes")
    }

    func testALabelFromPlaceholdersMayBeLongAndIsShortenedWhenStored() {
        let (rules, diagnostics) = load("rule a when x then label \"From {from.name} about {subject}, and a long tail of text\"")
        XCTAssertEqual(diagnostics, [])
        XCTAssertNotNil(rules)
    }

    func testLabelQueryFindsAShortenedLabelByItsFullName() throws {
        let (loaded, diagnostics) = load("rule a when label:\"\(long)\" then flag")
        XCTAssertEqual(diagnostics, [])
        let rules = try XCTUnwrap(loaded)
        var message = Message()
        message.server.labels = [LabelCodec.stored(long)]  // what the server hands back
        XCTAssertEqual(RuleEvaluator.evaluate(message, rules: rules, now: Date()).planned.map(\.action), [.flag])
        message.server.labels = [LabelCodec.stored(long + "x")]
        XCTAssertEqual(RuleEvaluator.evaluate(message, rules: rules, now: Date()).planned, [])
        // Gmail hands back the full label: found too.
        message.server.labels = [long]
        XCTAssertEqual(RuleEvaluator.evaluate(message, rules: rules, now: Date()).planned.map(\.action), [.flag])
    }
}
