import Foundation
import TriageCore
import XCTest

/// Sieve semantics, the "why" of matches, and the `triage test` report.
final class RuleSemanticsTests: XCTestCase {
    let chicago = TimeZone(identifier: "America/Chicago")!
    let now = Date(timeIntervalSince1970: 1_772_463_600)  // 2026-03-02T09:00:00-06:00

    func compile(_ text: String, me: [String] = ["me@example.test"]) throws -> CompiledRules {
        let (rules, diagnostics) = RuleLoader.load([RuleSource(path: "t.rules", text: text)], folder: ".",
                                                   environment: RuleEnvironment(identities: me, timeZone: chicago))
        XCTAssertEqual(diagnostics, [])
        return try XCTUnwrap(rules)
    }

    func message(subject: String, from: String = "ann@mail.test") -> Message {
        var m = Message()
        m.subject = subject
        m.from = [Address(address: from)]
        return m
    }

    func testStopEndsEvaluationAfterItsOwnActions() throws {
        let rules = try compile("""
        rule a when x then label "1", stop
        rule b when x then label "2"
        """)
        let e = RuleEvaluator.evaluate(message(subject: "x"), rules: rules, now: now)
        XCTAssertEqual(e.matches.map(\.rule), ["a"])
        XCTAssertEqual(e.matches[0].actions, [.label("1"), .stop])
        XCTAssertEqual(e.planned, [PlannedAction(action: .label("1"), rule: "a")])
        XCTAssertEqual(e.stoppedBy, "a")
    }

    func testSameActionFromTwoRulesHappensOnce() throws {
        let rules = try compile("""
        rule a when x then flag, queue rec
        rule b when x then queue rec, flag, label "b"
        """)
        let e = RuleEvaluator.evaluate(message(subject: "x"), rules: rules, now: now)
        XCTAssertEqual(e.planned.map(\.action), [.flag, .queue(name: "rec", inDays: nil), .label("b")])
        XCTAssertEqual(e.planned.map(\.rule), ["a", "a", "b"])
        XCTAssertEqual(e.dropped.map(\.reason), [.duplicate, .duplicate])
        XCTAssertEqual(e.matches[1].actions, [.label("b")])
    }

    func testFirstMoveWinsAndTheSecondIsShownAsDropped() throws {
        let rules = try compile("""
        rule "to lists" when x then move "Lists"
        rule "to archive" when x then move "Archive", flag
        """)
        let m = message(subject: "x")
        let e = RuleEvaluator.evaluate(m, rules: rules, now: now, explain: true)
        XCTAssertEqual(e.planned.map(\.action), [.move("Lists"), .flag])
        XCTAssertEqual(e.dropped, [DroppedAction(action: .move("Archive"), rule: "to archive",
                                                 kept: PlannedAction(action: .move("Lists"), rule: "to lists"), reason: .conflict)])
        XCTAssertEqual(RuleTestReport.text(file: "m.eml", message: m, evaluation: e), """
        m.eml
          rule "to lists" (t.rules:1) matched on x
            move "Lists"
          rule "to archive" (t.rules:2) matched on x
            flag
          dropped move "Archive" from rule "to archive": rule "to lists" came first with move "Lists"

        """)
    }

    func testNoMatchReport() throws {
        let rules = try compile("rule a when x then flag")
        var m = message(subject: "y")
        m.messageID = "id@x.test"
        let e = RuleEvaluator.evaluate(m, rules: rules, now: now, explain: true)
        XCTAssertEqual(RuleTestReport.text(file: "-", message: m, evaluation: e), "- <id@x.test>\n  no rule matched\n")
        XCTAssertEqual(RuleTestReport.json(file: "-", message: m, evaluation: e, today: rules.today(at: now)).serialized,
                       #"{"file":"-","message_id":"id@x.test","matched":[]}"#)
    }

    func testWhyListsTheTermsThatMatched() throws {
        let rules = try compile("rule r when (from:ann OR from:bob) -subject:spam {urgent asap} then flag")
        let e = RuleEvaluator.evaluate(message(subject: "ASAP please", from: "Bob <bob@x.test>"), rules: rules, now: now, explain: true)
        XCTAssertEqual(e.matches.first?.why, ["from:bob", "-subject:spam", "asap"])
        let quiet = RuleEvaluator.evaluate(message(subject: "ASAP please", from: "bob@x.test"), rules: rules, now: now)
        XCTAssertEqual(quiet.matches.first?.why, [], "why is only worked out when asked for")
    }

    func testCompiledRulesKeepNamesPlacesAndQueries() throws {
        let rules = try compile("\n\nrule \"r\" when FROM:Ann  subject:(a OR b) then flag")
        XCTAssertEqual(rules.rules.map(\.name), ["r"])
        XCTAssertEqual(rules.rules[0].line, 3)
        XCTAssertEqual(rules.rules[0].query, "from:Ann (subject:a OR subject:b)")
        XCTAssertEqual(rules.rules[0].actions, [.flag])
    }

    /// The shipped Rules/default.rules: "money to reconcile" queues a message that an
    /// earlier rule of the same pass labelled "money" (before: only on a later run).
    func testShippedMoneyRuleSeesALabelSetEarlierInTheSamePass() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let shipped = try String(contentsOf: root.appendingPathComponent("Rules/default.rules"), encoding: .utf8)
        let (loaded, diagnostics) = RuleLoader.load(
            [RuleSource(path: "00-tag.rules", text: "rule \"tag receipts\" when subject:receipt then label \"money\"\n"),
             RuleSource(path: "Rules/default.rules", text: shipped)],
            folder: ".", environment: RuleEnvironment(identities: ["me@example.test"], timeZone: chicago))
        XCTAssertEqual(diagnostics, [])
        let rules = try XCTUnwrap(loaded)
        let e = RuleEvaluator.evaluate(message(subject: "Your receipt"), rules: rules, now: now, explain: true)
        XCTAssertEqual(e.matches.map(\.rule), ["tag receipts", "money to reconcile"])
        XCTAssertEqual(e.matches.last?.why, ["label:money"])
        XCTAssertEqual(e.planned.map(\.action), [.label("money"), .queue(name: "rec", inDays: nil)])
    }

    /// `in:` compares in the rules' folder names: on Courier (prefix INBOX., separator .)
    /// a mailbox configured either way, and a move written either way, are the same folder.
    func testInFolderMapsTheServersNamespaceBack() throws {
        let courier = FolderNamespace(prefix: "INBOX.", separator: ".")
        let rules = try compile("""
        rule "dev" when in:Lists/dev then label "dev"
        rule "old" when subject:old then move "INBOX.Archive.2025"
        rule "archived" when in:archive/2025 then label "archived"
        """)
        for mailbox in ["INBOX.Lists.dev", "Lists/dev", "inbox.Lists.dev"] {
            var m = message(subject: "x")
            m.server.mailbox = mailbox
            XCTAssertEqual(RuleEvaluator.evaluate(m, rules: rules, now: now, folders: courier).matches.map(\.rule), ["dev"], mailbox)
        }
        var old = message(subject: "old")
        old.server.mailbox = "INBOX"
        XCTAssertEqual(RuleEvaluator.evaluate(old, rules: rules, now: now, folders: courier).matches.map(\.rule), ["old", "archived"])
        // Without the namespace, the server's spelling is just another name.
        old.server.mailbox = "INBOX.Lists.dev"
        XCTAssertEqual(RuleEvaluator.evaluate(old, rules: rules, now: now).matches.map(\.rule), ["old"])
    }

    /// `header:` reads the header block, which every fetch brings: it asks for no
    /// text or structure; the rules say which fields the parser must keep.
    func testHeaderTermsNeedOnlyTheHeaderAndNameTheirFields() throws {
        let rules = try compile("""
        rule a when header:X-Spam-Flag:yes then flag
        rule b when header:List-Unsubscribe:* -header:x-spam-flag:no then flag
        rule c when in:INBOX is:important then flag
        """)
        XCTAssertEqual(rules.neededParts, [])
        XCTAssertEqual(rules.headerNames, ["x-spam-flag", "list-unsubscribe"])
        XCTAssertEqual(rules.importantRules.map(\.name), ["c"])
        XCTAssertEqual(try compile("rule a when from:x then flag").importantRules.map(\.name), [])
    }

    /// Warnings leave the rules usable (`triage run` and `test` go on); errors do not.
    func testWarningsDoNotStopTheRules() throws {
        let environment = RuleEnvironment(identities: [], timeZone: chicago)
        let (rules, diagnostics) = RuleLoader.load([RuleSource(path: "t.rules", text: "rule r when a OR b c then flag")],
                                                   folder: ".", environment: environment)
        XCTAssertEqual(diagnostics.map(\.severity), [.warning])
        XCTAssertNotNil(rules)
        let (broken, _) = RuleLoader.load([RuleSource(path: "t.rules", text: "rule r when a OR b c then flg")],
                                          folder: ".", environment: environment)
        XCTAssertNil(broken)
    }
}
