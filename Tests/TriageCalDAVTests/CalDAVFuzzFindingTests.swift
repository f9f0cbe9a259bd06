import Foundation
import TriageCalDAV
import TriageCore
import XCTest

/// What fuzz/Sources/FuzzCalDAV found, kept as tests: every due text the codec reads
/// from a server's VTODO is one `parseDue` (and so the store) can take, or none.
final class CalDAVFuzzFindingTests: XCTestCase {
    private let codec = CalDAVTodoCodec(timeZone: TimeZone(identifier: "Europe/Berlin")!)
    private let record = Reminder(id: String(repeating: "a", count: 32), title: "Pay rent", due: CivilDate(year: 2026, month: 4, day: 1),
                                  created: Timestamp(secondsSince1970: 0, utcOffsetSeconds: 0))

    private func due(_ line: String) throws -> String? {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VTODO\r\nUID:x-1\r\n"
            + "DTSTAMP:20260101T000000Z\r\nSUMMARY:Pay rent\r\n\(line)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        return try XCTUnwrap(codec.fields(ofText: text, record: record, isQueueEntry: false)).fields.due
    }

    /// The finding: `DUE;VALUE=DATE:20675633` became the due text `2067-56-33`, which
    /// `parseDue` refuses (the fuzz target's invariant). An impossible date is now no due
    /// (the sync keeps triage's and writes it back); an impossible time keeps the day.
    func testAnImpossibleDueIsNotReadAsADueText() throws {
        XCTAssertNil(try due("DUE;VALUE=DATE:20675633"))
        XCTAssertNil(try due("DUE;VALUE=DATE:20260230"))
        XCTAssertNil(try due("DUE:20261332T093000"))
        XCTAssertEqual(try due("DUE:20260304T256100"), "2026-03-04")
        XCTAssertEqual(try due("DUE:20260304T093000"), "2026-03-04T09:30")
        XCTAssertEqual(try due("DUE;VALUE=DATE:20240229"), "2024-02-29")
        for line in ["DUE;VALUE=DATE:20675633", "DUE:20260304T256100", "DUE:99991231T235959Z", "DUE:00010101T000000Z",
                     "DUE;VALUE=DATE:20260230", "DUE:20260304T0930"] {
            if let text = try due(line) {
                XCTAssertNotNil(CalDAVTodoCodec.parseDue(text), "\(line) → \(text)")
            }
        }
    }
}
