import Foundation
import XCTest

/// `triage test --json` over the shipped demo mailbox with the shipped demo
/// configuration (`Rules/` plus `Examples/demo/rules/`): which rules match each
/// message, and what the issue's example rules plan.
final class ExampleRulesTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// Every demo message a rule matches, by Message-ID; every other message matches none.
    /// (Read boss mail carries `S` in its Maildir name, so `is:unread` leaves it out.)
    private let expected: [String: [String]] = [
        "contract-review.55120@example.test": ["reply to the boss"],
        "q4-planning.20261102081244.7731@example.test": ["reply to the boss"],
        "one-on-one.20261109@example.test": ["reply to the boss"],
        "design-review.storage.4411@example.test": ["cc is for information only"],
        "team-lunch.99812@example.test": ["cc is for information only"],
        "benefits-2027.hr@example.test": ["cc is for information only"],
        "CAF=dpa-reply-77@mail.partner.example": ["cc is for information only"],
        "acme/triage/pull/88@code.example": ["notifications"],
        "bench-results.olu.2@oss.example": ["lists stay out of the inbox"],
        "rel24-branch.priya@oss.example": ["lists stay out of the inbox"],
        "flaky-arm64.1@oss.example": ["lists stay out of the inbox"],
        "flaky-arm64.2@oss.example": ["lists stay out of the inbox"],
        "rfc-py38.priya@oss.example": ["lists stay out of the inbox"],
        "rfc-py38.olu@oss.example": ["lists stay out of the inbox"],
        "receipt.10045.1762455602@shop.example": ["receipts to reconcile"],
        "invoice.10078.1762969278@shop.example": ["receipts to reconcile"],
        "rcpt-8812-4242-20261110@bank.example": ["receipts to reconcile"],
        "inv-2026-1107@bank.example": ["receipts to reconcile"],
        "twis-312.a81b@weekly.example": ["newsletters"],
        "nl-2026-11-09.77@travel.example": ["newsletters"],
        "digest-20261115.fr@news.example": ["newsletters"],
        "cm-2026.blast.000991@em.deals.example": ["newsletters"],
        "alert-kxyz-20261112-0600@radio.example": ["station in range"],
    ]

    private func runTest() throws -> [[String: Any]] {
        let maildir = Self.root + "/Examples/demo/Maildir"
        let files = try ["cur", "new"].flatMap { sub in
            try FileManager.default.contentsOfDirectory(atPath: maildir + "/" + sub)
                .filter { !$0.hasPrefix(".") }.map { maildir + "/" + sub + "/" + $0 }
        }
        XCTAssertGreaterThanOrEqual(files.count, 30)
        let result = try TriageProcess.run(["test", "--json", "--now", "2026-11-30T12:00:00-06:00",
                                            "--config", Self.root + "/Examples/demo/triage.conf"] + files)
        XCTAssertEqual(result.status, 0, result.err)
        let lines = result.out.split(separator: "\n")
        XCTAssertEqual(lines.count, files.count, "one object per message")
        return try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    /// The issue's phishing message: its From name shows the bank's address, the
    /// address is elsewhere. The demo's "receipts to reconcile" (`from:bank.example`)
    /// does not take it; the shipped "name shows another sender" sends it to the digest.
    func testAPhishingReceiptIsNotReconciledButFlaggedInTheDigest() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("phish-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let phish = folder.appendingPathComponent("phish.eml")
        try Data(("From: \"statements@bank.example\" <secure-9@evil.example>\r\nTo: me@example.test\r\n"
                  + "Subject: Your receipt is ready\r\nMessage-ID: <phish.1@evil.example>\r\n\r\nLog in to see it.\r\n").utf8)
            .write(to: phish)
        let result = try TriageProcess.run(["test", "--json", "--now", "2026-11-30T12:00:00-06:00",
                                            "--config", Self.root + "/Examples/demo/triage.conf", phish.path])
        XCTAssertEqual(result.status, 0, result.err)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let matched = try XCTUnwrap(object["matched"] as? [[String: Any]])
        XCTAssertEqual(matched.map { $0["rule"] as? String }, ["name shows another sender"])
        XCTAssertEqual((matched.first?["actions"] as? [[String: Any]])?.compactMap { $0["section"] as? String }, ["Check the sender"])
    }

    func testEachDemoMessageMatchesTheExpectedRules() throws {
        var seen = Set<String>()
        for object in try runTest() {
            let id = object["message_id"] as? String ?? "(none)"
            let rules = (object["matched"] as! [[String: Any]]).map { $0["rule"] as! String }
            XCTAssertEqual(rules, expected[id] ?? [], "message \(id) in \(object["file"] ?? "")")
            seen.insert(id)
        }
        XCTAssertTrue(Set(expected.keys).isSubset(of: seen), "every expected message was tested")
    }

    func testTheIssueExamplesPlanTheirActions() throws {
        let objects = try runTest()
        func actions(_ id: String) -> [[String: Any]] {
            let object = objects.first { $0["message_id"] as? String == id }!
            return (object["matched"] as! [[String: Any]]).flatMap { $0["actions"] as! [[String: Any]] }
        }
        // cc:me -to:me -list:* -> label "no push", archive, digest "FYI"
        let cc = actions("design-review.storage.4411@example.test")
        XCTAssertEqual(cc.map { $0["type"] as! String }, ["label", "archive", "digest"])
        XCTAssertEqual(cc[0]["name"] as? String, "no push")
        XCTAssertEqual(cc[2]["section"] as? String, "FYI")
        // remind "Reply to {from.name}: {subject}" in 2 days, flag
        let boss = actions("q4-planning.20261102081244.7731@example.test")
        XCTAssertEqual(boss.map { $0["type"] as! String }, ["remind", "flag"])
        XCTAssertEqual(boss[0]["title"] as? String, "Reply to Margaret Boss: Q4 planning: need your numbers by Friday")
        XCTAssertEqual(boss[0]["due"] as? String, "2026-12-02")
        // remind "Listen to KXYZ 88.1" near 38.9717,-95.2353 radius 3 mi arriving
        let station = actions("alert-kxyz-20261112-0600@radio.example")
        let location = try XCTUnwrap(station.first?["location"] as? [String: Any])
        XCTAssertEqual(location["lat"] as? Double, 38.9717)
        XCTAssertEqual(location["lon"] as? Double, -95.2353)
        XCTAssertEqual(try XCTUnwrap(location["radius_m"] as? Double), 4828.032, accuracy: 0.001)
        XCTAssertEqual(location["proximity"] as? String, "arriving")
        // move "Lists/dev", mark read, digest "Lists", stop
        let list = actions("flaky-arm64.1@oss.example")
        XCTAssertEqual(list.map { $0["type"] as! String }, ["move", "mark", "digest", "stop"])
        XCTAssertEqual(list[0]["folder"] as? String, "Lists/dev")
        // from:{bank.example shop.example} subject:(receipt OR invoice) -> queue rec
        let receipt = actions("inv-2026-1107@bank.example")
        XCTAssertTrue(receipt.contains { $0["type"] as? String == "queue" && $0["queue"] as? String == "rec" })
    }

    /// `triage run --all` on a copy of the demo (as `scripts/demo` runs it): the shipped
    /// cc rule archives the cc-only mail into the Maildir's `Archive` (made on first
    /// use), with its label, and each lands in the digest's FYI once; a rerun moves
    /// nothing more and writes nothing twice.
    func testTheDemoArchivesCcOnlyMailIntoTheMaildirArchive() throws {
        let dir = NSTemporaryDirectory() + "triage-demo-archive-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: Self.root + "/Examples/demo", toPath: dir + "/demo")
        try FileManager.default.copyItem(atPath: Self.root + "/Rules", toPath: dir + "/Rules")
        let conf = dir + "/demo/triage.conf"
        let text = try String(contentsOfFile: conf, encoding: .utf8).replacingOccurrences(of: "../../Rules", with: "../Rules")
        try text.write(toFile: conf, atomically: true, encoding: .utf8)
        try Spawn.run(["/bin/chmod", "-R", "go-w", dir])
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/demo/Maildir/.Archive"), "the demo ships no Archive")
        let run = try TriageProcess.run(["run", "--all", "--now", "2026-11-30T12:00:00-06:00", "--config", conf])
        XCTAssertEqual(run.status, 0, run.err)
        func archived() throws -> [String] {
            try ["cur", "new"].flatMap { sub in
                try FileManager.default.contentsOfDirectory(atPath: dir + "/demo/Maildir/.Archive/" + sub)
                    .filter { !$0.hasPrefix(".") }.map { try String(contentsOfFile: dir + "/demo/Maildir/.Archive/" + sub + "/" + $0, encoding: .utf8) }
            }
        }
        let ids = try archived().compactMap { text in
            text.split(separator: "\n").first { $0.lowercased().hasPrefix("message-id:") }.map { $0.dropFirst(11).trimmingCharacters(in: .whitespaces) }
        }.sorted()
        XCTAssertEqual(ids, ["<CAF=dpa-reply-77@mail.partner.example>", "<benefits-2027.hr@example.test>",
                             "<design-review.storage.4411@example.test>", "<team-lunch.99812@example.test>"])
        let keywords = (try? String(contentsOfFile: dir + "/demo/Maildir/.Archive/dovecot-keywords", encoding: .utf8)) ?? ""
        XCTAssertTrue(keywords.contains("no_push"), "the label went along: \(keywords)")
        let again = try TriageProcess.run(["run", "--all", "--now", "2026-11-30T12:00:00-06:00", "--config", conf])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual(try archived().count, 4)
    }

    /// The shipped rules and the demo's pass `triage check` without an error or a
    /// warning (an OR beside other terms, a lower-case `or`, would show here).
    func testCheckPassesSilentlyOnTheShippedAndDemoRules() throws {
        let result = try TriageProcess.run(["check", "--config", Self.root + "/Examples/demo/triage.conf"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "")
    }

    /// The annotated `Examples/triage.conf`, laid out as the README's install steps
    /// lay it out (`~/.config/triage/triage.conf` beside a copy of `Rules/`), passes
    /// `triage check` as shipped.
    func testCheckPassesOnTheAnnotatedExampleConfiguration() throws {
        let dir = NSTemporaryDirectory() + "triage-example-conf-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: Self.root + "/Examples/triage.conf", toPath: dir + "/triage.conf")
        try FileManager.default.copyItem(atPath: Self.root + "/Rules", toPath: dir + "/Rules")
        for path in [dir, dir + "/Rules", dir + "/triage.conf"] + (try FileManager.default.contentsOfDirectory(atPath: dir + "/Rules")).map({ dir + "/Rules/" + $0 }) {
            var info = stat()
            XCTAssertEqual(stat(path, &info), 0, path)
            chmod(path, info.st_mode & 0o755)  // a clone made under umask 002 is group-writable: triage refuses that
        }
        let result = try TriageProcess.run(["check", "--config", dir + "/triage.conf"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "")
    }
}
