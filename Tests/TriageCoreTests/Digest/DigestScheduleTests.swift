import Foundation
import TriageCore
import XCTest

final class DigestScheduleTests: XCTestCase {
    typealias F = DigestFixtures
    let chicago = DigestSchedule(hour: 7, timeZone: F.chicago)

    func testDueFromTheHourOnceADay() {
        let day = F.day(2026, 11, 30)
        XCTAssertEqual(chicago.dueDay(at: F.instant(2026, 11, 30, 6, 59), sent: [day.adding(days: -1)]), nil)
        XCTAssertEqual(chicago.dueDay(at: F.instant(2026, 11, 30, 7, 0), sent: [day.adding(days: -1)]), day)
        XCTAssertEqual(chicago.dueDay(at: F.instant(2026, 11, 30, 23, 59), sent: [day.adding(days: -1)]), day)
        // Never twice: once sent, later runs that day find nothing due.
        XCTAssertNil(chicago.dueDay(at: F.instant(2026, 11, 30, 7, 5), sent: [day]))
        XCTAssertNil(chicago.dueDay(at: F.instant(2026, 11, 30, 23, 59), sent: [day]))
    }

    /// Cron missed 07:00 on the 30th (machine off); the run at 06:00 on the 1st,
    /// before that day's hour, sends the 30th's digest; at 07:00 the 1st's is due.
    func testARunThatMissedTheHourCatchesUpOnTheNextRun() {
        let missed = F.day(2026, 11, 30)
        let sent: Set<CivilDate> = [F.day(2026, 11, 29)]
        XCTAssertEqual(chicago.dueDay(at: F.instant(2026, 12, 1, 6, 0), sent: sent), missed)
        XCTAssertNil(chicago.dueDay(at: F.instant(2026, 12, 1, 6, 30), sent: sent.union([missed])))
        XCTAssertEqual(chicago.dueDay(at: F.instant(2026, 12, 1, 7, 0), sent: sent.union([missed])), F.day(2026, 12, 1))
        // Several missed days: only the latest is sent (it holds everything still open).
        XCTAssertEqual(chicago.dueDay(at: F.instant(2026, 12, 5, 8, 0), sent: sent), F.day(2026, 12, 5))
    }

    func testAnEarlierDayIsNotDueOnceALaterDayWasSent() {
        // `triage digest --send` at 05:00 sent today's; yesterday's is not sent afterwards.
        XCTAssertNil(chicago.dueDay(at: F.instant(2026, 12, 1, 6, 0), sent: [F.day(2026, 12, 1)]))
    }

    /// Spring forward in Chicago: 2026-03-08 02:00 CST becomes 03:00 CDT. The
    /// digest is due at 07:00 local, i.e. 12:00Z, not 24 hours after the 7th's
    /// (13:00Z), and not an hour early either.
    func testSpringForwardChicago() {
        let sent: Set<CivilDate> = [F.day(2026, 3, 7)]
        let z = { (h: Int, m: Int) in Date(timeIntervalSince1970: TimeInterval(F.day(2026, 3, 8).daysSince1970 * 86_400 + h * 3600 + m * 60)) }
        XCTAssertEqual(F.instant(2026, 3, 8, 7), z(12, 0))
        XCTAssertNil(chicago.dueDay(at: z(11, 59), sent: sent))
        XCTAssertEqual(chicago.dueDay(at: z(12, 0), sent: sent), F.day(2026, 3, 8))
        XCTAssertEqual(chicago.localDayAndHour(at: z(12, 0)).hour, 7)

        // An hour the clock skips (02:00) counts as passed once it shows 03:00.
        let two = DigestSchedule(hour: 2, timeZone: F.chicago)
        XCTAssertNil(two.dueDay(at: z(7, 59), sent: sent))            // 01:59 CST
        XCTAssertEqual(two.dueDay(at: z(8, 0), sent: sent), F.day(2026, 3, 8))  // 03:00 CDT
    }

    /// Fall back in Chicago: 2026-11-01 02:00 CDT becomes 01:00 CST (a 25-hour
    /// day). 07:00 local is 13:00Z; at 12:00Z (06:00 CST) it is not yet due.
    func testFallBackChicago() {
        let sent: Set<CivilDate> = [F.day(2026, 10, 31)]
        let z = { (h: Int) in Date(timeIntervalSince1970: TimeInterval(F.day(2026, 11, 1).daysSince1970 * 86_400 + h * 3600)) }
        XCTAssertNil(chicago.dueDay(at: z(12), sent: sent))
        XCTAssertEqual(chicago.dueDay(at: z(13), sent: sent), F.day(2026, 11, 1))
        // The repeated 01:00 hour: due at its first pass, and never twice.
        let one = DigestSchedule(hour: 1, timeZone: F.chicago)
        XCTAssertEqual(one.dueDay(at: z(6), sent: sent), F.day(2026, 11, 1))          // 01:00 CDT
        XCTAssertNil(one.dueDay(at: z(7), sent: sent.union([F.day(2026, 11, 1)])))    // 01:00 CST again
    }

    /// Europe/Berlin springs forward on 2026-03-29 (02:00 CET → 03:00 CEST):
    /// 07:00 local is 05:00Z that day and 06:00Z the day before.
    func testBerlinAroundTheSwitch() {
        let berlin = DigestSchedule(hour: 7, timeZone: F.berlin)
        let utc = { (d: Int, h: Int) in Date(timeIntervalSince1970: TimeInterval(F.day(2026, 3, d).daysSince1970 * 86_400 + h * 3600)) }
        XCTAssertNil(berlin.dueDay(at: utc(28, 5), sent: [F.day(2026, 3, 27)]))
        XCTAssertEqual(berlin.dueDay(at: utc(28, 6), sent: [F.day(2026, 3, 27)]), F.day(2026, 3, 28))
        XCTAssertNil(berlin.dueDay(at: utc(29, 4), sent: [F.day(2026, 3, 28)]))
        XCTAssertEqual(berlin.dueDay(at: utc(29, 5), sent: [F.day(2026, 3, 28)]), F.day(2026, 3, 29))
        // Days near midnight fall on the local date: 23:30Z on the 28th is 00:30 on the 29th in Berlin.
        XCTAssertEqual(berlin.localDayAndHour(at: Date(timeIntervalSince1970: TimeInterval(F.day(2026, 3, 28).daysSince1970 * 86_400 + 23 * 3600 + 1800))).day,
                       F.day(2026, 3, 29))
    }

    func testUpcomingDaysForPlanning() {
        // Before the hour, today's is next; after it (and sent), tomorrow's.
        XCTAssertEqual(chicago.upcomingDays(at: F.instant(2026, 11, 30, 5), sent: [F.day(2026, 11, 29)], count: 3),
                       [F.day(2026, 11, 30), F.day(2026, 12, 1), F.day(2026, 12, 2)])
        XCTAssertEqual(chicago.upcomingDays(at: F.instant(2026, 11, 30, 9), sent: [F.day(2026, 11, 30)], count: 1),
                       [F.day(2026, 12, 1)])
        // A day due but not sent comes first.
        XCTAssertEqual(chicago.upcomingDays(at: F.instant(2026, 11, 30, 9), sent: [], count: 2),
                       [F.day(2026, 11, 30), F.day(2026, 12, 1)])
        // Across the fall-back night the days are still consecutive dates.
        XCTAssertEqual(chicago.upcomingDays(at: F.instant(2026, 10, 31, 9), sent: [F.day(2026, 10, 31)], count: 2),
                       [F.day(2026, 11, 1), F.day(2026, 11, 2)])
    }
}
