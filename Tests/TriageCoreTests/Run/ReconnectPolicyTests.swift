import Foundation
import TriageCore
import XCTest

/// `triage watch`'s reconnect policy, as sequences of events at given instants:
/// the pauses, and when an outage is said (once at its start, once at its end).
final class ReconnectPolicyTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)
    private func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }

    /// The review's proxy: every connection gets in, then is closed a moment later.
    /// The pause keeps doubling to the cap and it is said once, not once per login.
    func testConnectionsClosedRightAfterLoginAreOneOutage() {
        var policy = ReconnectPolicy()
        var time = 0.0
        var pauses: [Double] = []
        var said = 0
        for _ in 0..<12 {
            policy.connected(at: at(time))
            XCTAssertFalse(policy.recovered(at: at(time + 0.1)))
            let failure = policy.failed(at: at(time + 0.1), cause: .tempFail)
            XCTAssertFalse(failure.recoveredFirst)
            if failure.say { said += 1 }
            pauses.append(failure.pause)
            time += 0.1 + failure.pause
        }
        XCTAssertEqual(pauses, [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300])
        XCTAssertEqual(said, 1)
        XCTAssertTrue(policy.inOutage)
    }

    /// Logins over 40 s at that schedule: 6 (0, 1, 3, 7, 15, 31 s), where a reset
    /// at each login made about 40.
    func testLoginsIn40SecondsAreLogarithmic() {
        var policy = ReconnectPolicy()
        var time = 0.0, logins = 0
        while time < 40 {
            logins += 1
            policy.connected(at: at(time))
            time += policy.failed(at: at(time), cause: .tempFail).pause
        }
        XCTAssertEqual(logins, 6)
    }

    /// Only a connection that stayed up `settle` seconds ends the outage: said then,
    /// once; the next failure is a new outage, said, from the first pause again.
    func testAConnectionThatHeldEndsTheOutage() {
        var policy = ReconnectPolicy()
        XCTAssertEqual(policy.failed(at: at(0), cause: .tempFail), .init(pause: 1, say: true))
        XCTAssertEqual(policy.failed(at: at(1), cause: .tempFail), .init(pause: 2, say: false))
        policy.connected(at: at(3))
        XCTAssertEqual(policy.settlesAt, at(63))
        XCTAssertFalse(policy.recovered(at: at(62.9)))
        XCTAssertTrue(policy.recovered(at: at(63)))
        XCTAssertFalse(policy.recovered(at: at(64)), "said once")
        XCTAssertNil(policy.settlesAt)
        XCTAssertFalse(policy.inOutage)
        XCTAssertEqual(policy.failed(at: at(100), cause: .tempFail), .init(pause: 1, say: true))
    }

    /// 59 s up is not enough: the pause goes on growing and nothing is said.
    func testAConnectionUpJustUnderTheThresholdDoesNotReset() {
        var policy = ReconnectPolicy()
        _ = policy.failed(at: at(0), cause: .tempFail)
        policy.connected(at: at(1))
        XCTAssertEqual(policy.failed(at: at(60.9), cause: .tempFail), .init(pause: 2, say: false))
    }

    /// A failure after the connection held, before the loop asked `recovered`: the
    /// recovery is said first, then the new outage, which starts from the first pause.
    func testFailureAfterItHeldSaysTheRecoveryFirst() {
        var policy = ReconnectPolicy()
        _ = policy.failed(at: at(0), cause: .tempFail)
        _ = policy.failed(at: at(1), cause: .tempFail)
        policy.connected(at: at(3))
        XCTAssertEqual(policy.failed(at: at(70), cause: .tempFail), .init(pause: 1, say: true, recoveredFirst: true))
    }

    /// The first connection of `watch` holding an hour, then lost: an outage, said;
    /// no recovery to say before it (there was no outage).
    func testFirstLossAfterALongConnection() {
        var policy = ReconnectPolicy()
        policy.connected(at: at(0))
        XCTAssertNil(policy.settlesAt, "no outage to end")
        XCTAssertEqual(policy.failed(at: at(3600), cause: .tempFail), .init(pause: 1, say: true))
    }

    /// A changed cause is said once more (the server is back but refuses the
    /// password); the pause keeps growing.
    func testAChangedCauseIsSaidOnce() {
        var policy = ReconnectPolicy()
        let says = [ExitStatus.tempFail, .tempFail, .noPermission, .noPermission, .noPermission].enumerated().map {
            policy.failed(at: at(Double($0.offset) * 10), cause: $0.element)
        }
        XCTAssertEqual(says.map(\.say), [true, false, true, false, false])
        XCTAssertEqual(says.map(\.pause), [1, 2, 4, 8, 16])
    }

    /// Many failures stay at the cap (no overflow).
    func testManyFailuresStayAtTheCap() {
        var policy = ReconnectPolicy()
        for index in 0..<100 { _ = policy.failed(at: at(Double(index)), cause: .tempFail) }
        XCTAssertEqual(policy.failed(at: at(100), cause: .tempFail).pause, 300)
    }

    /// Tests run `watch` with every duration scaled down.
    func testScaled() {
        let policy = ReconnectPolicy.scaled(0.01)
        XCTAssertEqual(policy.first, 0.01, accuracy: 1e-9)
        XCTAssertEqual(policy.cap, 3, accuracy: 1e-9)
        XCTAssertEqual(policy.settle, 0.6, accuracy: 1e-9)
    }
}
