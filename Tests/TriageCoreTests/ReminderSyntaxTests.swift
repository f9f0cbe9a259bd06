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

    func testPhrasesPeopleWrite() {
        let monday = CivilDate(year: 2026, month: 3, day: 2)
        func due(_ text: String) -> CivilDate? { ReminderSyntax.parse(text).0?.due?.resolve(today: monday) }
        XCTAssertEqual(due(#""x" tomorrow"#), CivilDate(year: 2026, month: 3, day: 3))
        XCTAssertEqual(due(#""x" in 1 week"#), CivilDate(year: 2026, month: 3, day: 9))
        XCTAssertEqual(due(#""x" in 2 weeks"#), CivilDate(year: 2026, month: 3, day: 16))
        XCTAssertEqual(due(#""x" next monday"#), CivilDate(year: 2026, month: 3, day: 9), "on a Monday: a week later")
        XCTAssertEqual(due(#""x" next Sunday"#), CivilDate(year: 2026, month: 3, day: 8))
        XCTAssertEqual(due(#""x" next tuesday"#), CivilDate(year: 2026, month: 3, day: 3))
        for (text, time) in [("9am", "09:00"), ("6:30pm", "18:30"), ("12am", "00:00"), ("12pm", "12:00"), ("12:15AM", "00:15"),
                             ("11:59pm", "23:59"), ("09:00", "09:00")] {
            XCTAssertEqual(TimeOfDay(phrase: text)?.description, time, text)
        }
        for bad in ["13pm", "0am", "9:5pm", "9:60am", "pm", "9 am", "25:00", "9:00:00pm"] {
            XCTAssertNil(TimeOfDay(phrase: bad), bad)
        }
        for (text, metres) in [("radius 3 miles", 4828.032), ("radius 1 mile", 1609.344), ("radius 250 meters", 250.0),
                               ("radius 2 km", 2000.0), ("radius 2 kilometres", 2000.0), ("radius 10m", 10.0)] {
            XCTAssertEqual(ReminderSyntax.parse(#""x" near 1,2 "# + text).0?.place?.radiusMeters, metres, text)
        }
    }

    func testNamedPlaces() throws {
        let office = Place(latitude: 38.97, longitude: -95.23, radiusMeters: 200, title: "Office")
        let (spec, problems) = ReminderSyntax.parse(#""x" near "OFFICE" leaving"#, places: ["office": office])
        XCTAssertEqual(problems, [])
        XCTAssertEqual(spec?.place?.title, "Office", "the configured spelling")
        XCTAssertEqual(spec?.place?.latitude, 38.97)
        XCTAssertEqual(spec?.place?.proximity, .leaving)
        let inline = try XCTUnwrap(ReminderSyntax.parse(#""x" near "Lab" 38.96,-95.25 radius 200 m"#).0?.place)
        XCTAssertEqual(inline, Place(latitude: 38.96, longitude: -95.25, radiusMeters: 200, title: "Lab"))
        let (missing, unknown) = ReminderSyntax.parse(#""x" near "Office""#)
        XCTAssertNil(missing)
        XCTAssertTrue(unknown.first?.message.hasPrefix("unknown place \"Office\"; define it in the configuration as [place Office]") ?? false,
                      "\(unknown)")
        // How triage.conf writes them.
        XCTAssertEqual(ReminderSyntax.radius("200 m"), 200)
        XCTAssertEqual(ReminderSyntax.radius("3 miles"), 4828.032)
        XCTAssertNil(ReminderSyntax.radius("0 m"))
        XCTAssertNil(ReminderSyntax.radius("200"))
        XCTAssertEqual(ReminderSyntax.coordinates("38.97, -95.23")?.longitude, -95.23)
        XCTAssertNil(ReminderSyntax.coordinates("91,0"))
        XCTAssertNil(ReminderSyntax.coordinates("38.97"))
    }

    func testAFixedDayInThePastIsAWarningWhenTodayIsKnown() {
        let today = CivilDate(year: 2026, month: 3, day: 2)
        let (spec, diagnostics) = ReminderSyntax.parse(#""x" on 2026-03-01"#, today: today)
        XCTAssertNotNil(spec, "a warning, not an error")
        XCTAssertEqual(diagnostics.map(\.severity), [.warning])
        XCTAssertEqual(diagnostics.first?.column, 8)
        XCTAssertEqual(ReminderSyntax.parse(#""x" on 2026-03-02"#, today: today).1, [], "today is not past")
        XCTAssertEqual(ReminderSyntax.parse(#""x" on 2026-03-01"#).1, [], "without today, nothing to compare")
    }
}
