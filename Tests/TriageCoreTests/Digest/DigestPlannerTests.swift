import Foundation
import TriageCore
import XCTest

final class DigestPlannerTests: XCTestCase {
    typealias F = DigestFixtures
    let day1 = F.day(2026, 11, 30)
    let day2 = F.day(2026, 12, 1)
    let planner = DigestPlanner()

    /// All item ids of a plan, reminders then queue entries then digest entries.
    private func ids(_ plan: DigestPlan) -> [String] {
        plan.reminders.map(\.reminder.id) + plan.queues.flatMap { $0.items.map(\.entry.id) } + plan.digestEntryIDs
    }

    /// The issue's example: two items due on day 1 and two on day 2 give a
    /// day-1 digest of 2 and a day-2 digest of 4; if one of day 1's is done
    /// meanwhile, day 2's holds 3.
    func testCumulativeExampleFromTheIssue() {
        var reminderDay1 = F.reminder(F.id("aa01"), "Call the plumber", due: day1)
        let queueDay1 = F.queueEntry(F.id("bb01"), due: day1)
        let reminderDay2 = F.reminder(F.id("aa02"), "Renew passport", due: day2)
        let queueDay2 = F.queueEntry(F.id("bb02"), due: day2)
        let reminders = [reminderDay1, reminderDay2], queue = [queueDay1, queueDay2]

        let first = planner.plan(day: day1, reminders: reminders, queueEntries: queue, digestEntries: [])
        XCTAssertEqual(first.itemCount, 2)
        XCTAssertEqual(Set(ids(first)), [reminderDay1.id, queueDay1.id])
        XCTAssertEqual(first.reminders.map(\.overdueDays), [0])

        let second = planner.plan(day: day2, reminders: reminders, queueEntries: queue, digestEntries: [])
        XCTAssertEqual(second.itemCount, 4)
        XCTAssertEqual(Set(ids(second)), [reminderDay1.id, queueDay1.id, reminderDay2.id, queueDay2.id])
        // Day 1's items are now overdue by one day and come first.
        XCTAssertEqual(second.reminders.map(\.reminder.id), [reminderDay1.id, reminderDay2.id])
        XCTAssertEqual(second.reminders.map(\.overdueDays), [1, 0])
        XCTAssertEqual(second.queues.first?.items.map(\.overdueDays), [1, 0])

        reminderDay1.status = .done
        let afterDone = planner.plan(day: day2, reminders: [reminderDay1, reminderDay2], queueEntries: queue, digestEntries: [])
        XCTAssertEqual(afterDone.itemCount, 3)
        XCTAssertFalse(ids(afterDone).contains(reminderDay1.id))

        // The multi-day plan (`--plan 2`) gives the same counts.
        let both = planner.plan(days: [day1, day2], reminders: reminders, queueEntries: queue, digestEntries: [])
        XCTAssertEqual(both.map(\.itemCount), [2, 4])
    }

    func testDoneAndRemovedItemsDropOutAndFutureItemsWait() {
        let open = F.queueEntry(F.id("cc01"), due: day1)
        let done = F.queueEntry(F.id("cc02"), due: day1, status: .done)
        let removed = F.queueEntry(F.id("cc03"), due: day1, status: .removed)
        let future = F.queueEntry(F.id("cc04"), due: day2)
        let doneReminder = F.reminder(F.id("cc05"), "Done already", due: day1, status: .done)
        let plan = planner.plan(day: day1, reminders: [doneReminder], queueEntries: [open, done, removed, future], digestEntries: [])
        XCTAssertEqual(ids(plan), [open.id])
        XCTAssertTrue(plan.reminders.isEmpty)
    }

    func testOverdueAgeCountsCalendarDaysAcrossAYear() {
        let old = F.queueEntry(F.id("dd01"), due: F.day(2025, 12, 30))
        let plan = planner.plan(day: F.day(2026, 1, 2), reminders: [], queueEntries: [old], digestEntries: [])
        XCTAssertEqual(plan.queues.first?.items.first?.overdueDays, 3)
        XCTAssertEqual(DigestFormat.age(overdueDays: 3), "overdue 3 days")
        XCTAssertEqual(DigestFormat.age(overdueDays: 1), "overdue 1 day")
        XCTAssertEqual(DigestFormat.age(overdueDays: 0), "due today")
    }

    /// Over the spring-forward night in Chicago (2026-03-08, a 23-hour day) an
    /// item due on the 7th is one day overdue on the 8th and two on the 9th.
    func testOverdueAgeAcrossDaylightSavingChange() {
        let entry = F.queueEntry(F.id("dd02"), due: F.day(2026, 3, 7))
        for (day, age) in [(F.day(2026, 3, 7), 0), (F.day(2026, 3, 8), 1), (F.day(2026, 3, 9), 2)] {
            let plan = planner.plan(day: day, reminders: [], queueEntries: [entry], digestEntries: [])
            XCTAssertEqual(plan.queues.first?.items.first?.overdueDays, age, "\(day)")
        }
    }

    func testDigestEntriesAppearOnceInTheFirstDigestAfterTheyArrived() {
        let early = F.digestEntry(F.id("ee01"), section: "FYI", created: F.stamp(2026, 11, 29, 22))
        let onDay1 = F.digestEntry(F.id("ee02"), section: "FYI", created: F.stamp(2026, 11, 30, 5))
        let onDay2 = F.digestEntry(F.id("ee03"), section: "newsletters", created: F.stamp(2026, 12, 1, 5))
        let reportedBefore = F.digestEntry(F.id("ee04"), section: "FYI", created: F.stamp(2026, 11, 28, 5),
                                           reported: F.day(2026, 11, 29))
        let all = [early, onDay1, onDay2, reportedBefore]

        let plans = planner.plan(days: [day1, day2, day2.adding(days: 1)], reminders: [], queueEntries: [], digestEntries: all)
        XCTAssertEqual(plans[0].digestEntryIDs, [early.id, onDay1.id])
        XCTAssertEqual(plans[0].sections.map(\.name), ["FYI"])
        XCTAssertEqual(plans[1].digestEntryIDs, [onDay2.id])
        XCTAssertEqual(plans[1].sections.map(\.name), ["newsletters"])
        XCTAssertTrue(plans[2].isEmpty)

        // A single day: unreported entries up to that day, and those reported
        // on exactly that day (so a preview after sending shows what was sent).
        let reportedDay1 = F.digestEntry(F.id("ee05"), section: "FYI", created: F.stamp(2026, 11, 29, 5), reported: day1)
        let day1Plan = planner.plan(day: day1, reminders: [], queueEntries: [], digestEntries: all + [reportedDay1])
        XCTAssertEqual(Set(day1Plan.digestEntryIDs), [early.id, onDay1.id, reportedDay1.id])
        let day2Plan = planner.plan(day: day2, reminders: [], queueEntries: [], digestEntries: all + [reportedDay1])
        XCTAssertEqual(Set(day2Plan.digestEntryIDs), [early.id, onDay1.id, onDay2.id])
    }

    func testSectionsAndQueuesAreGroupedByName() {
        let plan = planner.plan(day: day1, reminders: [], queueEntries: [
            F.queueEntry(F.id("ff01"), queue: "reply", due: day1),
            F.queueEntry(F.id("ff02"), queue: "rec", due: day1),
            F.queueEntry(F.id("ff03"), queue: "rec", due: F.day(2026, 11, 20)),
        ], digestEntries: [
            F.digestEntry(F.id("ff04"), section: "newsletters", created: F.stamp(2026, 11, 29, 5)),
            F.digestEntry(F.id("ff05"), section: "FYI", created: F.stamp(2026, 11, 29, 6)),
            F.digestEntry(F.id("ff06"), section: "FYI", created: F.stamp(2026, 11, 29, 4)),
        ])
        XCTAssertEqual(plan.queues.map(\.name), ["rec", "reply"])
        XCTAssertEqual(plan.queues[0].items.map(\.entry.id), [F.id("ff03"), F.id("ff02")])  // most overdue first
        XCTAssertEqual(plan.sections.map(\.name), ["FYI", "newsletters"])
        XCTAssertEqual(plan.sections[0].entries.map(\.id), [F.id("ff06"), F.id("ff05")])  // oldest first
        XCTAssertEqual(DigestFormat.subject(plan), "triage · Mon 30 Nov: 2 to reconcile, 1 in reply, 2 FYI, 1 newsletter")
    }
}
