@testable import TriageApp
import XCTest

/// `WatchPlan`: which mailboxes `triage watch` idles on, which it polls, and on how
/// many connections, for several `max_connections` (issue 26).
final class WatchPlanTests: XCTestCase {
    private let four = ["Lists", "INBOX", "Work", "Filed"]

    func testNotifyWatchesEveryMailboxOnOneConnection() {
        for budget in [1, 2, 5] {
            let plan = WatchPlan.make(mailboxes: four, maxConnections: budget, idle: true, notify: true)
            XCTAssertEqual(plan.channels, [.notify(["INBOX", "Lists", "Work", "Filed"])], "max_connections \(budget)")
        }
    }

    func testIdleOnAtMostOneLessThanTheBudgetInboxFirstAndTheRestPolledOnOne() {
        XCTAssertEqual(WatchPlan.make(mailboxes: four, maxConnections: 2, idle: true, notify: false).channels,
                       [.idle("INBOX"), .poll(["Lists", "Work", "Filed"])])
        XCTAssertEqual(WatchPlan.make(mailboxes: four, maxConnections: 3, idle: true, notify: false).channels,
                       [.idle("INBOX"), .idle("Lists"), .poll(["Work", "Filed"])])
        // As many mailboxes as connections: one still polls (a connection stays free).
        XCTAssertEqual(WatchPlan.make(mailboxes: four, maxConnections: 4, idle: true, notify: false).channels,
                       [.idle("INBOX"), .idle("Lists"), .idle("Work"), .poll(["Filed"])])
        // Fewer: each its own IDLE.
        XCTAssertEqual(WatchPlan.make(mailboxes: four, maxConnections: 5, idle: true, notify: false).channels,
                       [.idle("INBOX"), .idle("Lists"), .idle("Work"), .idle("Filed")])
    }

    func testABudgetOfOnePollsEverythingOnTheOneConnection() {
        XCTAssertEqual(WatchPlan.make(mailboxes: four, maxConnections: 1, idle: true, notify: false).channels,
                       [.poll(["INBOX", "Lists", "Work", "Filed"])])
        XCTAssertEqual(WatchPlan.make(mailboxes: ["INBOX"], maxConnections: 1, idle: true, notify: false).channels,
                       [.poll(["INBOX"])])
    }

    func testWithoutIdleOneConnectionPollsAll() {
        for budget in [1, 5] {
            XCTAssertEqual(WatchPlan.make(mailboxes: four, maxConnections: budget, idle: false, notify: false).channels,
                           [.poll(["INBOX", "Lists", "Work", "Filed"])])
        }
    }

    func testNeverMoreConnectionsThanTheBudgetAndEveryMailboxOnce() {
        for budget in 1...7 {
            for count in 1...8 {
                let names = (1..<count).map { "Box\($0)" } + ["inbox"]
                for (idle, notify) in [(true, true), (true, false), (false, false)] {
                    let plan = WatchPlan.make(mailboxes: names, maxConnections: budget, idle: idle, notify: notify)
                    XCTAssertLessThanOrEqual(plan.channels.count, budget, "\(count) mailboxes, budget \(budget)")
                    XCTAssertEqual(plan.channels.flatMap(\.mailboxes).sorted(), names.sorted())
                    XCTAssertEqual(plan.channels.first?.mailboxes.first, "inbox", "INBOX first")
                }
            }
        }
    }

    func testDuplicatesAreWatchedOnce() {
        XCTAssertEqual(WatchPlan.inboxFirst(["Lists", "inbox", "Lists", "INBOX"]), ["inbox", "Lists"])
    }
}
