import Foundation
import TriageCore
import XCTest

/// `[triage] quiet_failures` and `triage status`, through the built binary, with
/// `--now` moving the clock: an IMAP account whose server refuses connections
/// (port 1 on loopback: exit 75) and a Maildir account that works.
final class QuietFailureRunTests: XCTestCase {
    private var dir = ""
    private let t0 = "2030-01-15T08:00:00Z"

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "triage-quiet-\(UUID().uuidString.prefix(8))"
        for leaf in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: "\(dir)/mail/\(leaf)", withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(atPath: dir + "/rules", withIntermediateDirectories: true)
        try "rule \"q\" when from:x.test then queue \"rec\"\n".write(toFile: dir + "/rules/r.rules", atomically: true, encoding: .utf8)
        // A Maildir with a message keeps its UIDVALIDITY from run to run.
        for box in ["mail", "mail2"] {
            for leaf in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(atPath: "\(dir)/\(box)/\(leaf)", withIntermediateDirectories: true)
            }
            try "From: old@example.test\r\nSubject: old\r\nMessage-ID: <old@example.test>\r\n\r\nOld\r\n"
                .write(toFile: "\(dir)/\(box)/new/1600000000.M1P1.host", atomically: false, encoding: .utf8)
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func writeConfig(quiet: String?, brokenURL: String = "imaps://127.0.0.1:1", mailboxes: String = "INBOX") throws {
        try """
        [triage]
        rules = rules
        store = store
        timezone = UTC
        \(quiet.map { "quiet_failures = \($0)" } ?? "")

        [account local]
        url = maildir:mail
        mailboxes = \(mailboxes)

        [account broken]
        url = \(brokenURL)
        user = me
        password_command = printf x
        timeout = 5

        """.write(toFile: dir + "/triage.conf", atomically: true, encoding: .utf8)
    }

    private func triage(_ args: String...) throws -> TriageProcess.Result {
        try TriageProcess.run(args + ["--config", dir + "/triage.conf"])
    }

    private func run(minutes: Int) throws -> TriageProcess.Result {
        let date = Date(timeIntervalSince1970: 1_894_694_400 + Double(minutes * 60))  // 2030-01-15T08:00:00Z
        return try triage("run", "--now", Timestamp(date, timeZone: TimeZone(identifier: "UTC")!).rfc3339)
    }

    /// What the first run of ACCOUNT's INBOX (one old message) says, once.
    private func firstRun(_ account: String) -> String {
        "triage: \(account)/INBOX: first run: 1 message already there was left alone; 'triage run --all' processes it once\n"
    }

    func testATemporaryFailureIsQuietUntilItLastedThenSaidAndItsEndToo() throws {
        try writeConfig(quiet: "1h")
        let first = try run(minutes: 0)
        XCTAssertEqual(first.status, 75, first.err)
        XCTAssertEqual(first.err, firstRun("local"), "a fresh temporary failure is kept quiet (the other account's first run is said)")
        let second = try run(minutes: 30)
        XCTAssertEqual(second.status, 75)
        XCTAssertEqual(second.err, "")
        let third = try run(minutes: 61)
        XCTAssertEqual(third.status, 75)
        XCTAssertTrue(third.err.hasPrefix("triage: account broken: "), third.err)
        XCTAssertTrue(third.err.contains("(failing since 2030-01-15T08:00:00+00:00, 1h 1m)"), third.err)

        // The server is back (here: the account now reads a Maildir).
        try writeConfig(quiet: "1h", brokenURL: "maildir:mail2")
        let back = try run(minutes: 120)
        XCTAssertEqual(back.status, 0, back.err)
        XCTAssertTrue(back.err.hasPrefix(firstRun("broken") + "triage: account broken: recovered after 2h (3 failed runs; last error: "), back.err)
        XCTAssertEqual(try run(minutes: 130).err, "")
    }

    func testTheDigestListsAQuietFailureUnderProblems() throws {
        try writeConfig(quiet: "1h")
        let path = dir + "/triage.conf"
        let digest = "[digest]\nto = me@example.test\nfrom = triage@example.test\nhour = 23\nsmtp = file:outbox\n"
        try Data(((try String(contentsOfFile: path, encoding: .utf8)) + digest).utf8).write(to: URL(fileURLWithPath: path))
        let quiet = try run(minutes: 0)
        XCTAssertEqual(quiet.status, 75)
        XCTAssertEqual(quiet.err, firstRun("local"))
        let text = try triage("digest", "--preview", "--text", "--date", "2030-01-15")
        XCTAssertEqual(text.status, 0, text.err)
        XCTAssertTrue(text.out.contains("Problems"), text.out)
        XCTAssertTrue(text.out.contains("account broken failing since 2030-01-15 08:00"), text.out)
        XCTAssertTrue(text.out.contains("127.0.0.1:1: nothing accepts connections"), text.out)
        // Later runs the same day add nothing: one entry per account and day.
        XCTAssertEqual(try run(minutes: 10).status, 75)
        let again = try triage("digest", "--preview", "--text", "--date", "2030-01-15").out
        XCTAssertEqual(again.components(separatedBy: "account broken failing since").count, 2, again)
        // Nothing else to report and send_empty off: the problem alone is worth a digest.
        XCTAssertEqual(try triage("digest", "--send", "--date", "2030-01-15").status, 0)
        XCTAssertEqual(((try? FileManager.default.contentsOfDirectory(atPath: dir + "/outbox")) ?? []).count, 1)
    }

    func testWithoutQuietFailuresEveryFailureIsSaidAtOnce() throws {
        try writeConfig(quiet: nil)
        let first = try run(minutes: 0)
        XCTAssertEqual(first.status, 75)
        XCTAssertTrue(first.err.hasPrefix(firstRun("local") + "triage: account broken: "), first.err)
        XCTAssertFalse(first.err.contains("failing since"), first.err)
    }

    func testAConfigurationProblemIsSaidAtOnceEvenWhenQuiet() throws {
        try writeConfig(quiet: "1h", brokenURL: "maildir:mail", mailboxes: "Nowhere")
        let run = try run(minutes: 0)
        XCTAssertEqual(run.status, 78, run.err)
        XCTAssertTrue(run.err.contains("triage: account local: "), run.err)
    }

    func testABadQuietFailuresValueIsAConfigurationError() throws {
        try writeConfig(quiet: "soon")
        let run = try triage("status")
        XCTAssertEqual(run.status, 78)
        XCTAssertTrue(run.err.contains("quiet_failures must be off or a duration such as 30m"), run.err)
    }

    func testStatusShowsRunsFailuresAndCounts() throws {
        try writeConfig(quiet: "1h")
        let message = "From: a@x.test\r\nTo: me@example.test\r\nSubject: receipt\r\nMessage-ID: <m1@x.test>\r\n\r\nBody\r\n"
        XCTAssertEqual(try run(minutes: 0).status, 75)  // the first pass of the Maildir only remembers where it ends
        try message.write(toFile: "\(dir)/mail/new/1700000001.M1P1.host", atomically: false, encoding: .utf8)
        XCTAssertEqual(try run(minutes: 10).status, 75)

        let json = try triage("status", "--json", "--now", "2030-01-15T08:20:00+00:00")
        XCTAssertEqual(json.status, 0, json.err)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        XCTAssertEqual(object["now"] as? String, "2030-01-15T08:20:00+00:00")
        let accounts = try XCTUnwrap(object["accounts"] as? [[String: Any]])
        XCTAssertEqual(accounts.map { $0["name"] as? String }, ["local", "broken"])
        XCTAssertEqual(accounts[0]["last_run"] as? String, "2030-01-15T08:10:00+00:00")
        XCTAssertEqual(accounts[0]["last_success"] as? String, "2030-01-15T08:10:00+00:00")
        XCTAssertTrue(accounts[0]["failure"] is NSNull)
        let inbox = try XCTUnwrap((accounts[0]["mailboxes"] as? [[String: Any]])?.first)
        XCTAssertEqual(inbox["name"] as? String, "INBOX")
        XCTAssertEqual(inbox["last_run"] as? String, "2030-01-15T08:10:00+00:00")
        XCTAssertEqual(inbox["messages"] as? Int, 1)
        let failure = try XCTUnwrap(accounts[1]["failure"] as? [String: Any])
        XCTAssertEqual(failure["exit_status"] as? Int, 75)
        XCTAssertEqual(failure["since"] as? String, "2030-01-15T08:00:00+00:00")
        XCTAssertEqual(failure["last"] as? String, "2030-01-15T08:10:00+00:00")
        XCTAssertEqual(failure["runs"] as? Int, 2)
        XCTAssertTrue(accounts[1]["last_success"] is NSNull)
        XCTAssertTrue(object["digest"] is NSNull)
        XCTAssertEqual((object["webhooks"] as? [String: Any])?["pending"] as? Int, 0)
        let open = try XCTUnwrap(object["open"] as? [String: Any])
        XCTAssertEqual(open["queues"] as? [String: Int], ["rec": 1])
        XCTAssertEqual(open["queue_entries"] as? Int, 1)
        XCTAssertEqual(open["reminders"] as? Int, 0)

        let text = try triage("status", "--now", "2030-01-15T08:20:00+00:00")
        XCTAssertEqual(text.status, 0, text.err)
        XCTAssertTrue(text.out.contains("  local    last run 2030-01-15 08:10 (10m ago); ok\n"), text.out)
        XCTAssertTrue(text.out.contains("    INBOX  2030-01-15 08:10 (10m ago), 1 message\n"), text.out)
        XCTAssertTrue(text.out.contains("FAILING since 2030-01-15 08:00 (20m ago), 2 runs, exit 75: "), text.out)
        XCTAssertTrue(text.out.contains("  queues: rec 1\n"), text.out)
    }

    func testStatusWithADigestShowsTheNextOne() throws {
        try writeConfig(quiet: nil)
        let path = dir + "/triage.conf"
        let digest = "[digest]\nto = me@example.test\nfrom = triage@example.test\nhour = 7\nsmtp = file:outbox\nsend_empty = yes\n"
        try Data(((try String(contentsOfFile: path, encoding: .utf8)) + digest).utf8).write(to: URL(fileURLWithPath: path))
        // Before 07:00 with yesterday's never sent, yesterday's is due (a run catches up).
        XCTAssertTrue(try triage("status", "--now", "2030-01-15T06:00:00Z").out.contains("2030-01-14 is due now"))
        XCTAssertEqual(try triage("digest", "--send", "--date", "2030-01-14").status, 0)
        let before = try triage("status", "--json", "--now", "2030-01-15T06:00:00Z")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(before.out.utf8)) as? [String: Any])
        let next = try XCTUnwrap(object["digest"] as? [String: Any])
        XCTAssertEqual(next["next_day"] as? String, "2030-01-15")
        XCTAssertEqual(next["next_at"] as? String, "2030-01-15T07:00:00+00:00")
        XCTAssertEqual(next["due_now"] as? Bool, false)
        XCTAssertEqual(next["last_sent"] as? String, "2030-01-14")
        let later = try triage("status", "--now", "2030-01-15T06:00:00Z").out
        XCTAssertTrue(later.contains("  next: 2030-01-15 from 2030-01-15 07:00; last sent: 2030-01-14\n"), later)
        XCTAssertTrue(try triage("status", "--now", "2030-01-15T08:00:00Z").out.contains("2030-01-15 is due now"))
    }
}
