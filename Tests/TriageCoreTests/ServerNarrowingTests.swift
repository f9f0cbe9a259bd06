import Foundation
import TriageCore
import XCTest

/// `ServerNarrowing`: which rules the server's `UID SEARCH` can narrow, and by what.
/// Each case is rules and the search (as IMAP writes it), or nil: every message fetched.
final class ServerNarrowingTests: XCTestCase {
    let identities = ["me@example.test", "Me.Too@Example.ORG"]

    func plan(_ text: String) throws -> ServerNarrowing {
        let (rules, diagnostics) = RuleLoader.load([RuleSource(path: "t.rules", text: text)], folder: ".",
                                                   environment: RuleEnvironment(identities: identities, timeZone: .gmt))
        XCTAssertEqual(diagnostics.filter { $0.severity == .error }, [], text)
        return ServerNarrowing.plan(try XCTUnwrap(rules))
    }

    func testPushdownTable() throws {
        let cases: [(rules: String, search: String?)] = [
            // The bench's rules: a positive cc:me beside the negated -to:me; an @domain.
            ("rule a when cc:me -to:me then label x\nrule b when from:@bank.example then label y",
             #"OR CC "me@example.test" OR CC "me.too@example.org" FROM "bank.example""#),
            // me is every identity, lower-cased; to: reads To only.
            ("rule a when to:me then flag", #"OR TO "me@example.test" TO "me.too@example.org""#),
            // A whole address, bcc.
            ("rule a when bcc:Boss@Example.Test then flag", #"BCC "boss@example.test""#),
            // Negation is never pushed down, alone or in a group.
            ("rule a when -from:@spam.example then flag", nil),
            ("rule a when -(from:a@x.test OR from:b@x.test) then flag", nil),
            // OR: every branch must be pushable.
            ("rule a when from:a@x.test OR cc:@y.test then flag", #"OR FROM "a@x.test" CC "y.test""#),
            ("rule a when from:a@x.test OR subject:hello then flag", nil),
            ("rule a when {from:a@x.test from:b@x.test} then flag", #"OR FROM "a@x.test" FROM "b@x.test""#),
            // AND: the first pushable conjunct is enough; the others stay triage's to check.
            ("rule a when subject:invoice from:@shop.example is:unread then flag", #"FROM "shop.example""#),
            ("rule a when (from:a@x.test OR to:me) subject:x then flag",
             #"OR FROM "a@x.test" OR TO "me@example.test" TO "me.too@example.org""#),
            // Words of a display name and dotted words: not a substring of the header (RFC 2047, case rules).
            ("rule a when from:john then flag", nil),
            ("rule a when from:john.smith then flag", nil),
            ("rule a when from:\"John Smith\" then flag", nil),
            // A wildcard that can only match an address: its longest literal part.
            ("rule a when from:*@bank.example then flag", #"FROM "@bank.example""#),
            ("rule a when from:news* then flag", nil),
            // Reply-To and Delivered-To have no SEARCH key that parses addresses.
            ("rule a when replyto:a@x.test then flag", nil),
            ("rule a when deliveredto:me then flag", nil),
            // Not ASCII: never pushed (case folding differs between servers).
            ("rule a when from:@bänk.example then flag", nil),
            // A rule without any positive address term disables narrowing for all.
            ("rule a when from:@bank.example then flag\nrule b when subject:urgent then flag", nil),
            ("rule a when label:money then queue rec", nil),
            // stop-only rules need no candidates: they only remove actions.
            ("rule a when list:* then stop\nrule b when to:me then flag", #"OR TO "me@example.test" TO "me.too@example.org""#),
            ("rule a when -from:@bank.example then stop", nil),
            // The same key twice is sent once.
            ("rule a when from:@x.test then flag\nrule b when from:@x.test subject:y then label z", #"FROM "x.test""#),
        ]
        for (rules, search) in cases {
            let narrowing = try plan(rules)
            XCTAssertEqual(narrowing.key?.imap, search, rules)
            if search == nil { XCTAssertNotNil(narrowing.reason, rules) }
        }
    }

    /// The reason names the rule that keeps the server from narrowing.
    func testReasonNamesTheRule() throws {
        let narrowing = try plan("rule a when to:me then flag\nrule \"by subject\" when subject:urgent then flag")
        XCTAssertNil(narrowing.key)
        XCTAssertTrue(narrowing.reason?.contains("\"by subject\"") == true, narrowing.reason ?? "")
        XCTAssertEqual(try plan("rule a when to:me then stop").reason, "no rule has actions")
    }

    /// `me` with an identity that is not plain ASCII: the term cannot be pushed.
    func testNonASCIIIdentity() throws {
        let (rules, _) = RuleLoader.load([RuleSource(path: "t.rules", text: "rule a when to:me then flag")], folder: ".",
                                         environment: RuleEnvironment(identities: ["jürgen@example.test"], timeZone: .gmt))
        XCTAssertNil(ServerNarrowing.plan(try XCTUnwrap(rules)).key)
    }

    /// The probe value starts and ends inside words and changes case.
    func testProbeValue() {
        XCTAssertEqual(ServerSearchVerdict.probe(for: "alice@bank.example"), "LICE@BANK.EXAMPL")
        XCTAssertEqual(ServerSearchVerdict.probe(for: "Bob@X.Test"), "OB@X.TES")
        XCTAssertNil(ServerSearchVerdict.probe(for: "a@x"))
        XCTAssertNil(ServerSearchVerdict.probe(for: "jürgen@x.test"))
        XCTAssertNil(ServerSearchVerdict.probe(for: "no-at-sign"))
    }

    /// Which servers are never asked, before any probe: none with `off`, Gmail with
    /// `auto`; `substring` trusts any server (run and `check --connect` both ask this).
    func testServersNeverAskedBeforeAProbe() {
        let gmail: Set<String> = ["IMAP4REV1", "X-GM-EXT-1"], dovecot: Set<String> = ["IMAP4REV1", "MOVE"]
        XCTAssertEqual(ServerSearchMode.off.refusal(capabilities: dovecot), "server_search = off")
        XCTAssertEqual(ServerSearchMode.auto.refusal(capabilities: gmail),
                       "Gmail's search finds whole words only, not parts of addresses, so asking it could miss mail "
                        + "(server_search = auto)")
        XCTAssertNil(ServerSearchMode.auto.refusal(capabilities: dovecot))
        XCTAssertNil(ServerSearchMode.substring.refusal(capabilities: gmail))
    }
}
