import Foundation
import XCTest

/// The first run of a mailbox leaves the mail already there alone, and says so once on
/// standard error without `--verbose` (cron mails it once): how many messages, and that
/// `triage run --all` processes them. An empty mailbox, a later run and `--all` say nothing
/// of it; `watch` says it on the mailbox's first pass.
final class FirstRunNoticeTests: XCTestCase {
    private var folder: TestFolder!
    private let now = "2030-01-15T08:00:00Z"
    private let notice = "first run: 3 messages already there were left alone; 'triage run --all' processes them once"

    override func setUpWithError() throws {
        folder = try TestFolder("first-run", rules: "rule \"q\" when from:old.test then queue old\n")
        for box in ["mail", "empty"] {
            for leaf in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(atPath: "\(folder.dir)/\(box)/\(leaf)", withIntermediateDirectories: true)
            }
        }
        for n in 1...3 { try deliver(n, into: "mail") }
        var triage = ConfigSection.triage()
        triage.lines.append(("poll_interval", "1"))
        try folder.writeConfig([triage,
                                ConfigSection("account home", ["url": "maildir:mail", "mailboxes": "INBOX"]),
                                ConfigSection("account spare", ["url": "maildir:empty", "mailboxes": "INBOX"])])
    }

    override func tearDownWithError() throws {
        folder?.remove()
    }

    private func deliver(_ n: Int, into box: String) throws {
        try "From: a@old.test\nSubject: old \(n)\nMessage-ID: <old\(n)@old.test>\n\nHello.\n"
            .write(toFile: "\(folder.dir)/\(box)/new/160000000\(n).M\(n)P1.host", atomically: true, encoding: .utf8)
    }

    private func triage(_ args: String...) throws -> TriageProcess.Result {
        try TriageProcess.run(args + ["--config", folder.config, "--now", now])
    }

    func testFirstRunSaysOnceHowManyMessagesWereLeftAlone() throws {
        let first = try triage("run")
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertEqual(first.out, "")
        XCTAssertEqual(first.err, "triage: home/INBOX: \(notice)\n", "one line, for the mailbox with mail only")
        XCTAssertFalse(folder.storeLines().contains { $0.hasPrefix("store queue/") }, "the old mail is left alone")

        try deliver(4, into: "mail")
        let second = try triage("run")
        XCTAssertEqual(second.status, 0, second.err)
        XCTAssertEqual(second.err, "", "said once: the second run is quiet")

        let all = try triage("run", "--all")
        XCTAssertEqual(all.status, 0, all.err)
        XCTAssertEqual(all.err, "")
        XCTAssertEqual(folder.storeLines().filter { $0.hasPrefix("store queue/") }.count, 4)
    }

    func testAllOnAFirstRunSaysNothingOfIt() throws {
        let all = try triage("run", "--all")
        XCTAssertEqual(all.status, 0, all.err)
        XCTAssertEqual(all.err, "")
        XCTAssertEqual(folder.storeLines().filter { $0.hasPrefix("store queue/") }.count, 3)
    }

    func testOneMessageIsSaidInTheSingular() throws {
        for n in 2...3 { try FileManager.default.removeItem(atPath: "\(folder.dir)/mail/new/160000000\(n).M\(n)P1.host") }
        let first = try triage("run")
        XCTAssertEqual(first.err, "triage: home/INBOX: first run: 1 message already there was left alone; "
                       + "'triage run --all' processes it once\n")
    }

    func testWatchSaysItOnTheFirstPassOnly() throws {
        let watch = try WatchProcess(config: folder.config)
        watch.waitUntilWatching(mailboxes: 2)
        try deliver(5, into: "mail")
        let processed = WatchProcess.waitUntil(30) { folder.storeLines().contains { $0.hasPrefix("store queue/") } }
        XCTAssertTrue(processed, watch.out + watch.err)
        XCTAssertEqual(watch.stop(), 0)
        XCTAssertEqual(watch.err, "triage: home/INBOX: \(notice)\n")
    }
}
