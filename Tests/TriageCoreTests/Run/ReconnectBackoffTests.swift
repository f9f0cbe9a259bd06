import TriageCore
import XCTest

/// `triage watch`'s reconnect waits: doubling from the first, capped, reset by a success.
final class ReconnectBackoffTests: XCTestCase {
    func testDoublesUpToTheCapAndStartsOverAfterASuccess() {
        var backoff = ReconnectBackoff(first: 1, cap: 10)
        XCTAssertFalse(backoff.isFailing)
        XCTAssertEqual((0..<6).map { _ in backoff.failed() }, [1, 2, 4, 8, 10, 10])
        XCTAssertTrue(backoff.isFailing)
        backoff.succeeded()
        XCTAssertFalse(backoff.isFailing)
        XCTAssertEqual(backoff.failed(), 1)
    }

    func testManyFailuresStayAtTheCap() {
        var backoff = ReconnectBackoff()
        for _ in 0..<100 { _ = backoff.failed() }
        XCTAssertEqual(backoff.failed(), 300)
    }
}
