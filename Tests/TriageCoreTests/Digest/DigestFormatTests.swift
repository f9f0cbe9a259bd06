import Foundation
import TriageCore
import XCTest

final class DigestFormatTests: XCTestCase {
    typealias F = DigestFixtures

    func testRadiusIsShownInTheUnitItWasLikelyWrittenIn() {
        XCTAssertEqual(DigestFormat.radius(3 * 1609.344), "3 mi")
        XCTAssertEqual(DigestFormat.radius(4828), "3 mi")          // rounded to whole metres
        XCTAssertEqual(DigestFormat.radius(0.25 * 1609.344), "0.25 mi")
        XCTAssertEqual(DigestFormat.radius(1.5 * 1609.344), "1.5 mi")
        XCTAssertEqual(DigestFormat.radius(200), "200 m")
        XCTAssertEqual(DigestFormat.radius(400), "400 m")           // not 0.25 mi (402 m)
        XCTAssertEqual(DigestFormat.radius(1000), "1 km")
        XCTAssertEqual(DigestFormat.radius(1500), "1.5 km")
        XCTAssertEqual(DigestFormat.radius(2345), "2.3 km")
    }

    func testPlaceDescription() {
        XCTAssertEqual(DigestFormat.place(Place(latitude: 38.9717, longitude: -95.2353, radiusMeters: 3 * 1609.344, proximity: .arriving)),
                       "within 3 mi, on arrival")
        XCTAssertEqual(DigestFormat.place(Place(latitude: 52.52, longitude: 13.405, radiusMeters: 200, proximity: .leaving, title: "Office")),
                       "near Office, within 200 m, on leaving")
    }

    func testSubjectCountsAndWording() {
        let day = F.day(2026, 11, 30)
        var plan = DigestPlan(day: day)
        XCTAssertEqual(DigestFormat.subject(plan), "triage · Mon 30 Nov: nothing new")
        plan.reminders = [.init(reminder: F.reminder(F.id("ba01"), "x", due: day), overdueDays: 0)]
        XCTAssertEqual(DigestFormat.subject(plan), "triage · Mon 30 Nov: 1 reminder")
        plan = DigestPlanner().plan(day: day, reminders: [
            F.reminder(F.id("ba01"), "a", due: day), F.reminder(F.id("ba02"), "b", due: day),
        ], queueEntries: (1...3).map { F.queueEntry(F.id("bb0\($0)"), due: day) },
        digestEntries: (1...14).map { F.digestEntry(F.id("bc", $0), section: "FYI", created: F.stamp(2026, 11, 29, 5)) })
        XCTAssertEqual(DigestFormat.subject(plan), "triage · Mon 30 Nov: 2 reminders, 3 to reconcile, 14 FYI")
    }

    func testMessageIDIsDerivedFromTheDayAndRecipient() {
        let b = DigestMessageBuilder(from: "triage@example.test", to: "Me <me@example.test>", timeZone: F.chicago)
        let id = b.messageID(day: F.day(2026, 11, 30))
        XCTAssertTrue(id.hasPrefix("digest-2026-11-30."), id)
        XCTAssertTrue(id.hasSuffix("@triage.invalid"), id)
        XCTAssertEqual(id, b.messageID(day: F.day(2026, 11, 30)))
        XCTAssertEqual(id, DigestMessageBuilder(from: "x@y.test", to: "ME@example.test", timeZone: F.berlin).messageID(day: F.day(2026, 11, 30)))
        XCTAssertNotEqual(id, b.messageID(day: F.day(2026, 12, 1)))
        XCTAssertNotEqual(id, DigestMessageBuilder(from: "x@y.test", to: "you@example.test", timeZone: F.chicago).messageID(day: F.day(2026, 11, 30)))
        XCTAssertNotEqual(id, b.messageID(day: F.day(2026, 11, 30), resend: F.instant(2026, 11, 30, 9)))
    }

    func testConfiguredAddressesAreParsed() {
        XCTAssertEqual(DigestMessageBuilder.addresses("me@example.test"), [Address(address: "me@example.test")])
        XCTAssertEqual(DigestMessageBuilder.addresses("\"Me Myself\" <me@example.test>, you@example.test"),
                       [Address(name: "Me Myself", address: "me@example.test"), Address(address: "you@example.test")])
    }

    func testOneLineFlattensControlsAndCuts() {
        XCTAssertEqual(DigestFormat.oneLine("a\r\nBcc: x\t\u{0}  b"), "a Bcc: x b")
        let long = DigestFormat.oneLine(String(repeating: "word ", count: 100), limit: 30)
        XCTAssertLessThanOrEqual(long.count, 30)
        XCTAssertTrue(long.hasSuffix("…"))
    }
}
