import Foundation
import TriageCore
import XCTest

/// Follow-ups (`follow up in 3 days`) in a real store: the reminder each sent message
/// gets, and `FollowUpTracker` closing it when someone else answers, in any order.
final class FollowUpTrackerTests: XCTestCase {
    private var dir = ""
    private let zone = TimeZone(identifier: "America/Chicago")!
    /// 2026-12-02 09:00 -06:00.
    private let now = Date(timeIntervalSince1970: 1_796_223_600)
    private var store: Store { Store(path: dir, timeZone: zone) }
    private let me = ["me@example.test"]

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "triage-followup-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Quote `n`, sent by me to Client `n` on 2026-11-30 at 10:00 -06:00.
    private func sent(_ n: Int) -> Message {
        var m = Message()
        m.from = [Address(name: "Me", address: "me@example.test")]
        m.to = [Address(name: "Client \(n)", address: "c\(n)@client.test")]
        m.subject = "Quote \(n)"
        m.messageID = "quote\(n)@example.test"
        m.date = MessageDate(secondsSince1970: 1_796_054_400 + Int64(n), utcOffsetSeconds: -21_600)
        m.server.account = "work"
        m.server.mailbox = "Sent"
        return m
    }

    private func reply(to id: String, from address: String, references: [String] = [], id own: String = UUID().uuidString) -> Message {
        var m = Message()
        m.from = [Address(name: nil, address: address)]
        m.subject = "Re: something"
        m.messageID = own
        m.inReplyTo = id
        m.references = references
        m.server.account = "work"
        m.server.mailbox = "INBOX"
        return m
    }

    /// Writes the follow-ups of the given quotes, as a run's batch does.
    private func makeFollowUps(_ numbers: [Int], spec: FollowUpSpec = FollowUpSpec(wait: .day(.inDays(3)))) throws {
        var batch = StoreBatch()
        for n in numbers {
            batch.add(.followUp(spec), rule: "quotes", message: sent(n), created: Timestamp(now, timeZone: zone), timeZone: zone)
        }
        _ = try store.write(batch)
    }

    private func open() -> [Reminder] { store.openReminders().records.sorted { $0.title < $1.title } }

    func testThreeSentQuotesMakeThreeFollowUpsDueThreeDaysAfterSending() throws {
        try makeFollowUps([1, 2, 3])
        let reminders = open()
        XCTAssertEqual(reminders.map(\.title), ["No reply from Client 1: Quote 1", "No reply from Client 2: Quote 2",
                                                "No reply from Client 3: Quote 3"])
        // Sent Monday 30 November: due Thursday 3 December, though made on 2 December.
        XCTAssertEqual(Set(reminders.map(\.due.iso)), ["2026-12-03"])
        XCTAssertEqual(reminders.map { $0.followUp?.messageID }, ["quote1@example.test", "quote2@example.test", "quote3@example.test"])
        XCTAssertEqual(reminders[1].followUp?.recipient, "Client 2")
        XCTAssertEqual(reminders[1].followUp?.sent.rfc3339, "2026-11-30T10:00:02-06:00")
    }

    func testAnAnswerFromSomeoneElseClosesOnlyItsFollowUp() throws {
        try makeFollowUps([1, 2, 3])
        let tracker = try FollowUpTracker(store: dir, identities: me)
        tracker.observe(reply(to: "quote2@example.test", from: "c2@client.test", id: "answer2@client.test"))
        let closed = try tracker.settle(store, now: now)
        XCTAssertEqual(closed.map(\.title), ["No reply from Client 2: Quote 2"])
        XCTAssertEqual(open().map(\.title), ["No reply from Client 1: Quote 1", "No reply from Client 3: Quote 3"])
        let done = try XCTUnwrap(store.reminders([.done]).records.first)
        XCTAssertEqual(done.followUp?.answer?.messageID, "answer2@client.test")
        XCTAssertEqual(done.followUp?.answer?.from?.address, "c2@client.test")
        XCTAssertEqual(done.statusChanged, Timestamp(now, timeZone: zone))
    }

    func testTheUsersOwnReplyDoesNotCloseIt() throws {
        try makeFollowUps([1])
        let tracker = try FollowUpTracker(store: dir, identities: ["ME@example.test"])
        tracker.observe(reply(to: "quote1@example.test", from: "me@example.test"))
        XCTAssertEqual(try tracker.settle(store, now: now), [])
        XCTAssertEqual(open().count, 1)
    }

    func testAnAnswerToALaterMessageTheUserSentInTheThreadClosesIt() throws {
        try makeFollowUps([1])
        let tracker = try FollowUpTracker(store: dir, identities: me)
        // My nudge answers my quote; the client answers only the nudge (no References).
        tracker.observe(reply(to: "quote1@example.test", from: "me@example.test", id: "nudge@example.test"))
        tracker.observe(reply(to: "nudge@example.test", from: "c1@client.test"))
        XCTAssertEqual(try tracker.settle(store, now: now).count, 1)
        XCTAssertEqual(open(), [])
    }

    func testReferencesCountAndUnrelatedMailDoesNot() throws {
        try makeFollowUps([1, 2])
        let tracker = try FollowUpTracker(store: dir, identities: me)
        tracker.observe(reply(to: "other@x.test", from: "c9@client.test"))
        XCTAssertEqual(try tracker.settle(store, now: now), [])
        tracker.observe(reply(to: "later@x.test", from: "c1@client.test", references: ["quote1@example.test", "later@x.test"]))
        XCTAssertEqual(try tracker.settle(store, now: now).map(\.title), ["No reply from Client 1: Quote 1"])
    }

    func testAnAnswerReadFirstIsRememberedAcrossRuns() throws {
        // The answer is read (INBOX) before the sent message (Sent), in another run.
        let first = try FollowUpTracker(store: dir, identities: me)
        first.observe(reply(to: "quote2@example.test", from: "c2@client.test"))
        try first.save()
        let second = try FollowUpTracker(store: dir, identities: me)
        XCTAssertTrue(second.isAnswered("quote2@example.test"))
        XCTAssertFalse(second.isAnswered("quote1@example.test"))
        XCTAssertFalse(second.isAnswered(""))
        let mode = try FileManager.default.attributesOfItem(atPath: dir + "/" + FollowUpTracker.fileName)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
    }

    func testTheIndexKeepsTheNewestAnswers() throws {
        let tracker = try FollowUpTracker(store: dir, identities: me)
        for n in 0...FollowUpTracker.answeredLimit {
            tracker.observe(reply(to: "id\(n)@x.test", from: "someone@x.test", id: "a\(n)@x.test"))
        }
        try tracker.save()
        let reloaded = try FollowUpTracker(store: dir, identities: me)
        XCTAssertFalse(reloaded.isAnswered("id0@x.test"), "the oldest answered id is forgotten")
        XCTAssertTrue(reloaded.isAnswered("id1@x.test"))
        XCTAssertTrue(reloaded.isAnswered("id\(FollowUpTracker.answeredLimit)@x.test"))
    }

    func testABrokenIndexIsADataErrorNamingTheFile() throws {
        try FileManager.default.createDirectory(atPath: dir + "/state", withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: dir + "/" + FollowUpTracker.fileName))
        XCTAssertThrowsError(try FollowUpTracker(store: dir, identities: me)) { error in
            XCTAssertEqual((error as? TriageError)?.exitStatus, .dataError)
            XCTAssertTrue("\(error)".contains(".follow-ups.json"), "\(error)")
        }
    }

    func testDueTimes() {
        let sentAt: Int64 = 1_796_077_800  // 2026-11-30 16:30 -06:00
        let hours = FollowUpSpec(wait: .hours(9)).due(sent: sentAt, timeZone: zone)
        XCTAssertEqual(hours.day.iso, "2026-12-01")
        XCTAssertEqual(hours.at?.description, "01:30")
        let friday = FollowUpSpec(wait: .day(.next(weekday: 5)), at: TimeOfDay(hour: 9, minute: 0)).due(sent: sentAt, timeZone: zone)
        XCTAssertEqual(friday.day.iso, "2026-12-04")
        XCTAssertEqual(friday.at?.description, "09:00")
        XCTAssertNil(FollowUpSpec(wait: .day(.inDays(3))).due(sent: sentAt, timeZone: zone).at)
    }

    func testTheTitleIsOneLineAndTheAddressWhenTheNameShowsADomain() {
        var m = sent(1)
        m.to = [Address(name: "Evil\u{1b}[31m\nName", address: "e@x.test")]
        m.subject = "Quote\r\nBcc: x"
        XCTAssertEqual(FollowUpSpec.title(for: m), "No reply from Evil [31m Name: Quote Bcc: x")
        m.to = [Address(name: "boss@bank.example", address: "x@evil.test")]
        XCTAssertEqual(FollowUpSpec.title(for: m), "No reply from x@evil.test: Quote Bcc: x")
        m.to = []
        m.subject = nil
        XCTAssertEqual(FollowUpSpec.title(for: m), "No reply from (no recipient): (no subject)")
    }
}
