import Foundation
import TriageCore
import TriageTestSupport
import XCTest

/// `triage digest` and the digest at the end of `triage run`, through the built
/// binary, with `file:DIR` delivery into a temporary folder.
final class DigestCommandTests: XCTestCase {
    static let zone = TimeZone(identifier: "America/Chicago")!
    /// A day far from the real clock, so explicit `--date` sends never meet `triage run`'s today.
    static let day = CivilDate(year: 2030, month: 1, day: 15)
    static let queueDue = CivilDate(year: 2020, month: 1, day: 1)
    static let hostileSubject = "<script>alert(1)</script>\r\nBcc: evil@example.test"

    var dir = ""
    var store: Store!

    override func setUpWithError() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: TriageProcess.binary.path), "build first: swift build")
        dir = FileManager.default.temporaryDirectory.path + "/triage-digest-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir + "/Rules", withIntermediateDirectories: true)
        try writeConfig(smtp: "file:out")
        store = Store(path: dir + "/store", timeZone: Self.zone)
        store.synchronous = false
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func writeConfig(smtp: String, hour: Int = 0) throws {
        try DigestTestConfig.write(in: dir, me: "me@example.test", hour: hour, digest: ["smtp = \(smtp)"])
    }

    private func seed() throws {
        // Due and made long ago, so they are in today's digest (for `triage run`) and in 2030's.
        let created = Timestamp(secondsSince1970: 1_577_858_400, utcOffsetSeconds: -21_600)  // 2020-01-01 00:00 -06:00
        try store.put(QueueEntry(id: String(repeating: "3f2a", count: 8), queue: "rec", created: created,
                                 due: Self.queueDue, rule: "receipts",
                                 message: MessageSummary(from: Address(name: "Shop", address: "shop@example.test"),
                                                         subject: Self.hostileSubject, date: "2029-12-31T10:00:00-06:00",
                                                         snippet: "Thank you for your order.")))
        try store.put(Reminder(id: String(repeating: "9b1c", count: 8), title: "Call the plumber",
                               due: CivilDate(year: 2020, month: 1, day: 14),
                               place: Place(latitude: 38.9717, longitude: -95.2353, radiusMeters: 4828.032), created: created))
        try store.put(DigestEntry(id: String(repeating: "b6c8", count: 8), section: "FYI", created: created, rule: "news",
                                  message: MessageSummary(from: Address(address: "news@example.test"), subject: "Weekly news",
                                                          snippet: "This week.")))
    }

    @discardableResult
    private func triage(_ args: String..., expect status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> (out: String, err: String) {
        let result = try TriageProcess.run(args + ["--config", dir + "/triage.conf"], environment: ["XDG_DATA_HOME": dir + "/xdg"])
        XCTAssertEqual(result.status, status, "triage \(args.joined(separator: " ")): \(result.err)", file: file, line: line)
        return (result.out, result.err)
    }

    private func emlFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir + "/out")) ?? []).filter { $0.hasSuffix(".eml") }.sorted()
    }

    private func parse(_ path: String) throws -> SMTPTestMailParser {
        try SMTPTestMailParser.parse(URL(fileURLWithPath: path))
    }

    func testPreviewPrintsTheMessageAndChangesNothing() throws {
        try seed()
        let (out, err) = try triage("digest", "--preview", "--eml", "--date", Self.day.iso)
        XCTAssertEqual(err, "")
        let head = out.components(separatedBy: "\r\n\r\n")[0]
        XCTAssertTrue(head.contains("\r\nX-Triage-Digest: 2030-01-15"), head)
        XCTAssertTrue(head.contains("Message-ID: <digest-2030-01-15."), head)
        XCTAssertTrue(head.contains("MIME-Version: 1.0"))
        XCTAssertTrue(out.contains("Content-Type: multipart/alternative"))
        XCTAssertFalse(out.components(separatedBy: "\r\n").contains { $0.lowercased().hasPrefix("bcc:") })
        XCTAssertFalse(store.digestLedger.isSent(Self.day))
        XCTAssertEqual(store.unreportedDigestEntries().records.count, 1)
        XCTAssertEqual(emlFiles(), [])

        let text = try triage("digest", "--preview", "--text", "--date", Self.day.iso).out
        XCTAssertTrue(text.contains("• <script>alert(1)</script> Bcc: evil@example.test — overdue \(Self.queueDue.days(until: Self.day)) days\n"), text)
        XCTAssertTrue(text.contains("within 3 mi, on arrival (geo:38.9717,-95.2353;u=4828)"), text)
        XCTAssertTrue(text.contains("reply with: done 3f2a\n"), text)
        XCTAssertTrue(text.contains("reply with: done 9b1c\n"), text)
        let html = try triage("digest", "--preview", "--html", "--date", Self.day.iso).out
        XCTAssertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; Bcc: evil@example.test"))
        XCTAssertFalse(html.contains("<script"))
    }

    /// Issue 27: `--preview` alone printed the message as sent, quoted-printable
    /// (`=E2=80=A2` for each bullet) and unreadable on a terminal; it now prints the
    /// decoded text part, and `--eml` the message.
    func testPreviewPrintsReadableTextAndEmlTheMessage() throws {
        try seed()
        let (out, err) = try triage("digest", "--preview", "--date", Self.day.iso)
        XCTAssertEqual(err, "")
        XCTAssertEqual(out, try triage("digest", "--preview", "--text", "--date", Self.day.iso).out)
        XCTAssertTrue(out.contains("• <script>alert(1)</script> Bcc: evil@example.test — overdue"), out)
        XCTAssertTrue(out.contains("Call the plumber"), out)
        for raw in ["=E2=80", "Content-Transfer-Encoding", "MIME-Version", "X-Triage-Digest"] {
            XCTAssertFalse(out.contains(raw), raw + " in " + out)
        }
        XCTAssertFalse(out.unicodeScalars.contains { ControlCharacters.isControl($0) && $0 != "\n" && $0 != "\r" && $0 != "\t" }, out)

        let eml = try triage("digest", "--preview", "--eml", "--date", Self.day.iso).out
        XCTAssertTrue(eml.hasPrefix("From: ") || eml.contains("\r\nFrom: "), eml)
        XCTAssertTrue(eml.contains("\r\nX-Triage-Digest: 2030-01-15\r\n"), eml)
        XCTAssertTrue(eml.contains("Content-Transfer-Encoding: quoted-printable"), eml)
        XCTAssertTrue(eml.contains("=E2=80=A2"), eml)
        XCTAssertFalse(store.digestLedger.isSent(Self.day))

        let usage = try triage("digest", "--eml", "--date", Self.day.iso, expect: 64)
        XCTAssertTrue(usage.err.contains("--eml goes with --preview"), usage.err)
        let both = try triage("digest", "--preview", "--eml", "--text", expect: 64)
        XCTAssertTrue(both.err.contains("not --text and --eml"), both.err)
    }

    func testSendWritesOneMessagePerDayAndForceSendsAgain() throws {
        try seed()
        let (out, _) = try triage("digest", "--send", "--date", Self.day.iso)
        XCTAssertEqual(out, "", "silent on success")
        XCTAssertEqual(emlFiles().count, 1)
        let first = try parse(dir + "/out/" + emlFiles()[0])
        XCTAssertEqual(first.subject, "triage · Tue 15 Jan: 1 reminder, 1 to reconcile, 1 FYI")
        XCTAssertEqual(first.headers.contains("Bcc"), false)
        XCTAssertEqual(first.defects, [])
        XCTAssertEqual(first.html?.contains("&lt;script&gt;"), true)
        XCTAssertTrue(store.digestLedger.isSent(Self.day))
        XCTAssertEqual(store.unreportedDigestEntries().records.count, 0)

        let again = try triage("digest", "--send", "--date", Self.day.iso)
        XCTAssertTrue(again.err.contains("already sent"), again.err)
        XCTAssertEqual(emlFiles().count, 1)

        try triage("digest", "--send", "--force", "--date", Self.day.iso)
        XCTAssertEqual(emlFiles().count, 2)
        let forced = try parse(dir + "/out/" + emlFiles().first { !$0.hasPrefix(emlFiles()[0]) && $0 != emlFiles()[0] }!)
        // The day's digest entry is still in the resent digest of that day.
        XCTAssertEqual(forced.subject, "triage · Tue 15 Jan: 1 reminder, 1 to reconcile, 1 FYI")
    }

    func testRunSendsTheDueDigestOnce() throws {
        try seed()
        try writeConfig(smtp: "file:out", hour: 7)
        // Before the [digest] hour (07:00 in Chicago) the day before's digest is the one due.
        try triage("run", "--now", "2030-02-01T06:59")
        XCTAssertEqual(try store.digestLedger.sentDays(), [CivilDate(year: 2030, month: 1, day: 31)])
        // 13:00 UTC is 07:00 in Chicago: the digest of 2030-02-01, exactly.
        try triage("run", "--now", "2030-02-01T13:00:00Z")
        XCTAssertEqual(emlFiles().count, 2)
        XCTAssertEqual(try store.digestLedger.sentDays(), [CivilDate(year: 2030, month: 1, day: 31), CivilDate(year: 2030, month: 2, day: 1)])
        let headers = try emlFiles().map { try String(contentsOfFile: dir + "/out/" + $0, encoding: .utf8) }
            .compactMap { $0.components(separatedBy: "\r\n").first { $0.hasPrefix("X-Triage-Digest: ") } }
        XCTAssertEqual(headers.sorted(), ["X-Triage-Digest: 2030-01-31", "X-Triage-Digest: 2030-02-01"])
        try triage("run", "--now", "2030-02-01T23:59")
        XCTAssertEqual(emlFiles().count, 2, "a second run the same day sends nothing")
        try triage("run", "--dry-run", "--now", "2030-02-02T08:00")
        XCTAssertEqual(emlFiles().count, 2, "a dry run sends nothing")
        // The next day, the next digest.
        try triage("run", "--now", "2030-02-02T08:00")
        XCTAssertEqual(emlFiles().count, 3)
        XCTAssertTrue(store.digestLedger.isSent(CivilDate(year: 2030, month: 2, day: 2)))
    }

    func testPreviewDefaultsToTheDayOfNow() throws {
        try seed()
        // 03:00 UTC on the 16th is still the 15th in Chicago.
        let (out, _) = try triage("digest", "--preview", "--eml", "--now", "2030-01-16T03:00:00Z")
        XCTAssertTrue(out.contains("\r\nX-Triage-Digest: 2030-01-15\r\n"), out)
        try triage("digest", "--preview", "--now", "tomorrow", expect: 64)
    }

    func testNothingToReportSendsNothing() throws {
        let (_, err) = try triage("digest", "--send", "--date", Self.day.iso)
        XCTAssertTrue(err.contains("nothing to report"), err)
        XCTAssertEqual(emlFiles(), [])
        XCTAssertFalse(store.digestLedger.isSent(Self.day))
    }

    func testAFailedDeliveryExits75AndMarksNothing() throws {
        try seed()
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: dir + "/blocked"))
        try writeConfig(smtp: "file:blocked")
        let (_, err) = try triage("digest", "--send", "--date", Self.day.iso, expect: 75)
        XCTAssertTrue(err.contains("digest of 2030-01-15 not sent (step: write)"), err)
        XCTAssertFalse(store.digestLedger.isSent(Self.day))
        XCTAssertEqual(store.unreportedDigestEntries().records.count, 1)
        // triage run reports it the same way and exits 75.
        let run = try triage("run", expect: 75)
        XCTAssertTrue(run.err.contains("not sent (step: write)"), run.err)
    }

    func testPlanShowsEachDayWithItemsAndSkipsEmptyDays() throws {
        let created = Timestamp(secondsSince1970: 1_893_456_000, utcOffsetSeconds: -21_600)  // 2029-12-31
        try store.put(Reminder(id: String(repeating: "4e7d", count: 8), title: "Renew passport",
                               due: CivilDate(year: 2030, month: 1, day: 17), created: created))
        let out = try triage("digest", "--plan", "3", "--date", Self.day.iso).out
        XCTAssertEqual(out, "2030-01-17 Thu 17 Jan: 1 reminder\n  Reminders      4e7d   Renew passport (due today)\n")
        let longer = try triage("digest", "--plan", "4", "--date", Self.day.iso).out
        XCTAssertTrue(longer.contains("2030-01-18 Fri 18 Jan: 1 reminder\n  Reminders      4e7d   Renew passport (overdue 1 day)\n"), longer)
        try triage("digest", "--plan", "0", expect: 64)
    }

    /// Issue 27: a section name longer than the 14 columns `--plan` gave it pushed
    /// its id and title out of line; the column is now as wide as the longest name.
    func testPlanColumnsHoldALongSectionName() throws {
        let created = Timestamp(secondsSince1970: 1_893_456_000, utcOffsetSeconds: -21_600)  // 2029-12-31
        let long = "Announcements from the school district 4"
        XCTAssertEqual(long.count, 40)
        try store.put(Reminder(id: String(repeating: "4e7d", count: 8), title: "Renew passport",
                               due: CivilDate(year: 2030, month: 1, day: 14), created: created))
        try store.put(DigestEntry(id: String(repeating: "b6c8", count: 8), section: long, created: created, rule: "school",
                                  message: MessageSummary(from: Address(address: "news@school.example.test"), subject: "Snow day")))
        let out = try triage("digest", "--plan", "2", "--date", Self.day.iso).out
        let rows = out.components(separatedBy: "\n").filter { $0.hasPrefix("  ") }
        let reminders = "Reminders" + String(repeating: " ", count: 40 - 9)
        XCTAssertEqual(rows, [
            "  \(reminders) 4e7d   Renew passport (overdue 1 day)",
            "  \(long) b6c8   Snow day — news@school.example.test",
            "  \(reminders) 4e7d   Renew passport (overdue 2 days)",
        ], out)
        // Every row's id starts in the same column.
        let idColumns = rows.map { row in (row.range(of: "4e7d") ?? row.range(of: "b6c8")).map { row.distance(from: row.startIndex, to: $0.lowerBound) } }
        XCTAssertEqual(Set(idColumns), [43], out)
    }

    func testUsageErrors() throws {
        try triage("digest", expect: 64)
        try triage("digest", "--preview", "--send", expect: 64)
        try triage("digest", "--preview", "--date", "2030-13-01", expect: 64)
        try triage("digest", "--preview", "--force", expect: 64)
    }

    /// Issue 25: a reply goes to the digest's Reply-To (the first `to`), else its From;
    /// `check` warns when neither is known to be the user's.
    func testCheckWarnsWhenARepliesAddressIsNoneOfTheUsers() throws {
        func config(me: String, to: String, from: String) throws {
            try Data("""
            [triage]
            me = \(me)
            rules = Rules
            store = store

            [digest]
            to = \(to)
            from = \(from)
            smtp = file:out

            """.utf8).write(to: URL(fileURLWithPath: dir + "/triage.conf"))
        }
        try config(me: "me@example.test", to: "Me <me@example.test>", from: "triage <triage@example.test>")
        XCTAssertEqual(try triage("check").err, "", "Reply-To (the first to) is the user's")
        try config(me: "me@example.test", to: "other@example.test", from: "Me <me@example.test>")
        XCTAssertEqual(try triage("check").err, "", "from is the user's")
        try config(me: "me@example.test", to: "other@example.test", from: "triage <triage@example.test>")
        let err = try triage("check").err
        XCTAssertTrue(err.contains("warning: [digest] from = triage <triage@example.test> is none of your addresses"), err)
        XCTAssertTrue(err.contains("Reply-To: other@example.test, which is not in [triage] me"), err)
    }
}
