import TriageCore
import XCTest

/// `Counted`: a count and its noun agree in number (issue 27: "1 Problems",
/// "1 Lists", "1 messages processed", "conflict(s)").
final class CountedTests: XCTestCase {
    func testOneIsSingularAndTheRestPlural() {
        XCTAssertEqual(Counted.of(1, "message"), "1 message")
        XCTAssertEqual(Counted.of(2, "message"), "2 messages")
        XCTAssertEqual(Counted.of(0, "conflict"), "0 conflicts")
        XCTAssertEqual(Counted.of(1, "queue entry", plural: "queue entries"), "1 queue entry")
        XCTAssertEqual(Counted.of(2, "queue entry", plural: "queue entries"), "2 queue entries")
        XCTAssertEqual(DigestFormat.count(1, "reminder", "reminders"), "1 reminder")
        XCTAssertEqual(DigestFormat.count(2, "reminder", "reminders"), "2 reminders")
    }

    func testASectionNamedInThePluralIsSingularAfterOne() {
        XCTAssertEqual(Counted.section(1, "Problems"), "1 Problem")
        XCTAssertEqual(Counted.section(2, "Problems"), "2 Problems")
        XCTAssertEqual(Counted.section(1, "Lists"), "1 List")
        XCTAssertEqual(Counted.section(5, "Lists"), "5 Lists")
        XCTAssertEqual(Counted.section(1, "newsletters"), "1 newsletter")
        XCTAssertEqual(Counted.section(1, "Mailing lists"), "1 Mailing list")
        XCTAssertEqual(Counted.section(1, "Notifications"), "1 Notification")
    }

    /// What is not plainly a regular plural is left as the user wrote it.
    func testOtherSectionNamesAreKeptAsWritten() {
        for name in ["FYI", "News", "Check the sender", "Status", "Analysis", "Analytics", "Address",
                     "Deliveries", "Boxes", "Matches", "Invoices 2026", "Bus", "Gas", "Ideas?", "Café's"] {
            XCTAssertEqual(Counted.section(1, name), "1 " + name, name)
            XCTAssertEqual(Counted.section(2, name), "2 " + name, name)
        }
    }

    /// The digest's summary (subject and first line) says it so.
    func testTheDigestSubjectAgrees() {
        let day = CivilDate(year: 2026, month: 11, day: 30)
        func plan(_ sections: [(String, Int)]) -> DigestPlan {
            var n = 0
            let entries = sections.flatMap { name, count in
                (0..<count).map { _ -> DigestEntry in
                    n += 1
                    return DigestEntry(id: String(repeating: "a", count: 31) + String(n, radix: 16), section: name,
                                       created: Timestamp(secondsSince1970: 1_795_000_000, utcOffsetSeconds: 0), rule: "r",
                                       message: MessageSummary(subject: "s"))
                }
            }
            return DigestPlanner().plan(days: [day], reminders: [], queueEntries: [], digestEntries: entries)[0]
        }
        XCTAssertEqual(DigestFormat.subject(plan([("Lists", 1), ("Problems", 1)])), "triage · Mon 30 Nov: 1 List, 1 Problem")
        XCTAssertEqual(DigestFormat.subject(plan([("Lists", 2), ("Problems", 2)])), "triage · Mon 30 Nov: 2 Lists, 2 Problems")
    }
}
