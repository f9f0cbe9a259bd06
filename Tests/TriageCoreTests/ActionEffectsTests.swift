import TriageCore
import XCTest

/// The per-concern routing of actions (`Action.storeEffect`, `.serverEffect`,
/// `MessageParts.needed(by:)`) agrees with itself.
final class ActionEffectsTests: XCTestCase {
    private let every: [Action] = [
        .label("x"), .unlabel("x"), .move("Archive"), .archive, .markRead, .markUnread, .flag,
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
        XCTAssertEqual(Action.archive.serverEffect, .archive)
    }

    /// `archive` becomes the account's way out of the inbox: a move to its folder
    /// (the same moves a `move` makes, so the same journal), Gmail's `\Inbox` label
    /// removed (sent though X-GM-LABELS never lists the open mailbox's own label), or,
    /// with no archive folder, nothing sent and the message named.
    private func plan(_ actions: [Action], mailbox: String = "INBOX", archive: ArchiveTarget?, uid: UInt32 = 7) -> ServerPlan {
        var plan = ServerPlan()
        plan.add(actions.map { PlannedAction(action: $0, rule: "r") }, uid: uid, facts: ServerFacts(), mailbox: mailbox, archive: archive)
        return plan
    }

    func testArchiveMovesToTheAccountsArchiveFolder() {
        var server = plan([.archive], archive: .folder("Archive"))
        server.add([PlannedAction(action: .move("Archive"), rule: "m")], uid: 8, facts: ServerFacts(), mailbox: "INBOX")
        XCTAssertEqual(server.moves.map(\.folder), ["Archive"])
        XCTAssertEqual(server.moves.map(\.uids), [[7, 8]], "one MOVE for archive and move to the same folder")
        XCTAssertTrue(server.changes.isEmpty)
        XCTAssertTrue(server.unarchived.isEmpty)
        // Already in the archive folder: nothing to do.
        XCTAssertTrue(plan([.archive], mailbox: "Archive", archive: .folder("Archive")).isEmpty)
    }

    func testArchiveOnGmailRemovesTheInboxLabel() {
        let server = plan([.archive, .label("no push")], archive: .removeInboxLabel)
        XCTAssertEqual(Set(server.changes.map(\.change)),
                       [FlagChange(.remove, labels: ["\\Inbox"]), FlagChange(.add, labels: ["no push"])])
        XCTAssertTrue(server.moves.isEmpty)
    }

    func testArchiveWithoutAnArchiveFolderSendsNothingAndNamesTheMessage() {
        let server = plan([.archive, .flag], archive: nil)
        XCTAssertEqual(server.unarchived, [7])
        XCTAssertTrue(server.moves.isEmpty)
        XCTAssertEqual(server.changes.map(\.change), [FlagChange(.add, flags: ["\\Flagged"])], "the other actions still happen")
    }
}
