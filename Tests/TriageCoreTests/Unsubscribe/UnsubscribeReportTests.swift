import Foundation
import TriageCore
import XCTest

/// What the digest says after an unsubscribe, and the Problems line of a list
/// that still sends a week later (fixed instants, never the calendar).
final class UnsubscribeReportTests: XCTestCase {
    typealias F = DigestFixtures

    func record(done: Timestamp?, succeeded: Bool = true, method: UnsubscribeRecord.Method = .oneClick) -> UnsubscribeRecord {
        var summary = F.summary(from: "News", "letters@news.example", subject: "This week", date: nil, snippet: "")
        summary.list = "weekly.news.example"
        summary.unsubscribe = UnsubscribeOffer(https: "https://news.example/u", oneClick: true, dkimPass: true, dkim: "pass")
        var r = UnsubscribeRecord(entry: DigestEntry(id: F.id("5b0e"), section: "Newsletters", created: F.stamp(2026, 11, 1, 8),
                                                     rule: "news", message: summary),
                                  requested: F.stamp(2026, 11, 2, 8), via: "link")
        r.done = done
        r.method = method
        r.succeeded = succeeded
        r.answer = succeeded ? "HTTP 200 from https://news.example" : "HTTP 500 from https://news.example"
        return r
    }

    func entry(_ n: Int, created: Timestamp, list: String? = "weekly.news.example") -> DigestEntry {
        var e = F.digestEntry(F.id("7c00", n), section: "Newsletters", created: created)
        e.message.list = list
        return e
    }

    func testAListStillSendingSevenDaysLaterIsAProblemOnce() {
        let done = F.stamp(2026, 11, 2, 9)
        let r = record(done: done)
        // Six days and 23 hours later: not yet; another list: never.
        let early = entry(1, created: F.stamp(2026, 11, 9, 8))
        let other = entry(2, created: F.stamp(2026, 11, 20, 8), list: "other.example")
        XCTAssertTrue(UnsubscribeReport.stillSending([r], entries: [early, other]).isEmpty)
        let late = entry(3, created: F.stamp(2026, 11, 9, 9))
        let found = UnsubscribeReport.stillSending([r], entries: [early, late, other])
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found.first?.record.stillSending, late.created)
        XCTAssertEqual(found.first?.problem.section, MailboxRunner.problemsSection)
        XCTAssertEqual(found.first?.problem.message.subject, "weekly.news.example still sends 7 days after you unsubscribed")
        XCTAssertTrue(found.first?.problem.message.snippet.contains("unsubscribed on 2026-11-02 by one-click") == true)
        // Said once: the record now has stillSending.
        XCTAssertTrue(UnsubscribeReport.stillSending(found.map(\.record), entries: [late]).isEmpty)
        // A failed unsubscribe is no promise: more mail is no Problem of this kind.
        XCTAssertTrue(UnsubscribeReport.stillSending([record(done: done, succeeded: false)], entries: [late]).isEmpty)
    }

    func testTheNextDigestSaysWhatWasDone() {
        let ok = UnsubscribeReport.entry(record(done: F.stamp(2026, 11, 2, 9)), created: F.stamp(2026, 11, 2, 9))
        XCTAssertEqual(ok.section, "Unsubscribed")
        XCTAssertEqual(ok.message.subject, "Unsubscribed from weekly.news.example")
        XCTAssertEqual(ok.message.snippet, "by one-click: HTTP 200 from https://news.example")
        XCTAssertNil(ok.message.unsubscribe)
        let failed = UnsubscribeReport.entry(record(done: F.stamp(2026, 11, 2, 9), succeeded: false), created: F.stamp(2026, 11, 2, 9))
        XCTAssertEqual(failed.section, MailboxRunner.problemsSection)
        var link = record(done: F.stamp(2026, 11, 2, 9), succeeded: false, method: .link)
        link.answer = "https://news.example/u\u{1B}[31m"
        let page = UnsubscribeReport.entry(link, created: F.stamp(2026, 11, 2, 9))
        XCTAssertEqual(page.section, "Unsubscribed")
        XCTAssertFalse(page.message.snippet.contains("\u{1B}"), "a sender's control characters reach no output")
    }

    func testTheRecordReadsBackAndChoosesItsMethod() throws {
        let r = record(done: nil)
        XCTAssertEqual(r.statusFolder, "pending")
        XCTAssertEqual(r.plan?.method, .oneClick)
        var noVouch = r
        noVouch.message.unsubscribe = UnsubscribeOffer(https: "https://news.example/u", mailto: "mailto:l@news.example",
                                                       oneClick: true, dkimPass: false, dkim: "no")
        XCTAssertEqual(noVouch.plan?.method, .mailto)
        noVouch.message.unsubscribe?.mailto = nil
        XCTAssertEqual(noVouch.plan?.method, .link)
        let back = try JSONDecoder().decode(UnsubscribeRecord.self, from: Data(record(done: F.stamp(2026, 11, 2, 9)).json.prettySerialized.utf8))
        XCTAssertEqual(back, record(done: F.stamp(2026, 11, 2, 9)))
    }
}
