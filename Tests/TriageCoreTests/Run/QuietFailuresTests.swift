import TriageCore
import XCTest

final class QuietFailuresTests: XCTestCase {
    private func at(_ minutes: Int64) -> Timestamp { Timestamp(secondsSince1970: 1_800_000_000 + minutes * 60, utcOffsetSeconds: 0) }

    func testATemporaryFailureIsSaidOnlyOnceItLastedAndWhenItEnds() {
        let quiet = QuietFailures(threshold: 3600)
        var source = RunRecord.Source()
        XCTAssertNil(quiet.settle(&source, label: "account home", failure: (.tempFail, "cannot connect"), now: at(0)))
        XCTAssertNil(quiet.settle(&source, label: "account home", failure: (.tempFail, "timed out"), now: at(30)))
        XCTAssertEqual(source.failure?.since, at(0))
        XCTAssertEqual(source.failure?.runs, 2)
        XCTAssertEqual(source.failure?.message, "timed out")
        XCTAssertEqual(source.failure?.reported, false)
        let loud = quiet.settle(&source, label: "account home", failure: (.tempFail, "cannot connect"), now: at(65))
        XCTAssertEqual(loud, "account home: cannot connect (failing since \(at(0).rfc3339), 1h 5m)")
        XCTAssertEqual(source.failure?.reported, true)
        let recovered = quiet.settle(&source, label: "account home", failure: nil, now: at(130))
        XCTAssertEqual(recovered, "account home: recovered after 2h 10m (3 failed runs; last error: cannot connect)")
        XCTAssertNil(source.failure)
        XCTAssertEqual(source.lastSuccess, at(130))
        XCTAssertNil(quiet.settle(&source, label: "account home", failure: nil, now: at(140)))
    }

    func testAShortFailureIsSaidOnceWhenItEnds() {
        let quiet = QuietFailures(threshold: 3600)
        var source = RunRecord.Source()
        XCTAssertNil(quiet.settle(&source, label: "digest", failure: (.tempFail, "digest not sent"), now: at(0)))
        XCTAssertEqual(quiet.settle(&source, label: "digest", failure: nil, now: at(5)),
                       "digest: recovered after 5m (1 failed run; last error: digest not sent)")
    }

    func testCredentialAndConfigurationProblemsAreSaidAtOnce() {
        let quiet = QuietFailures(threshold: 3600)
        var source = RunRecord.Source()
        XCTAssertEqual(quiet.settle(&source, label: "account home", failure: (.noPermission, "login refused"), now: at(0)),
                       "account home: login refused")
        XCTAssertEqual(quiet.settle(&source, label: "account home", failure: (.config, "no such mailbox"), now: at(1)),
                       "account home: no such mailbox")
    }

    func testOffSaysEveryFailureAndNoRecovery() {
        let quiet = QuietFailures(threshold: nil)
        var source = RunRecord.Source()
        XCTAssertEqual(quiet.settle(&source, label: "account home", failure: (.tempFail, "down"), now: at(0)), "account home: down")
        XCTAssertEqual(source.failure?.since, at(0))
        XCTAssertNil(quiet.settle(&source, label: "account home", failure: nil, now: at(10)))
        XCTAssertNil(source.failure)
    }

    func testParsesDurations() {
        XCTAssertEqual(QuietFailures.parse("1h"), .some(3600))
        XCTAssertEqual(QuietFailures.parse("30m"), .some(1800))
        XCTAssertEqual(QuietFailures.parse("90s"), .some(90))
        XCTAssertEqual(QuietFailures.parse("2d"), .some(172_800))
        XCTAssertEqual(QuietFailures.parse("off"), .some(nil))
        XCTAssertNil(QuietFailures.parse("1 fortnight"))
        XCTAssertNil(QuietFailures.parse("60"))
        XCTAssertNil(QuietFailures.parse("31d"))
        XCTAssertEqual(QuietFailures.duration(59), "59s")
        XCTAssertEqual(QuietFailures.duration(7200), "2h")
        XCTAssertEqual(QuietFailures.duration(90_000), "1d 1h")
    }
}
