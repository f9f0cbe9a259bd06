@testable import TriageApp
import TriageCore
import XCTest

/// The test hooks are one value read from the environment once (by `main`).
final class TestHooksTests: XCTestCase {
    func testTheHooksComeFromTheEnvironmentGiven() {
        let hooks = TestHooks(environment: [
            "TRIAGE_TEST_KILL_AT": "7", "TRIAGE_TEST_CRASH_SUBJECT": "boom", "TRIAGE_TEST_TIME_SCALE": "0.05",
            "TRIAGE_WHOLE_SNIPPET": "1", "TRIAGE_WHOLE_HEADER": "1", "TRIAGE_TRACE": "1",
        ])
        XCTAssertEqual(hooks.killAt, 7)
        XCTAssertEqual(hooks.crashSubject, "boom")
        XCTAssertEqual(hooks.timeScale, 0.05)
        XCTAssertTrue(hooks.wholeSnippet && hooks.wholeHeader && hooks.trace)
        XCTAssertEqual(hooks.reconnectPolicy, ReconnectPolicy.scaled(0.05))
    }

    func testWithoutThemOrMalformedNothingIsArmed() {
        for environment in [[:], ["TRIAGE_TEST_KILL_AT": "x", "TRIAGE_TEST_TIME_SCALE": "2", "TRIAGE_TEST_CRASH_SUBJECT": ""]] {
            let hooks = TestHooks(environment: environment)
            XCTAssertNil(hooks.killAt)
            XCTAssertNil(hooks.crashSubject)
            XCTAssertEqual(hooks.timeScale, 1)
            XCTAssertEqual(hooks.reconnectPolicy, ReconnectPolicy())
            XCTAssertFalse(hooks.crashHook(CapturedOutput()).isArmed)
        }
    }

    func testTheContextReplacesControlsBeforeTheSink() {
        let output = CapturedOutput()
        let context = Context(now: Date(), output: output, defaultConfigPath: "/c", defaultStore: "/s")
        context.out("a\u{1b}[2Jb\n")
        context.err("x\u{7}y\n")
        XCTAssertEqual(output.stdout, "a [2Jb\n")
        XCTAssertEqual(output.stderr, "x y\n")
    }
}
