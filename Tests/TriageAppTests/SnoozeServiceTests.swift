import Foundation
@testable import TriageApp
import TriageCore
import TriageTestSupport
import XCTest

/// `triage snooze wake`'s step for one account (`SnoozeService.wakeAccount`) when the
/// server refuses the wake's STORE: the message stays snoozed and is reported as such,
/// with exit 75, where it used to count as done (issue 29). The command over a real
/// server: `SnoozeTests.testSnoozeWakeTheServerRefusesExits75AndTheMessageStaysSnoozed`.
final class SnoozeServiceTests: XCTestCase {
    /// Collects the events the wake reports.
    private final class Events: @unchecked Sendable {
        var all: [RunEvent] = []
    }

    private let now = Date(timeIntervalSince1970: 1_764_583_200)  // 2026-12-01T10:00:00Z

    /// A store holding one snoozed record (waking `wakeIn` seconds after `now`) and an
    /// in-memory server holding its message, read, in Snoozed.
    private func fixture(wakeIn: TimeInterval) throws
        -> (dir: String, store: Store, connection: InMemoryMailConnection, record: SnoozeRecord, account: AccountSection) {
        let dir = NSTemporaryDirectory() + "triage-snooze-service-\(UUID().uuidString.prefix(8))"
        let utc = TimeZone(identifier: "UTC")!
        let store = Store(path: dir + "/store", timeZone: utc)
        let connection = InMemoryMailConnection(folders: ["Snoozed"])
        connection.deliver(subject: "later please", to: "Snoozed", id: "l1@x.test", flags: ["\\Seen"])
        let summary = MessageSummary(subject: "later please", messageID: "l1@x.test", account: "home", mailbox: "INBOX")
        let id = RecordID.forMessage(account: "home", messageKey: "l1@x.test", rule: "later", actionKey: "snooze")
        let record = SnoozeRecord(id: id, created: Timestamp(now, timeZone: utc),
                                  wake: Timestamp(now.addingTimeInterval(wakeIn), timeZone: utc), rule: "later", message: summary)
        XCTAssertTrue(try store.put(record))
        return (dir, store, connection, record, AccountSection(name: "home", endpoint: .maildir(path: dir + "/mail")))
    }

    func testARefusedWakeStaysSnoozedAndExits75ThenWakesOnceAccepted() throws {
        let (dir, store, connection, record, account) = try fixture(wakeIn: 86_400)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let id = record.id
        let events = Events()

        connection.refuses = { change, _ in change.flags.contains("\\Seen") }
        let refused = try SnoozeService.wakeAccount([record], account: account, on: connection, store: store, now: now,
                                                    report: { events.all.append($0) })
        XCTAssertEqual(refused.woken.map(\.id), [])
        XCTAssertEqual(refused.stayed.map(\.record.id), [id])
        XCTAssertEqual(refused.stayed.first?.status, .tempFail)
        XCTAssertNil(try store.record(SnoozeRecord.self, id: id)?.woken, "the record still says snoozed")
        XCTAssertEqual(connection.mailboxes["Snoozed"]?.messages.count, 1, "the message is still in Snoozed")
        XCTAssertTrue(events.all.contains { if case .warning(_, _, let text) = $0 { return text.contains("could not wake") }; return false },
                      "\(events.all)")

        // Once the server takes it, the same step brings it back.
        connection.refuses = { _, _ in false }
        let accepted = try SnoozeService.wakeAccount([record], account: account, on: connection, store: store, now: now,
                                                     report: { events.all.append($0) })
        XCTAssertEqual(accepted.woken.map(\.id), [id])
        XCTAssertEqual(accepted.stayed.count, 0)
        XCTAssertEqual(connection.mailboxes["INBOX"]?.messages.count, 1)
        XCTAssertNotNil(try store.record(SnoozeRecord.self, id: id)?.woken)
    }

    /// A MOVE refused after the unread flag and the "Back today" entry were written: the
    /// message stays snoozed, and no digest may say it is back (the entry goes again).
    func testARefusedWakeMoveLeavesNoBackTodayEntry() throws {
        let (dir, store, connection, record, account) = try fixture(wakeIn: 0)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let id = record.id

        connection.refusesMove = { $0 == "INBOX" }
        let refused = try SnoozeService.wakeAccount([record], account: account, on: connection, store: store, now: now,
                                                    report: { _ in })
        XCTAssertEqual(refused.stayed.map(\.record.id), [id])
        XCTAssertEqual(connection.mailboxes["Snoozed"]?.messages.count, 1, "the message is still in Snoozed")
        XCTAssertEqual(store.digestEntries().records.filter { $0.section == SnoozeWake.backSection }.count, 0,
                       "no Back today entry for a message the server kept")

        connection.refusesMove = { _ in false }
        let accepted = try SnoozeService.wakeAccount([record], account: account, on: connection, store: store, now: now,
                                                     report: { _ in })
        XCTAssertEqual(accepted.woken.map(\.id), [id])
        XCTAssertEqual(store.digestEntries().records.filter { $0.section == SnoozeWake.backSection }.count, 1)
    }
}
