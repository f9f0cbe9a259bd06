import Foundation
@testable import TriageCore
import XCTest

/// When a snoozed message wakes (`SnoozeSpec.wake`), what `snooze` asks of the store
/// and the server, and how the wake finds a message by its Message-ID
/// (`HeaderField.messageID(in:)`).
final class SnoozeSpecTests: XCTestCase {
    private let chicago = TimeZone(identifier: "America/Chicago")!

    private func instant(_ text: String) -> Date { Timestamp(rfc3339: text)!.date }

    func testADayWakesAtItsTimeInTheConfiguredZone() {
        let now = instant("2026-03-02T09:00:00-06:00")  // a Monday
        XCTAssertEqual(SnoozeSpec.until(.inDays(1), at: nil).wake(now: now, timeZone: chicago).rfc3339, "2026-03-03T08:00:00-06:00",
                       "tomorrow, at 08:00 without a time")
        XCTAssertEqual(SnoozeSpec.until(.next(weekday: 1), at: TimeOfDay(hour: 9, minute: 30)).wake(now: now, timeZone: chicago).rfc3339,
                       "2026-03-09T09:30:00-05:00", "next Monday, after the change to daylight-saving time (8 March)")
        XCTAssertEqual(SnoozeSpec.until(.on(CivilDate(year: 2026, month: 3, day: 8)), at: TimeOfDay(hour: 1, minute: 0))
                        .wake(now: now, timeZone: chicago).rfc3339, "2026-03-08T01:00:00-06:00", "before the change that day")
        XCTAssertEqual(SnoozeSpec.until(.on(CivilDate(year: 2026, month: 3, day: 8)), at: TimeOfDay(hour: 9, minute: 0))
                        .wake(now: now, timeZone: chicago).rfc3339, "2026-03-08T09:00:00-05:00", "after the change that day")
        XCTAssertEqual(SnoozeSpec.until(.inDays(0), at: TimeOfDay(hour: 23, minute: 59)).wake(now: now, timeZone: chicago).rfc3339,
                       "2026-03-02T23:59:00-06:00")
    }

    func testASpanCountsFromNow() {
        let now = instant("2026-03-07T22:15:00-06:00")
        XCTAssertEqual(SnoozeSpec.hours(3).wake(now: now, timeZone: chicago).secondsSince1970,
                       Int64(now.timeIntervalSince1970) + 3 * 3600)
        XCTAssertEqual(SnoozeSpec.hours(24).wake(now: now, timeZone: chicago).rfc3339, "2026-03-08T23:15:00-05:00",
                       "24 hours, whatever the clock on the wall says")
    }

    func testTheTextIsWhatARuleWrites() {
        XCTAssertEqual(SnoozeSpec.hours(168).text, "for 1 week")
        XCTAssertEqual(SnoozeSpec.hours(48).text, "for 2 days")
        XCTAssertEqual(SnoozeSpec.hours(5).text, "for 5 hours")
        XCTAssertEqual(SnoozeSpec.until(.on(CivilDate(year: 2026, month: 12, day: 5)), at: TimeOfDay(hour: 18, minute: 30)).text,
                       "until 2026-12-05 at 18:30")
    }

    func testSnoozeWritesItsRecordAndMovesToTheSnoozedFolder() {
        let action = Action.snooze(.hours(24))
        XCTAssertEqual(action.storeEffect, .snoozeRecord(.hours(24)))
        XCTAssertEqual(action.serverEffect, .snooze)
        XCTAssertTrue(MessageParts.needed(by: action).contains(.text), "the record keeps a snippet")
        XCTAssertEqual(RecordID.actionKey(action), RecordID.actionKey(.snooze(.until(.inDays(1), at: nil))),
                       "one record per message and rule, whatever the time")
        var plan = ServerPlan()
        plan.add([PlannedAction(action: action, rule: "r")], uid: 7, facts: ServerFacts(), mailbox: "INBOX", snoozed: "Later")
        XCTAssertEqual(plan.moves.map(\.folder), ["Later"])
        XCTAssertEqual(plan.moves.map(\.uids), [[7]])
        var batch = StoreBatch()
        var message = Message()
        message.messageID = "a@b.test"
        let created = Timestamp(instant("2026-03-02T09:00:00-06:00"), timeZone: chicago)
        XCTAssertTrue(batch.add(.snooze(.until(.inDays(1), at: nil)), rule: "r", message: message, created: created, timeZone: chicago))
        let record = try? XCTUnwrap(batch.records.first as? SnoozeRecord)
        XCTAssertEqual(record?.wake.rfc3339, "2026-03-03T08:00:00-06:00")
        XCTAssertNil(record?.woken)
        XCTAssertEqual(record?.statusFolder, "snoozed")
    }

    func testTheMessageIDOfAHeaderBlock() {
        func id(_ header: String) -> String? { HeaderField.messageID(in: Array(header.utf8)) }
        XCTAssertEqual(id("Subject: x\r\nMessage-ID: <a.1@b.test>\r\n\r\n"), "a.1@b.test")
        XCTAssertEqual(id("message-id:\r\n  <folded@b.test>\r\nSubject: y\r\n\r\n"), "folded@b.test", "folded, any case")
        XCTAssertEqual(id("Message-Id: bare@b.test\n\n"), "bare@b.test", "without brackets: the first word")
        XCTAssertNil(id("Subject: Message-ID: <no@b.test>\r\n\r\n"), "only the field itself")
        XCTAssertNil(id("Subject: x\r\n\r\nMessage-ID: <body@b.test>\r\n"), "not in the body")
        XCTAssertNil(id("X-Message-ID: <other@b.test>\r\n\r\n"))
    }
}
