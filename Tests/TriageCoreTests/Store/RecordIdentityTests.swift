import Foundation
import TriageCore
import XCTest

final class RecordIdentityTests: XCTestCase {
    func testIdentityIgnoresUIDAndMailboxButNotRuleOrAction() {
        var m = StoreFixtures.message(1, uid: 5)
        let id = RecordID.forMessage(m, rule: "receipts", action: .queue(name: "rec", inDays: 2))
        XCTAssertTrue(RecordID.isValid(id))
        m.server.uid = 77
        m.server.mailbox = "Archive"
        XCTAssertEqual(RecordID.forMessage(m, rule: "receipts", action: .queue(name: "rec", inDays: 9)), id)
        XCTAssertNotEqual(RecordID.forMessage(m, rule: "other", action: .queue(name: "rec", inDays: 2)), id)
        XCTAssertNotEqual(RecordID.forMessage(m, rule: "receipts", action: .queue(name: "later", inDays: 2)), id)
        XCTAssertNotEqual(RecordID.forMessage(m, rule: "receipts", action: .digest(section: "rec")), id)
        m.server.account = "work"
        XCTAssertNotEqual(RecordID.forMessage(m, rule: "receipts", action: .queue(name: "rec", inDays: 2)), id)
    }

    func testWithoutMessageIDTheHeaderHashIsTheIdentity() {
        var a = StoreFixtures.message(1)
        a.messageID = nil
        var b = a
        b.server.uid = 99
        XCTAssertEqual(RecordID.forMessage(a, rule: "r", action: .digest(section: "s")),
                       RecordID.forMessage(b, rule: "r", action: .digest(section: "s")))
        b.headerHash = SHA256.hex("other headers")
        XCTAssertNotEqual(RecordID.forMessage(a, rule: "r", action: .digest(section: "s")),
                          RecordID.forMessage(b, rule: "r", action: .digest(section: "s")))
    }

    func testRandomIDsAreWellFormedAndDistinct() {
        let ids = (0..<100).map { _ in RecordID.random() }
        XCTAssertTrue(ids.allSatisfy(RecordID.isValid))
        XCTAssertEqual(Set(ids).count, 100)
    }

    func testTimestampsRoundTripThroughRFC3339() {
        let zone = TimeZone(identifier: "America/New_York")!
        let t = Timestamp(Date(timeIntervalSince1970: 1_772_439_300), timeZone: zone)
        XCTAssertEqual(t.rfc3339, "2026-03-02T03:15:00-05:00")
        XCTAssertEqual(Timestamp(rfc3339: t.rfc3339), t)
        XCTAssertEqual(t.localDay, CivilDate(year: 2026, month: 3, day: 2))
        XCTAssertEqual(Timestamp(rfc3339: "2026-03-02T08:15:00.250Z")?.secondsSince1970, 1_772_439_300)
        XCTAssertNil(Timestamp(rfc3339: "2026-02-30T08:15:00Z"))
        XCTAssertNil(Timestamp(rfc3339: "2026-03-02 08:15"))
        // Just after midnight UTC it is still the previous day in New York.
        XCTAssertEqual(Timestamp.day(of: Date(timeIntervalSince1970: 1_772_409_600 + 60), in: zone),
                       CivilDate(year: 2026, month: 3, day: 1))
    }
}
