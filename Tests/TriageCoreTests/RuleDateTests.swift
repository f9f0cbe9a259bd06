import Foundation
@testable import TriageCore
import XCTest

/// Days, instants and time zones: after:/before:, ages, due dates, {date}.
final class RuleDateTests: XCTestCase {
    let chicago = TimeZone(identifier: "America/Chicago")!
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func at(_ text: String) -> Int64 {
        let c = Array(text)  // YYYY-MM-DDTHH:MM:SS±HH:MM
        let day = CivilDate(iso: String(c[0..<10]))!
        let offset = (Int(String(c[20..<22]))! * 3600 + Int(String(c[23..<25]))! * 60) * (c[19] == "-" ? -1 : 1)
        return MessageDate(year: day.year, month: day.month, day: day.day, hour: Int(String(c[11..<13]))!,
                           minute: Int(String(c[14..<16]))!, second: Int(String(c[17..<19]))!, utcOffsetSeconds: offset).secondsSince1970
    }

    func testStartOfDayFollowsTheZoneAcrossDaylightSaving() {
        // Chicago: CST (-6) until 2026-03-08, CDT (-5) after.
        XCTAssertEqual(ZonedTime.startOfDay(CivilDate(year: 2026, month: 3, day: 1), in: chicago), at("2026-03-01T00:00:00-06:00"))
        XCTAssertEqual(ZonedTime.startOfDay(CivilDate(year: 2026, month: 3, day: 9), in: chicago), at("2026-03-09T00:00:00-05:00"))
        XCTAssertEqual(ZonedTime.startOfDay(CivilDate(year: 2026, month: 7, day: 1), in: berlin), at("2026-07-01T00:00:00+02:00"))
    }

    func testCivilDateOfAnInstantDependsOnTheZone() {
        let instant = at("2026-03-01T03:00:00+00:00")
        XCTAssertEqual(ZonedTime.civilDate(at: instant, in: chicago).iso, "2026-02-28")
        XCTAssertEqual(ZonedTime.civilDate(at: instant, in: berlin).iso, "2026-03-01")
        XCTAssertEqual(ZonedTime.civilDate(at: -1, in: TimeZone(identifier: "UTC")!).iso, "1969-12-31")
    }

    func compile(_ text: String, zone: TimeZone) throws -> CompiledRules {
        let (rules, diagnostics) = RuleLoader.load([RuleSource(path: "t.rules", text: text)], folder: ".",
                                                   environment: RuleEnvironment(identities: [], timeZone: zone))
        XCTAssertEqual(diagnostics, [])
        return try XCTUnwrap(rules)
    }

    func dated(_ text: String) -> Message {
        var m = Message()
        m.date = MessageDate(secondsSince1970: at(text), utcOffsetSeconds: 0)
        return m
    }

    func testAfterAndBeforeAreDaysInTheConfiguredZone() throws {
        let rules = "rule a when after:2026/03/01 then flag\nrule b when before:2026/03/01 then flag"
        let inChicago = try compile(rules, zone: chicago)
        let inBerlin = try compile(rules, zone: berlin)
        let m = dated("2026-03-01T03:00:00+00:00")  // Feb 28 in Chicago, Mar 1 in Berlin
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        XCTAssertEqual(RuleEvaluator.evaluate(m, rules: inChicago, now: now).matches.map(\.rule), ["b"])
        XCTAssertEqual(RuleEvaluator.evaluate(m, rules: inBerlin, now: now).matches.map(\.rule), ["a"])
    }

    func testAgesCountFromNow() throws {
        let rules = try compile("rule old when older_than:7d then flag\nrule new when newer_than:7d then flag", zone: chicago)
        let m = dated("2026-03-01T00:00:00+00:00")
        let soon = Date(timeIntervalSince1970: TimeInterval(at("2026-03-07T23:59:59+00:00")))
        let later = Date(timeIntervalSince1970: TimeInterval(at("2026-03-08T00:00:01+00:00")))
        XCTAssertEqual(RuleEvaluator.evaluate(m, rules: rules, now: soon).matches.map(\.rule), ["new"])
        XCTAssertEqual(RuleEvaluator.evaluate(m, rules: rules, now: later).matches.map(\.rule), ["old"])
    }

    func testDueDatesResolveAgainstTodayInTheZone() throws {
        let rules = try compile("rule r when is:unread then queue rec in 7 days, remind \"x\" in 1 day, remind \"y\" on 2027-01-31", zone: chicago)
        // 04:30 UTC on March 2 is still March 1 in Chicago; a week later crosses the DST change.
        let now = Date(timeIntervalSince1970: TimeInterval(at("2026-03-02T04:30:00+00:00")))
        let today = rules.today(at: now)
        XCTAssertEqual(today.iso, "2026-03-01")
        let e = RuleEvaluator.evaluate(Message(), rules: rules, now: now)
        let json = e.planned.map { ActionFormatter.json($0.action, today: today).serialized }
        XCTAssertEqual(json, [
            #"{"type":"queue","queue":"rec","due":"2026-03-08"}"#,
            #"{"type":"remind","title":"x","due":"2026-03-02"}"#,
            #"{"type":"remind","title":"y","due":"2027-01-31"}"#,
        ])
    }

    func testDatePlaceholderUsesTheZoneAndFallsBackToTheServerDate() throws {
        let rules = try compile("rule r when is:unread then label \"{date}\"", zone: berlin)
        var m = Message()
        m.server.internalDate = at("2026-03-01T23:30:00+00:00")
        XCTAssertEqual(RuleEvaluator.evaluate(m, rules: rules, now: Date()).planned.first?.action, .label("2026-03-02"))
        XCTAssertEqual(RuleEvaluator.evaluate(Message(), rules: rules, now: Date()).planned.first?.action, .label("(no date)"))
    }
}
