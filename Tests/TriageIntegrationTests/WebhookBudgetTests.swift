import Foundation
import XCTest

/// Pending webhooks never stall a run (issue 11, item 7), against the loopback
/// HTTP server's stalling (`/stall/N`) and failing (`/status/500`) modes: the
/// run's webhooks cost at most `webhook_budget`, a host that fails twice in a
/// row is left alone for the rest of the run, a failure waits (backoff) before
/// it is tried again, and a webhook given up appears once in the digest.
final class WebhookBudgetTests: XCTestCase {
    private var dir = ""
    private var server: WebhookTestServer!
    private let mark = "wb" + UUID().uuidString.prefix(8).lowercased()

    override func setUpWithError() throws {
        server = try WebhookTestServer.shared()
        dir = NSTemporaryDirectory() + "triage-webhooks-\(UUID().uuidString.prefix(8))"
        for sub in ["rules", "Maildir/new", "Maildir/cur", "Maildir/tmp"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + sub, withIntermediateDirectories: true)
        }
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// `count` messages "ping N MARK" in the Maildir.
    private func seed(_ count: Int) throws {
        for i in 0..<count {
            try """
            From: Pinger <pinger@example.test>
            To: me@example.test
            Subject: ping \(i) \(mark)
            Date: Mon, 30 Nov 2026 08:00:00 +0000
            Message-ID: <ping\(i).\(mark)@example.test>

            Hello \(i).

            """.write(toFile: "\(dir)/Maildir/new/\(i).M\(i).test", atomically: true, encoding: .utf8)
        }
    }

    /// One rule per URL, each posting every ping message there.
    private func writeConfig(urls: [String], timeout: Int, budget: Int, digest: Bool = false) throws {
        var rules = ""
        for (i, url) in urls.enumerated() {
            rules += "rule \"hook \(i)\"\n  when subject:ping\n  then webhook \"\(url)\"\n\n"
        }
        try rules.write(toFile: dir + "/rules/hooks.rules", atomically: true, encoding: .utf8)
        var text = """
        [triage]
        rules = rules
        store = store
        timezone = UTC
        webhook_timeout = \(timeout)
        webhook_budget = \(budget)

        [account local]
        url = maildir:Maildir

        """
        if digest {
            text += "\n[digest]\nto = me@example.test\nfrom = triage@example.test\nsmtp = file:outbox\n"
        }
        try text.write(toFile: dir + "/triage.conf", atomically: true, encoding: .utf8)
    }

    private func triage(_ args: String...) throws -> TriageProcess.Result {
        try TriageProcess.run(args + ["--config", dir + "/triage.conf"])
    }

    /// The webhook records in a status folder, as JSON objects.
    private func records(_ status: String) throws -> [[String: Any]] {
        let folder = "\(dir)/store/webhooks/\(status)"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return try names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0))) as? [String: Any])
        }
    }

    private func requests(port: Int) throws -> Int {
        try server.requests(containing: mark).filter { $0.headers["host"] == "127.0.0.1:\(port)" }.count
    }

    func testPendingWebhooksToDeadHostsCostAtMostTheBudget() throws {
        // Four dead hosts, two webhooks each: eight POSTs of 3 s would take 24 s.
        let ports = [server.httpPort] + server.moreHTTPPorts
        XCTAssertEqual(ports.count, 4)
        try writeConfig(urls: ports.map { "http://127.0.0.1:\($0)/stall/30" }, timeout: 3, budget: 8)
        try seed(2)
        let start = Date()
        let run = try triage("run", "--all")
        let took = Date().timeIntervalSince(start)
        XCTAssertEqual(run.status, 0, "webhooks never fail the run: \(run.err)")
        XCTAssertLessThan(took, 8 + 3, "the budget bounds the run: \(run.err)")
        XCTAssertGreaterThan(took, 7, "the control: the POSTs did stall")
        // 3 s, 3 s, then the last 2 s of the budget: three POSTs, the last one cut short.
        let posted = try ports.map(requests(port:)).reduce(0, +)
        XCTAssertEqual(posted, 3, run.err)
        XCTAssertTrue(run.err.contains("this run's time for webhooks (8 s, webhook_budget in [triage]) is spent; 5 left for the next run"),
                      run.err)
        let pending = try records("pending")
        XCTAssertEqual(pending.count, 8)
        XCTAssertEqual(pending.filter { $0["attempts"] as? Int == 1 && $0["next_attempt"] is String }.count, 3)
        XCTAssertEqual(pending.filter { $0["attempts"] as? Int == 0 && $0["next_attempt"] is NSNull }.count, 5)
    }

    func testAFailingHostIsSkippedForTheRunAndBackoffDelaysTheNextAttempt() throws {
        let dead = server.moreHTTPPorts[0], alive = server.moreHTTPPorts[1]
        try writeConfig(urls: ["http://127.0.0.1:\(dead)/stall/30", "http://127.0.0.1:\(alive)/hook/\(mark)"],
                        timeout: 1, budget: 60)
        try seed(4)
        let start = Date()
        let first = try triage("run", "--all")
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertLessThan(Date().timeIntervalSince(start), 1 + 1 + 4, "two stalls of 1 s, then the host is left alone")
        XCTAssertEqual(try requests(port: dead), 2, "the breaker opened after two failures in a row")
        XCTAssertEqual(try requests(port: alive), 4, "the other host is not held up")
        XCTAssertTrue(first.err.contains("2 more to http://127.0.0.1:\(dead) not tried in this run after 2 failures in a row"), first.err)
        XCTAssertEqual(try records("delivered").count, 4)
        let failed = try records("pending").filter { $0["attempts"] as? Int == 1 }
        XCTAssertEqual(failed.count, 2)
        for record in failed {
            // Five minutes after the run, the first step of the backoff.
            let next = try XCTUnwrap(record["next_attempt"] as? String)
            let created = try XCTUnwrap(record["created"] as? String)
            let format = ISO8601DateFormatter()
            let wait = try XCTUnwrap(format.date(from: next)).timeIntervalSince(try XCTUnwrap(format.date(from: created)))
            XCTAssertEqual(wait, 300, accuracy: 5, "\(created) → \(next)")
        }

        // The next run: the two that failed wait for their backoff; the two the
        // breaker skipped were never tried, so they are due and tried now.
        let second = try triage("run")
        XCTAssertEqual(second.status, 0, second.err)
        XCTAssertEqual(try requests(port: dead), 4, second.err)
        XCTAssertEqual(try records("pending").filter { $0["attempts"] as? Int == 1 }.count, 4)
        // And a third run right after tries nothing: all four wait.
        let third = try triage("run")
        XCTAssertEqual(third.status, 0, third.err)
        XCTAssertEqual(try requests(port: dead), 4, "backoff: nothing is retried before its time")
        XCTAssertEqual(third.err, "", "nothing tried, nothing to say")
    }

    func testAWebhookGivenUpIsReportedOnceInTheDigest() throws {
        try writeConfig(urls: ["http://127.0.0.1:\(server.httpPort)/status/500/\(mark)"], timeout: 5, budget: 60)
        try seed(1)
        let first = try triage("run", "--all")
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertTrue(first.err.contains("attempt 1 of 10"), first.err)
        // Nine attempts already made, the last one long ago (as after a day of runs).
        let folder = "\(dir)/store/webhooks/pending"
        let name = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".json") })
        let path = folder + "/" + name
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let edited = try NSRegularExpression(pattern: #""next_attempt": "[^"]*""#).stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: #""next_attempt": "2026-01-01T00:00:00Z""#)
            .replacingOccurrences(of: #""attempts": 1"#, with: #""attempts": 9"#)
        XCTAssertNotEqual(edited, text)
        try edited.write(toFile: path, atomically: true, encoding: .utf8)

        let second = try triage("run")
        XCTAssertEqual(second.status, 0, second.err)
        XCTAssertTrue(second.err.contains("10 failed attempts in all: given up"), second.err)
        XCTAssertEqual(try records("pending").count, 0)
        let failed = try records("failed")
        XCTAssertEqual(failed.count, 1)
        XCTAssertEqual(failed.first?["attempts"] as? Int, 10)
        XCTAssertTrue(failed.first?["gave_up"] is String)

        // Given up is final: a further run posts nothing and reports nothing more.
        let before = try requests(port: server.httpPort)
        let third = try triage("run")
        XCTAssertEqual(third.status, 0, third.err)
        XCTAssertEqual(try requests(port: server.httpPort), before)

        try writeConfig(urls: ["http://127.0.0.1:\(server.httpPort)/status/500/\(mark)"], timeout: 5, budget: 60, digest: true)
        let preview = try triage("digest", "--preview", "--text")
        XCTAssertEqual(preview.status, 0, preview.err)
        let problem = "webhook of rule 'hook 0' to http://127.0.0.1:\(server.httpPort) given up after 10 failed attempts"
        // The text part wraps long lines.
        let flat = preview.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertEqual(flat.components(separatedBy: problem).count - 1, 1, preview.out)
        XCTAssertTrue(preview.out.contains("Problems"), preview.out)
        XCTAssertTrue(preview.out.contains("ping 0 \(mark)"), "names the message: \(preview.out)")
        XCTAssertFalse(preview.out.contains("/status/500/\(mark)"), "never the URL's path")
    }
}
