import Foundation
import TriageCore
import XCTest

/// `triage status` tells the truth about the digest (sent and when, nothing to send on
/// an empty day with `send_empty = no`, due, failing) and about each CalDAV target
/// (its last sync, its failure), through the built binary with a fixed `--now`.
final class StatusTruthTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "triage-status-\(UUID().uuidString.prefix(8))"
        for leaf in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: "\(dir)/mail/\(leaf)", withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(atPath: dir + "/rules", withIntermediateDirectories: true)
        try "rule \"d\" when from:news.test then digest \"News\"\n".write(toFile: dir + "/rules/r.rules", atomically: true, encoding: .utf8)
        try """
        [triage]
        rules = rules
        store = store
        timezone = UTC

        [account local]
        url = maildir:mail
        mailboxes = INBOX

        [digest]
        to = me@example.test
        from = triage@example.test
        hour = 8
        smtp = file:outbox
        send_empty = no

        """.write(toFile: dir + "/triage.conf", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func triage(_ args: String...) throws -> TriageProcess.Result {
        try TriageProcess.run(args + ["--config", dir + "/triage.conf"])
    }

    private func digestJSON(at now: String) throws -> [String: Any] {
        let result = try triage("status", "--json", "--now", now)
        XCTAssertEqual(result.status, 0, result.err)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        return try XCTUnwrap(object["digest"] as? [String: Any])
    }

    private var outbox: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir + "/outbox")) ?? []) }

    func testAnEmptyDayWithSendEmptyOffIsNothingToSendNotDue() throws {
        XCTAssertTrue(try triage("status", "--now", "2030-01-15T09:00:00Z").out.contains("2030-01-15 is due now: the next run sends it"),
                      "never looked at: due")
        let run = try triage("run", "--now", "2030-01-15T09:00:00Z")
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(outbox, [], "an empty day is rightly not sent")

        let status = try triage("status", "--now", "2030-01-15T09:30:00Z")
        XCTAssertFalse(status.out.contains("is due now"), status.out)
        XCTAssertTrue(status.out.contains("  2030-01-15: nothing to send, the day was empty (send_empty = no; looked at "
                                          + "2030-01-15 09:00 (30m ago)); a later run sends it if something comes\n"), status.out)
        let digest = try digestJSON(at: "2030-01-15T09:30:00Z")
        XCTAssertEqual(digest["state"] as? String, "empty")
        XCTAssertEqual(digest["empty_looked_at"] as? String, "2030-01-15T09:00:00+00:00")
        XCTAssertEqual(digest["due_now"] as? Bool, true, "the documented key keeps its meaning: a run would look again")

        // The next day's hour: that day is due, whatever the last one was.
        XCTAssertTrue(try triage("status", "--now", "2030-01-16T08:30:00Z").out.contains("2030-01-16 is due now"))
        XCTAssertEqual(try digestJSON(at: "2030-01-16T08:30:00Z")["state"] as? String, "due")
    }

    func testASentDigestSaysWhen() throws {
        try "From: n@news.test\nSubject: news\nMessage-ID: <n1@news.test>\n\nHello.\n"
            .write(toFile: dir + "/mail/new/1600000001.M1P1.host", atomically: true, encoding: .utf8)
        let run = try triage("run", "--all", "--now", "2030-01-15T09:00:00Z")
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(outbox.count, 1)
        let status = try triage("status", "--now", "2030-01-15T10:00:00Z")
        XCTAssertTrue(status.out.contains("  next: 2030-01-16 from 2030-01-16 08:00; last sent: 2030-01-15 at 2030-01-15 09:00 (1h ago)\n"),
                      status.out)
        let digest = try digestJSON(at: "2030-01-15T10:00:00Z")
        XCTAssertEqual(digest["state"] as? String, "sent")
        XCTAssertEqual(digest["last_sent_at"] as? String, "2030-01-15T09:00:00+00:00")
    }

    func testAFailingDigestIsSaidAsFailing() throws {
        // A file: outbox that cannot be made: a file stands where the folder should be.
        try "x".write(toFile: dir + "/outbox", atomically: true, encoding: .utf8)
        try "From: n@news.test\nSubject: news\nMessage-ID: <n1@news.test>\n\nHello.\n"
            .write(toFile: dir + "/mail/new/1600000001.M1P1.host", atomically: true, encoding: .utf8)
        let run = try triage("run", "--all", "--now", "2030-01-15T09:00:00Z")
        XCTAssertNotEqual(run.status, 0, run.err)
        let status = try triage("status", "--now", "2030-01-15T09:30:00Z")
        XCTAssertTrue(status.out.contains("  2030-01-15 is due and the last try failed: the next run tries again\n"), status.out)
        XCTAssertTrue(status.out.contains("FAILING since 2030-01-15 09:00"), status.out)
        XCTAssertEqual(try digestJSON(at: "2030-01-15T09:30:00Z")["state"] as? String, "failing")
    }
}
