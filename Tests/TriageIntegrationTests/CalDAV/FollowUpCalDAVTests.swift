import Foundation
import TriageCore
import XCTest

/// Follow-ups reach the phone as reminders (Radicale, checked with python3-caldav): one
/// VTODO each, titled from the recipient and subject and due when the wait is over; an
/// answer that closes one completes its task at the next sync.
final class FollowUpCalDAVTests: XCTestCase {
    func testFollowUpsSyncAsRemindersAndAnAnswerCompletesOne() throws {
        let f = try CalDAVTestFolder("caldav-follow-up", server: try CalDAVTestServer.radicale())
        defer { f.remove() }
        var batch = StoreBatch()
        for n in 1...2 {
            var sent = Message()
            sent.from = [Address(name: "Me", address: "me@example.test")]
            sent.to = [Address(name: "Client \(n)", address: "c\(n)@client.test")]
            sent.subject = "Quote \(n)"
            sent.messageID = "quote\(n)@example.test"
            sent.date = MessageDate(secondsSince1970: 1_796_054_400, utcOffsetSeconds: 0)  // 2026-11-30 10:00 UTC
            sent.server.account = "test"
            sent.server.mailbox = "Sent"
            batch.add(.followUp(FollowUpSpec(wait: .day(.inDays(3)), at: TimeOfDay(hour: 9, minute: 0))), rule: "quotes",
                      message: sent, created: CalDAVTestFolder.created, timeZone: f.zone)
        }
        _ = try f.store.write(batch)

        let first = try f.triage(["sync"])
        XCTAssertEqual(first.status, 0, first.err)
        let items = try f.server.items(f.reminders).sorted { $0.summary < $1.summary }
        XCTAssertEqual(items.map(\.summary), ["No reply from Client 1: Quote 1", "No reply from Client 2: Quote 2"])
        XCTAssertEqual(items.map(\.due), ["20261203T090000", "20261203T090000"])
        XCTAssertEqual(items.map(\.status), ["NEEDS-ACTION", "NEEDS-ACTION"])

        // Client 2 answers: closed here, completed on the phone at the next sync.
        var answer = Message()
        answer.from = [Address(name: nil, address: "c2@client.test")]
        answer.inReplyTo = "quote2@example.test"
        let tracker = try FollowUpTracker(store: f.dir + "/store", identities: ["me@example.test"])
        tracker.observe(answer)
        XCTAssertEqual(try tracker.settle(f.store, now: Date(timeIntervalSince1970: 1_796_140_800)).count, 1)
        let second = try f.triage(["sync"])
        XCTAssertEqual(second.status, 0, second.err)
        let after = try f.server.items(f.reminders).sorted { $0.summary < $1.summary }
        XCTAssertEqual(after.map(\.status), ["NEEDS-ACTION", "COMPLETED"])
    }
}
