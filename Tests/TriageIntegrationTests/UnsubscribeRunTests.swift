import Foundation
import TriageCore
import TriageIMAP
import TriageTestSupport
import XCTest

/// One-tap unsubscribe end to end over a real Dovecot and the SMTP test server:
/// `triage run` keeps a newsletter's List-Unsubscribe with its digest entry and
/// sends the digest with an Unsubscribe link; the message the phone sends from it
/// is obeyed by the next run, which unsubscribes (here by mailto: the one-click
/// is offered but the account's server did not vouch for it) and records it; the
/// next digest says so; and mail of the list a week later is a Problems line.
final class UnsubscribeRunTests: XCTestCase {
    static let zone = TimeZone(identifier: "America/Chicago")!
    var dir = ""
    var dovecot: DovecotServer!
    var smtp: SMTPTestServer!
    var user = ""
    var me = ""
    var mark = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.path + "/triage-unsub-run-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir + "/Rules", withIntermediateDirectories: true)
        dovecot = try DovecotServer.shared()
        smtp = try SMTPTestServer.shared()
        user = try dovecot.makeUser("unsubscribe")
        try dovecot.createFolders(user: user, ["Trash"])
        me = "me-\(UUID().uuidString.prefix(8).lowercased())@example.test"
        mark = "l" + UUID().uuidString.prefix(8).lowercased()
        try """
        [triage]
        rules = Rules
        store = store
        timezone = America/Chicago

        [account home]
        url = imaps://localhost:\(dovecot.imapsPort)
        user = \(user)
        password_command = printf '%s' '\(DovecotServer.password)'
        ca_file = \(dovecot.caFile)
        authserv_id = mx.example.net

        [digest]
        to = Me <\(me)>
        from = triage <triage@example.test>
        hour = 7
        smtp = smtp://127.0.0.1:\(smtp.starttlsPort)
        user = \(SMTPTestServer.user)
        password_command = printf '%s' '\(SMTPTestServer.password)'
        ca_file = \(smtp.caFile)

        """.write(toFile: dir + "/triage.conf", atomically: true, encoding: .utf8)
        try "rule \"news\" when from:letters@news.example then digest \"Newsletters\"\n"
            .write(toFile: dir + "/Rules/news.rules", atomically: true, encoding: .utf8)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// A newsletter whose one-click is vouched for only by a host that is not the account's server.
    func newsletter(_ n: Int, date: String) -> String {
        """
        Authentication-Results: relay.example.org; dkim=pass header.d=news.example
        DKIM-Signature: v=1; d=news.example; s=s1; h=from:subject:list-unsubscribe:list-unsubscribe-post; b=x
        From: News <letters@news.example>
        To: \(me)
        Subject: Weekly \(n)
        Date: \(date)
        Message-ID: <week-\(n)-\(mark)@news.example>
        List-Id: Weekly <weekly.news.example>
        List-Unsubscribe: <https://localhost:1/unsub/\(mark)>, <mailto:leave-\(mark)@news.example?subject=unsubscribe%20\(mark)>
        List-Unsubscribe-Post: List-Unsubscribe=One-Click

        This week.

        """.replacingOccurrences(of: "\n", with: "\r\n")
    }

    @discardableResult
    func triage(_ args: String..., file: StaticString = #filePath, line: UInt = #line) throws -> TriageProcess.Result {
        let result = try TriageProcess.run(args + ["--config", dir + "/triage.conf"])
        XCTAssertEqual(result.status, 0, "triage \(args.joined(separator: " ")): \(result.err)", file: file, line: line)
        return result
    }

    func testTheLinkUnsubscribesRecordsAndAWeekLaterAListStillSendingIsAProblem() throws {
        try triage("run", "--now", "2030-01-15T06:00")  // the first run remembers INBOX
        try dovecot.append(user: user, [SeedMessage(text: newsletter(1, date: "Tue, 15 Jan 2030 06:30:00 -0600"))])
        try triage("run", "--now", "2030-01-15T08:00")

        let store = Store(path: dir + "/store", timeZone: Self.zone)
        let entry = try XCTUnwrap(store.digestEntries().records.first)
        let offer = try XCTUnwrap(entry.message.unsubscribe)
        XCTAssertTrue(offer.oneClick)
        XCTAssertFalse(offer.dkimPass, "relay.example.org is not the account's authserv_id")
        XCTAssertEqual(offer.mailto, "mailto:leave-\(mark)@news.example?subject=unsubscribe%20\(mark)")

        let digests = smtp.received(containing: me)
        XCTAssertEqual(digests.count, 1)
        let digest = try SMTPTestMailParser.parse(try XCTUnwrap(digests.first))
        let html = try XCTUnwrap(digest.html)
        let pattern = try NSRegularExpression(pattern: "href=\"mailto:([^\"?]+)\\?subject=([^\"]+)\"[^>]*>Unsubscribe</a>")
        let match = try XCTUnwrap(pattern.firstMatch(in: html, range: NSRange(html.startIndex..., in: html)))
        let subject = try XCTUnwrap(String(html[Range(match.range(at: 2), in: html)!]).removingPercentEncoding)
        XCTAssertTrue(subject.hasPrefix("triage: unsubscribe "), subject)
        XCTAssertTrue(digest.text?.contains(subject) ?? false, digest.text ?? "")
        XCTAssertEqual(smtp.received(containing: "leave-\(mark)").count, 0, "never an unsubscribe without the user's tap")

        // The phone sends the link's message.
        let phone = "From: Me <\(me)>\r\nTo: \(me)\r\nSubject: \(subject)\r\nDate: Tue, 15 Jan 2030 08:30:00 -0600\r\n"
            + "Message-ID: <\(UUID().uuidString)@phone.example>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nSent from my iPhone\r\n"
        try dovecot.append(user: user, [SeedMessage(text: phone)])
        try triage("run", "--now", "2030-01-15T09:00")
        let sent = smtp.received(containing: "leave-\(mark)")
        XCTAssertEqual(sent.count, 1)
        let unsubscribeMail = try SMTPTestMailParser.parse(try XCTUnwrap(sent.first))
        XCTAssertEqual(unsubscribeMail.subject, "unsubscribe \(mark)")
        XCTAssertEqual(unsubscribeMail.from.first?.address, me)
        let record = try XCTUnwrap(try store.record(UnsubscribeRecord.self, id: entry.id))
        XCTAssertEqual(record.method, .mailto)
        XCTAssertEqual(record.list, "weekly.news.example")
        XCTAssertTrue(record.succeeded)

        // The next digest says what was done.
        let next = try triage("digest", "--preview", "--text", "--date", "2030-01-16", "--now", "2030-01-16T08:00").out
        XCTAssertTrue(next.contains("Unsubscribed from weekly.news.example"), next)
        XCTAssertTrue(next.contains("by mailto: sent to leave-\(mark)@news.example"), next)

        // Six days later the list may still be finishing; eight days later it is a Problem.
        try dovecot.append(user: user, [SeedMessage(text: newsletter(2, date: "Mon, 21 Jan 2030 06:30:00 -0600"))])
        try triage("run", "--now", "2030-01-21T08:00")
        XCTAssertNil(try store.record(UnsubscribeRecord.self, id: entry.id)?.stillSending)
        try dovecot.append(user: user, [SeedMessage(text: newsletter(3, date: "Wed, 23 Jan 2030 06:30:00 -0600"))])
        let late = try triage("run", "--now", "2030-01-23T08:00")
        XCTAssertTrue(late.err.contains("weekly.news.example still sends 7 days after you unsubscribed"), late.err)
        XCTAssertNotNil(try store.record(UnsubscribeRecord.self, id: entry.id)?.stillSending)
        let problems = smtp.received(containing: me).compactMap { try? SMTPTestMailParser.parse($0) }
            .filter { $0.text?.contains("still sends 7 days after you unsubscribed") ?? false }
        XCTAssertEqual(problems.count, 1, "the digest of 23 Jan has the Problems line")
        let unsubscribes = smtp.received(containing: "leave-\(mark)").compactMap { try? SMTPTestMailParser.parse($0) }
            .filter { $0.to.first?.address == "leave-\(mark)@news.example" }
        XCTAssertEqual(unsubscribes.count, 1, "no second unsubscribe without a tap")
    }
}
