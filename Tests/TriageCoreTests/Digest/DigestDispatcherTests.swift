import Foundation
import TriageCore
import XCTest

/// Sending against a real store in a temporary folder, with a recording delivery.
final class DigestDispatcherTests: XCTestCase {
    typealias F = DigestFixtures
    var store: Store!
    let delivery = RecordingDelivery()

    override func setUp() {
        store = Store(path: F.freshFolder() + "/store", timeZone: F.chicago)
        store.synchronous = false
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: (store.root as NSString).deletingLastPathComponent)
    }

    private func dispatcher(sendEmpty: Bool = false) -> DigestDispatcher {
        DigestDispatcher(store: store, settings: F.settings(sendEmpty: sendEmpty), timeZone: F.chicago)
    }

    private func header(_ name: String, _ message: ComposedMessage) -> String? {
        let head = message.text.components(separatedBy: "\r\n\r\n")[0].replacingOccurrences(of: "\r\n ", with: " ")
        return head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    func testSendsOncePerDayAndMarksEntriesReported() throws {
        let entry = F.digestEntry(F.id("ab01"), section: "FYI", created: F.stamp(2026, 11, 30, 3))
        try store.put(F.queueEntry(F.id("ab02"), due: F.day(2026, 11, 30)))
        try store.put(entry)
        try store.digestLedger.markSent(F.day(2026, 11, 29), now: F.instant(2026, 11, 29, 7))
        let d = dispatcher()

        XCTAssertTrue(isNotDue(try d.sendDue(now: F.instant(2026, 11, 30, 6, 59), delivery: { self.delivery })))
        XCTAssertTrue(delivery.delivered.isEmpty)

        guard case .sent(let draft) = try d.sendDue(now: F.instant(2026, 11, 30, 7, 10), delivery: { self.delivery }) else {
            return XCTFail("expected a send")
        }
        XCTAssertEqual(delivery.delivered.count, 1)
        XCTAssertEqual(draft.plan.itemCount, 2)
        XCTAssertEqual(draft.rendered.subject, "triage · Mon 30 Nov: 1 to reconcile, 1 FYI")
        XCTAssertEqual(header("Subject", delivery.delivered[0]).map { $0.lowercased().contains("=?utf-8?") }, true)
        XCTAssertEqual(header("X-Triage-Digest", delivery.delivered[0]), "2026-11-30")
        XCTAssertTrue(store.digestLedger.isSent(F.day(2026, 11, 30)))
        XCTAssertTrue(store.unreportedDigestEntries().records.isEmpty)
        XCTAssertEqual(try store.record(DigestEntry.self, id: entry.id)?.reported, F.day(2026, 11, 30))

        // Later runs that day send nothing; the next day's digest holds the still
        // open queue entry (overdue) but not the digest entry.
        XCTAssertTrue(isNotDue(try d.sendDue(now: F.instant(2026, 11, 30, 7, 20), delivery: { self.delivery })))
        XCTAssertTrue(isNotDue(try d.sendDue(now: F.instant(2026, 11, 30, 23, 0), delivery: { self.delivery })))
        XCTAssertEqual(delivery.delivered.count, 1)
        guard case .sent(let next) = try d.sendDue(now: F.instant(2026, 12, 1, 7, 0), delivery: { self.delivery }) else {
            return XCTFail("expected the next day's send")
        }
        XCTAssertEqual(next.plan.itemCount, 1)
        XCTAssertEqual(next.plan.queues.first?.items.first?.overdueDays, 1)
        XCTAssertEqual(delivery.delivered.count, 2)
    }

    func testAMissedHourIsCaughtUpByTheNextMorningsRun() throws {
        try store.put(F.queueEntry(F.id("ac01"), due: F.day(2026, 11, 30)))
        try store.digestLedger.markSent(F.day(2026, 11, 29), now: F.instant(2026, 11, 29, 7))
        let d = dispatcher()
        // No run between 07:00 on the 30th and 06:00 on the 1st.
        guard case .sent(let draft) = try d.sendDue(now: F.instant(2026, 12, 1, 6, 0), delivery: { self.delivery }) else {
            return XCTFail("expected the missed day's digest")
        }
        XCTAssertEqual(draft.plan.day, F.day(2026, 11, 30))
        XCTAssertTrue(isNotDue(try d.sendDue(now: F.instant(2026, 12, 1, 6, 30), delivery: { self.delivery })))
        XCTAssertEqual(delivery.delivered.count, 1)
    }

    func testAFailedDeliveryMarksNothing() throws {
        let entry = F.digestEntry(F.id("ad01"), section: "FYI", created: F.stamp(2026, 11, 30, 3))
        try store.put(entry)
        delivery.failure = MailDeliveryError(step: .authentication, server: "smtp.example.test:465", message: "refused")
        XCTAssertThrowsError(try dispatcher().sendDue(now: F.instant(2026, 11, 30, 8), delivery: { self.delivery })) { error in
            XCTAssertEqual((error as? MailDeliveryError)?.step, .authentication)
            XCTAssertEqual((error as? TriageError)?.exitStatus, .noPermission)
        }
        XCTAssertFalse(store.digestLedger.isSent(F.day(2026, 11, 30)))
        XCTAssertEqual(store.unreportedDigestEntries().records.map(\.id), [entry.id])

        // The next run retries with the same Message-ID.
        delivery.failure = nil
        let first = try dispatcher().draft(day: F.day(2026, 11, 30), now: F.instant(2026, 11, 30, 8)).message.messageID
        guard case .sent(let draft) = try dispatcher().sendDue(now: F.instant(2026, 11, 30, 9), delivery: { self.delivery }) else {
            return XCTFail("expected the retry to send")
        }
        XCTAssertEqual(draft.message.messageID, first)
    }

    func testAFailingPasswordCommandSendsAndMarksNothing() throws {
        try store.put(F.queueEntry(F.id("ae01"), due: F.day(2026, 11, 30)))
        XCTAssertThrowsError(try dispatcher().sendDue(now: F.instant(2026, 11, 30, 8), delivery: {
            throw SimpleError(.tempFail, "password_command of [digest] failed")
        }))
        XCTAssertFalse(store.digestLedger.isSent(F.day(2026, 11, 30)))
    }

    /// Nothing to report and send_empty = no: nothing is sent and the day is not
    /// recorded, so an item that arrives later that day still goes out that day.
    func testNothingToReportSendsNothingAndKeepsTheDayOpen() throws {
        let d = dispatcher()
        guard case .nothingToReport(let day, _) = try d.sendDue(now: F.instant(2026, 11, 30, 7), delivery: { self.delivery }) else {
            return XCTFail("expected nothing to report")
        }
        XCTAssertEqual(day, F.day(2026, 11, 30))
        XCTAssertTrue(delivery.delivered.isEmpty)
        XCTAssertFalse(store.digestLedger.isSent(day))

        try store.put(F.digestEntry(F.id("af01"), section: "FYI", created: F.stamp(2026, 11, 30, 12)))
        guard case .sent = try d.sendDue(now: F.instant(2026, 11, 30, 12, 5), delivery: { self.delivery }) else {
            return XCTFail("expected the later item to go out the same day")
        }
        XCTAssertEqual(delivery.delivered.count, 1)
    }

    func testSendEmptySendsNothingNew() throws {
        guard case .sent(let draft) = try dispatcher(sendEmpty: true).sendDue(now: F.instant(2026, 11, 30, 7), delivery: { self.delivery }) else {
            return XCTFail("expected an empty digest to be sent")
        }
        XCTAssertEqual(draft.rendered.subject, "triage · Mon 30 Nov: nothing new")
        XCTAssertTrue(store.digestLedger.isSent(F.day(2026, 11, 30)))
    }

    func testForceResendsWithItsOwnMessageIDAndTheSameEntries() throws {
        let entry = F.digestEntry(F.id("a901"), section: "FYI", created: F.stamp(2026, 11, 30, 3))
        try store.put(entry)
        let d = dispatcher(), day = F.day(2026, 11, 30)
        let outcome = try d.send(day: day, now: F.instant(2026, 11, 30, 8), force: false, delivery: { self.delivery })
        guard case .sent(let first) = outcome else {
            return XCTFail("expected a send, got \(outcome)")
        }
        guard case .alreadySent = try d.send(day: day, now: F.instant(2026, 11, 30, 9), force: false, delivery: { self.delivery }) else {
            return XCTFail("expected no second send")
        }
        guard case .sent(let again) = try d.send(day: day, now: F.instant(2026, 11, 30, 9), force: true, delivery: { self.delivery }) else {
            return XCTFail("expected the forced send")
        }
        XCTAssertEqual(delivery.delivered.count, 2)
        XCTAssertNotEqual(first.message.messageID, again.message.messageID)
        XCTAssertTrue(again.message.messageID.hasPrefix(first.message.messageID.components(separatedBy: "@")[0] + ".r"))
        // The entry reported that day is still shown in that day's digest.
        XCTAssertEqual(again.plan.digestEntryIDs, [entry.id])
        XCTAssertEqual(try store.record(DigestEntry.self, id: entry.id)?.reported, day)
    }

    private func isNotDue(_ outcome: DigestOutcome) -> Bool {
        if case .notDue = outcome { return true }
        return false
    }
}
