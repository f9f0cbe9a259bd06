import TriageCore
import XCTest

/// The reminder grammar as `triage remind add` uses it.
final class ReminderSyntaxTests: XCTestCase {
    func testEveryClause() throws {
        let (spec, diagnostics) = ReminderSyntax.parse(#""Call mum" in 2 days at 09:00 near 38.97,-95.23 radius 3 mi arriving note "x""#)
        XCTAssertEqual(diagnostics, [])
        let s = try XCTUnwrap(spec)
        XCTAssertEqual(s.title, "Call mum")
        XCTAssertEqual(s.due, .inDays(2))
        XCTAssertEqual(s.at, TimeOfDay(hour: 9, minute: 0))
        XCTAssertEqual(s.place, Place(latitude: 38.97, longitude: -95.23, radiusMeters: 3 * 1609.344, proximity: .arriving))
        XCTAssertEqual(s.note, "x")
    }

    func testOnADateAndOtherOrders() throws {
        let (spec, diagnostics) = ReminderSyntax.parse(#""Renew" note "passport" on 2026-12-01 near -33.86,151.21 radius 2 km leaving"#)
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(spec?.due, .on(CivilDate(year: 2026, month: 12, day: 1)))
        XCTAssertEqual(spec?.place?.radiusMeters, 2000)
        XCTAssertEqual(spec?.place?.proximity, .leaving)
        XCTAssertEqual(spec?.note, "passport")
    }

    func testPlaceholdersStayLiteralAndTheTitleIsQuotedAsInRules() {
        let (spec, diagnostics) = ReminderSyntax.parse(#""Water the {plants}" at 7:30"#)
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(spec?.title, "Water the {plants}")
        XCTAssertEqual(spec?.at?.description, "07:30")
        XCTAssertNil(spec?.due)
        // Bare words are the command line's business (it quotes them), not the grammar's.
        let (bare, refused) = ReminderSyntax.parse("Water the plants at 7:30")
        XCTAssertNil(bare)
        XCTAssertEqual(refused.map(\.message), ["remind needs a title in quotes, as in remind \"Call back\""])
    }

    func testErrorsArePositionedInTheGivenText() {
        let (spec, diagnostics) = ReminderSyntax.parse(#""x" near 91,0 radius 1 m"#, path: "<remind>")
        XCTAssertNil(spec)
        XCTAssertEqual(diagnostics.map { "\($0.path):\($0.line):\($0.column): \($0.message)" },
                       ["<remind>:1:10: latitude 91 is outside -90..90"])
        let (_, leftover) = ReminderSyntax.parse(#""x" in 2 days soon"#)
        XCTAssertEqual(leftover.map(\.message), ["unexpected 'soon' in the reminder; clauses are in, on, tomorrow, next, at, near and note"])
        let (_, twice) = ReminderSyntax.parse(#""x" in 2 days tomorrow"#)
        XCTAssertEqual(twice.map(\.message), ["give one due date: 'in N days', 'tomorrow', 'next WEEKDAY' or 'on YYYY-MM-DD', not two"])
        let (_, empty) = ReminderSyntax.parse("")
        XCTAssertEqual(empty.map(\.message), ["remind needs a title in quotes, as in remind \"Call back\""])
        let (_, badDate) = ReminderSyntax.parse(#""x" on 2026-02-30"#)
        XCTAssertEqual(badDate.map(\.column), [8])
    }
}
