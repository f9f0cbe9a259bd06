import Foundation
import TriageCore
import XCTest

/// The webhook decisions (issue 11, item 7): backoff, the run's budget, the
/// per-host circuit breaker, giving up, and the record's file staying readable
/// both ways.
final class WebhookRoundTests: XCTestCase {
    private let now = StoreFixtures.now
    private let zone = StoreFixtures.zone

    private func delivery(_ n: Int, url: String = "https://hooks.example/t/secret", attempts: Int = 0,
                          next: Date? = nil) -> WebhookDelivery {
        let m = StoreFixtures.message(n)
        var d = WebhookDelivery(id: RecordID.forMessage(m, rule: "ping", action: .webhook(url: url)), url: url,
                                created: Timestamp(now, timeZone: zone), rule: "ping", message: MessageSummary(m))
        d.attempts = attempts
        d.nextAttempt = next.map { Timestamp($0, timeZone: zone) }
        return d
    }

    func testBackoffDoublesFromFiveMinutesUpToSixHours() {
        let policy = WebhookPolicy()
        XCTAssertEqual((1...9).map { policy.retryDelay(afterFailures: $0) },
                       [300, 600, 1200, 2400, 4800, 9600, 19200, 21600, 21600])
        XCTAssertEqual(policy.retryDelay(afterFailures: 1000), 21600, "no overflow far out")
    }

    func testAFailureSetsTheNextAttemptAndTheWebhookWaitsUntilThen() {
        var round = WebhookRound(policy: WebhookPolicy())
        var d = delivery(1)
        XCTAssertEqual(round.decide(d, host: "h", now: now, elapsed: 0), .post(timeout: 20, connectTimeout: 10))
        let change = round.record(succeeded: false, reason: "HTTP 500", for: &d, host: "h", now: now, zone: zone)
        XCTAssertEqual(change, .retry(at: now.addingTimeInterval(300)))
        XCTAssertEqual(d.attempts, 1)
        XCTAssertEqual(d.lastError, "HTTP 500")
        XCTAssertEqual(d.statusFolder, "pending")
        // The next run, a minute later, leaves it alone; six minutes later it is tried.
        var later = WebhookRound(policy: WebhookPolicy())
        XCTAssertEqual(later.decide(d, host: "h", now: now.addingTimeInterval(60), elapsed: 0),
                       .notDue(until: now.addingTimeInterval(300)))
        XCTAssertEqual(later.decide(d, host: "h", now: now.addingTimeInterval(360), elapsed: 0),
                       .post(timeout: 20, connectTimeout: 10))
        // The second failure waits twice as long.
        XCTAssertEqual(later.record(succeeded: false, reason: "HTTP 500", for: &d, host: "h",
                                    now: now.addingTimeInterval(360), zone: zone),
                       .retry(at: now.addingTimeInterval(360 + 600)))
    }

    func testTheBudgetBoundsEachPostAndStopsTheRun() {
        var round = WebhookRound(policy: WebhookPolicy(budget: 60, requestTimeout: 20, connectTimeout: 10))
        XCTAssertEqual(round.decide(delivery(1), host: "a", now: now, elapsed: 30), .post(timeout: 20, connectTimeout: 10))
        XCTAssertEqual(round.decide(delivery(2), host: "b", now: now, elapsed: 52), .post(timeout: 8, connectTimeout: 8),
                       "what is left of the budget caps the request")
        XCTAssertEqual(round.decide(delivery(3), host: "c", now: now, elapsed: 59.5), .budgetSpent)
        XCTAssertEqual(round.decide(delivery(4), host: "d", now: now, elapsed: 75), .budgetSpent)
        XCTAssertEqual(round.leftForBudget, 2)
    }

    func testAHostThatFailsTwiceInARowIsSkippedForTheRestOfTheRun() {
        var round = WebhookRound(policy: WebhookPolicy())
        var a1 = delivery(1), a2 = delivery(2), b1 = delivery(3)
        round.record(succeeded: false, reason: "timed out", for: &a1, host: "http://dead:80", now: now, zone: zone)
        XCTAssertFalse(round.isOpen("http://dead:80"))
        round.record(succeeded: false, reason: "timed out", for: &a2, host: "http://dead:80", now: now, zone: zone)
        XCTAssertTrue(round.isOpen("http://dead:80"))
        XCTAssertEqual(round.decide(delivery(4), host: "http://dead:80", now: now, elapsed: 0), .hostSkipped)
        XCTAssertEqual(round.decide(delivery(5), host: "http://dead:80", now: now, elapsed: 0), .hostSkipped)
        XCTAssertEqual(round.decide(b1, host: "http://alive:80", now: now, elapsed: 0), .post(timeout: 20, connectTimeout: 10))
        XCTAssertEqual(round.skippedForHost, ["http://dead:80": 2])
        // A skipped webhook is not an attempt: its record is not touched.
        XCTAssertEqual(delivery(4).attempts, 0)
    }

    func testASuccessResetsTheHostsCount() {
        var round = WebhookRound(policy: WebhookPolicy())
        var a = delivery(1), b = delivery(2), c = delivery(3)
        round.record(succeeded: false, reason: "HTTP 502", for: &a, host: "h", now: now, zone: zone)
        XCTAssertEqual(round.record(succeeded: true, reason: nil, for: &b, host: "h", now: now, zone: zone), .delivered)
        round.record(succeeded: false, reason: "HTTP 502", for: &c, host: "h", now: now, zone: zone)
        XCTAssertFalse(round.isOpen("h"), "two failures, but not in a row")
        XCTAssertEqual(b.statusFolder, "delivered")
        XCTAssertNil(b.nextAttempt)
    }

    func testTheTenthFailureGivesUpAndMakesOneProblemEntry() {
        var round = WebhookRound(policy: WebhookPolicy())
        var d = delivery(7, attempts: 9, next: now.addingTimeInterval(-1))
        XCTAssertEqual(round.decide(d, host: "https://hooks.example:443", now: now, elapsed: 0),
                       .post(timeout: 20, connectTimeout: 10))
        XCTAssertEqual(round.record(succeeded: false, reason: "webhook https://hooks.example:443: HTTP 410", for: &d,
                                    host: "https://hooks.example:443", now: now, zone: zone), .gaveUp)
        XCTAssertEqual(d.attempts, 10)
        XCTAssertEqual(d.statusFolder, "failed")
        XCTAssertNil(d.nextAttempt)
        XCTAssertEqual(d.gaveUp, Timestamp(now, timeZone: zone))

        let created = Timestamp(now, timeZone: zone)
        let entry = WebhookRound.problemEntry(for: d, host: "https://hooks.example:443", created: created)
        XCTAssertEqual(entry.section, MailboxRunner.problemsSection)
        XCTAssertTrue(entry.message.snippet.hasPrefix("webhook of rule 'ping' to https://hooks.example:443 given up after 10 failed attempts"),
                      entry.message.snippet)
        XCTAssertFalse(entry.message.snippet.contains("secret"), "the URL's path is never shown")
        XCTAssertEqual(entry.message.subject, "Message 7")
        XCTAssertEqual(entry.id, WebhookRound.problemEntry(for: d, host: "https://hooks.example:443", created: created).id,
                       "the same webhook makes the same entry")
        XCTAssertNotEqual(entry.id, WebhookRound.problemEntry(for: delivery(8, attempts: 10), host: "h", created: created).id)
    }

    func testRecordsWithoutTheNewKeysStillReadAndNewRecordsRoundTrip() throws {
        let store = Store(path: StoreFixtures.freshFolder() + "/store", timeZone: zone)
        var batch = StoreBatch()
        var d = delivery(1)
        batch.add(d)
        _ = try store.write(batch)
        // A record as written before next_attempt and gave_up existed.
        let path = store.path(of: d)
        var text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.contains("\"next_attempt\""), text)
        text = text.split(separator: "\n").filter { !$0.contains("\"next_attempt\"") && !$0.contains("\"gave_up\"") }
            .joined(separator: "\n")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let old = try XCTUnwrap(store.record(WebhookDelivery.self, id: d.id))
        XCTAssertNil(old.nextAttempt)
        XCTAssertNil(old.gaveUp)
        XCTAssertEqual(old.statusFolder, "pending")

        // Backoff and giving up are kept in the file; a given-up webhook leaves `pending`.
        var round = WebhookRound(policy: WebhookPolicy(maxAttempts: 2))
        round.record(succeeded: false, reason: "HTTP 500", for: &d, host: "h", now: now, zone: zone)
        try store.update(WebhookDelivery.self, ids: [d.id]) { $0 = d }
        XCTAssertEqual(try store.record(WebhookDelivery.self, id: d.id)?.nextAttempt, Timestamp(now.addingTimeInterval(300), timeZone: zone))
        round.record(succeeded: false, reason: "HTTP 500", for: &d, host: "h", now: now, zone: zone)
        try store.update(WebhookDelivery.self, ids: [d.id]) { $0 = d }
        XCTAssertEqual(store.records(WebhookDelivery.self, in: ["pending"]).records.count, 0)
        XCTAssertEqual(store.records(WebhookDelivery.self, in: ["failed"]).records.map(\.gaveUp), [Timestamp(now, timeZone: zone)])
    }
}
