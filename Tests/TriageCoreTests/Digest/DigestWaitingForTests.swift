import Foundation
import TriageCore
import XCTest

/// The digest's "Waiting for" section: open follow-ups on sent mail, longest waiting
/// first, with how long, not among the reminders, and actionable by a reply.
final class DigestWaitingForTests: XCTestCase {
    typealias F = DigestFixtures

    private func followUp(_ n: Int, sentDay: Int, due: CivilDate, status: WorkStatus = .open) -> Reminder {
        var r = F.reminder(F.id("cc0\(n)"), "No reply from Client \(n): Quote \(n)", due: due, status: status,
                           message: F.summary(from: "Me", "me@example.test", subject: "Quote \(n)",
                                              date: "2026-11-\(sentDay)T10:00:00-06:00", snippet: "Here is the quote"))
        r.followUp = FollowUp(messageID: "quote\(n)@example.test", sent: F.stamp(2026, 11, sentDay, 10),
                              recipient: "Client \(n)")
        return r
    }

    func testWaitingForListsOpenFollowUpsWithHowLong() throws {
        let day = F.day(2026, 12, 2)
        let reminders = [followUp(1, sentDay: 27, due: F.day(2026, 11, 30)), followUp(2, sentDay: 29, due: F.day(2026, 12, 2)),
                         followUp(3, sentDay: 30, due: F.day(2026, 12, 3)), followUp(4, sentDay: 28, due: F.day(2026, 12, 1), status: .done),
                         F.reminder(F.id("aa01"), "Call the plumber", due: day)]
        let plan = DigestPlanner().plan(day: day, reminders: reminders, queueEntries: [], digestEntries: [])
        XCTAssertEqual(plan.waitingFor.map(\.reminder.followUp?.recipient), ["Client 1", "Client 2", "Client 3"])
        XCTAssertEqual(plan.waitingFor.map(\.days), [5, 3, 2])
        XCTAssertEqual(plan.reminders.map(\.reminder.title), ["Call the plumber"], "follow-ups are not repeated among reminders")
        XCTAssertEqual(plan.itemCount, 4)
        XCTAssertTrue(plan.actionableIDs.contains(F.id("cc02")))
        XCTAssertEqual(DigestFormat.countParts(plan), ["1 reminder", "3 waiting for"])

        let ids = ShortIDIndex(reminders.map(\.id))
        let view = DigestView(plan: plan, ids: DigestShortIDs(queue: ShortIDIndex([]), reminders: ids, digest: ShortIDIndex([])),
                              timeZone: F.chicago)
        let text = DigestTextRenderer().render(view)
        XCTAssertTrue(text.contains("Waiting for · 3\n"), text)
        XCTAssertTrue(text.contains("• Client 1: Quote 1 — 5 days\n  no reply; follow up was due Mon 30 Nov\n"), text)
        XCTAssertTrue(text.contains("• Client 2: Quote 2 — 3 days\n  no reply; follow up was due Wed 2 Dec\n"), text)
        XCTAssertTrue(text.contains("• Client 3: Quote 3 — 2 days\n  follow up on Thu 3 Dec\n"), text)
        XCTAssertFalse(text.contains("Client 4"), text)
        XCTAssertTrue(text.contains("reply with: done \(ids.short(F.id("cc03")))"), text)
        // Waiting longest first, before the queues, after the reminders.
        XCTAssertEqual(view.sections.map(\.heading), ["Reminders", "Waiting for"])
        let html = DigestHTMLRenderer().render(view)
        XCTAssertTrue(html.contains("Waiting for"), html)
    }

    func testAFollowUpOnMailSentLaterThanTheDayIsNotListed() {
        let plan = DigestPlanner().plan(day: F.day(2026, 11, 28), reminders: [followUp(1, sentDay: 30, due: F.day(2026, 12, 3))],
                                        queueEntries: [], digestEntries: [])
        XCTAssertEqual(plan.waitingFor, [])
        XCTAssertTrue(plan.isEmpty)
    }

    func testTheDayItWasSentSaysSo() {
        let plan = DigestPlanner().plan(day: F.day(2026, 11, 30), reminders: [followUp(1, sentDay: 30, due: F.day(2026, 12, 3))],
                                        queueEntries: [], digestEntries: [])
        XCTAssertEqual(plan.waitingFor.map(\.days), [0])
        XCTAssertEqual(DigestFormat.waited(days: 0), "sent today")
    }
}
