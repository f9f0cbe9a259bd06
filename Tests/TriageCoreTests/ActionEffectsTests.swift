import TriageCore
import XCTest

/// The per-concern routing of actions (`Action.storeEffect`, `.serverEffect`,
/// `MessageParts.needed(by:)`) agrees with itself.
final class ActionEffectsTests: XCTestCase {
    private let every: [Action] = [
        .label("x"), .unlabel("x"), .move("Archive"), .markRead, .markUnread, .flag,
        .queue(name: "rec", inDays: 3), .remind(ReminderSpec(title: "Pay")), .digest(section: "FYI"),
        .webhook(url: "https://hooks.example.test/x"), .stop,
    ]

    func testEveryActionButStopDoesSomethingAndOnlyOneKindOfThing() {
        for action in every {
            let effects = (action.storeEffect == nil ? 0 : 1) + (action.serverEffect == nil ? 0 : 1)
            XCTAssertEqual(effects, action == .stop ? 0 : 1, "\(action)")
        }
    }

    func testTheTextIsFetchedExactlyForActionsThatWriteARecord() {
        for action in every {
            XCTAssertEqual(MessageParts.needed(by: action).contains(.text), action.storeEffect != nil,
                           "the record keeps a snippet: \(action)")
        }
    }

    func testEffectsCarryWhatTheRuleSaid() {
        XCTAssertEqual(Action.queue(name: "rec", inDays: 3).storeEffect, .queueEntry(queue: "rec", inDays: 3))
        XCTAssertEqual(Action.digest(section: "FYI").storeEffect, .digestEntry(section: "FYI"))
        XCTAssertEqual(Action.webhook(url: "https://h.test/").storeEffect, .webhookDelivery(url: "https://h.test/"))
        XCTAssertEqual(Action.remind(ReminderSpec(title: "Pay")).storeEffect, .reminder(ReminderSpec(title: "Pay")))
        XCTAssertEqual(Action.label("no push").serverEffect, .change(FlagChange(.add, labels: ["no push"])))
        XCTAssertEqual(Action.unlabel("no push").serverEffect, .change(FlagChange(.remove, labels: ["no push"])))
        XCTAssertEqual(Action.markRead.serverEffect, .change(FlagChange(.add, flags: ["\\Seen"])))
        XCTAssertEqual(Action.markUnread.serverEffect, .change(FlagChange(.remove, flags: ["\\Seen"])))
        XCTAssertEqual(Action.flag.serverEffect, .change(FlagChange(.add, flags: ["\\Flagged"])))
        XCTAssertEqual(Action.move("Archive").serverEffect, .move(folder: "Archive"))
    }
}
