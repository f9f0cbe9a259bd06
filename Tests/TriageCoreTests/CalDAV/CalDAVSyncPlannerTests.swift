import XCTest
@testable import TriageCore

/// The sync planner, case by case: each side's change alone, both, deletions,
/// removals, completion winning, conflicts, and what is left alone.
final class CalDAVSyncPlannerTests: XCTestCase {
    let base = CalDAVFields(title: "Call Bob", note: "", due: "2026-03-04", done: false)

    func local(_ f: CalDAVFields? = nil, removed: Bool = false, changed: Int64 = 1000) -> CalDAVLocalItem {
        CalDAVLocalItem(recordID: "r1", uid: "r1@triage", fields: f ?? base, removed: removed, changed: changed)
    }

    func state(_ f: CalDAVFields? = nil, etag: String? = "\"e1\"") -> CalDAVListState {
        CalDAVListState(collection: "https://h/cal/", items: [
            "r1@triage": CalDAVItemState(href: "/cal/r1.ics", etag: etag, synced: (f ?? base).hashes),
        ])
    }

    func server(_ f: CalDAVFields, etag: String = "\"e2\"", modified: Int64? = 2000) -> CalDAVSyncPlanner.ServerView {
        .init(items: ["r1@triage": CalDAVServerItem(uid: "r1@triage", href: "/cal/r1.ics", etag: etag, fields: f, lastModified: modified)],
              complete: true)
    }

    func with(_ change: (inout CalDAVFields) -> Void) -> CalDAVFields {
        var f = base
        change(&f)
        return f
    }

    let empty = CalDAVListState(collection: "https://h/cal/")

    // MARK: - New and unchanged

    func testAnOpenRecordNeverSyncedIsCreated() {
        let plan = CalDAVSyncPlanner.plan(locals: [local()], state: empty, server: .init(items: [:], complete: true))
        XCTAssertEqual(plan.steps, [.create(uid: "r1@triage", recordID: "r1", fields: base)])
    }

    func testADoneRecordNeverSyncedStaysHere() {
        let plan = CalDAVSyncPlanner.plan(locals: [local(with { $0.done = true })], state: empty, server: .init(items: [:], complete: true))
        XCTAssertEqual(plan.steps, [])
    }

    func testARemovedRecordNeverSyncedIsNothing() {
        let plan = CalDAVSyncPlanner.plan(locals: [local(removed: true)], state: empty, server: .init(items: [:], complete: true))
        XCTAssertEqual(plan.steps, [])
    }

    func testNothingChangedOnEitherSideIsNoStep() {
        // Same ETag as remembered: unchanged, even in a full listing.
        let plan = CalDAVSyncPlanner.plan(locals: [local()], state: state(), server: server(base, etag: "\"e1\""))
        XCTAssertEqual(plan.steps, [])
        // Not listed in an incremental listing: unchanged too.
        let quiet = CalDAVSyncPlanner.plan(locals: [local()], state: state(), server: .init(items: [:], complete: false))
        XCTAssertEqual(quiet.steps, [])
    }

    func testANewETagWithTheSameFieldsIsOnlyRemembered() {
        let plan = CalDAVSyncPlanner.plan(locals: [local()], state: state(), server: server(base))
        XCTAssertEqual(plan.steps, [.remember(uid: "r1@triage", href: "/cal/r1.ics", etag: "\"e2\"", fields: base)])
    }

    // MARK: - Changes in the store

    func testDoneHereCompletesOnTheServer() {
        let done = with { $0.done = true }
        let plan = CalDAVSyncPlanner.plan(locals: [local(done)], state: state(), server: .init(items: [:], complete: false))
        XCTAssertEqual(plan.steps, [.update(uid: "r1@triage", recordID: "r1", href: "/cal/r1.ics", etag: "\"e1\"", fields: done)])
    }

    func testReopenedHereReopensOnTheServer() {
        let done = with { $0.done = true }
        let plan = CalDAVSyncPlanner.plan(locals: [local()], state: state(done), server: server(done, etag: "\"e1\""))
        XCTAssertEqual(plan.steps, [.update(uid: "r1@triage", recordID: "r1", href: "/cal/r1.ics", etag: "\"e1\"", fields: base)])
    }

    func testRemovedHereIsDeletedOnTheServer() {
        let plan = CalDAVSyncPlanner.plan(locals: [local(removed: true)], state: state(), server: .init(items: [:], complete: false))
        XCTAssertEqual(plan.steps, [.delete(uid: "r1@triage", href: "/cal/r1.ics", etag: "\"e1\"")])
    }

    func testRemovedHereAndEditedThereIsStillDeleted() {
        let edited = with { $0.title = "Call Robert" }
        let plan = CalDAVSyncPlanner.plan(locals: [local(removed: true)], state: state(), server: server(edited))
        XCTAssertEqual(plan.steps, [.delete(uid: "r1@triage", href: "/cal/r1.ics", etag: "\"e2\"")])
    }

    func testRemovedHereAndDeletedThereIsForgotten() {
        let plan = CalDAVSyncPlanner.plan(locals: [local(removed: true)], state: state(), server: .init(items: [:], complete: true))
        XCTAssertEqual(plan.steps, [.forget(uid: "r1@triage")])
    }

    // MARK: - Changes on the server

    func testCompletedThereIsDoneHere() {
        let done = with { $0.done = true }
        let plan = CalDAVSyncPlanner.plan(locals: [local()], state: state(), server: server(done))
        XCTAssertEqual(plan.steps, [
            .changeRecord(recordID: "r1", change: CalDAVRecordChange(done: true)),
            .remember(uid: "r1@triage", href: "/cal/r1.ics", etag: "\"e2\"", fields: done),
        ])
        XCTAssertEqual(plan.conflicts, [])
    }

    func testReopenedThereIsOpenHere() {
        let done = with { $0.done = true }
        let plan = CalDAVSyncPlanner.plan(locals: [local(done)], state: state(done), server: server(base))
        XCTAssertEqual(plan.steps.first, .changeRecord(recordID: "r1", change: CalDAVRecordChange(done: false)))
    }

    func testDeletedThereIsDoneHereAndSaysSo() {
        let plan = CalDAVSyncPlanner.plan(locals: [local()], state: state(), server: .init(items: [:], complete: true))
        XCTAssertEqual(plan.steps, [.changeRecord(recordID: "r1", change: CalDAVRecordChange(done: true)), .forget(uid: "r1@triage")])
        XCTAssertEqual(plan.notes.count, 1)
        XCTAssertTrue(plan.notes[0].contains("deleted on the server; marked done here"), plan.notes[0])
    }

    func testDeletedThereAsReportedBySyncCollection() {
        let view = CalDAVSyncPlanner.ServerView(items: [:], gone: ["r1@triage"], complete: false)
        let plan = CalDAVSyncPlanner.plan(locals: [local()], state: state(), server: view)
        XCTAssertEqual(plan.steps, [.changeRecord(recordID: "r1", change: CalDAVRecordChange(done: true)), .forget(uid: "r1@triage")])
    }

    func testDeletedThereWhenDoneHereIsOnlyForgotten() {
        let done = with { $0.done = true }
        let plan = CalDAVSyncPlanner.plan(locals: [local(done)], state: state(done), server: .init(items: [:], complete: true))
        XCTAssertEqual(plan.steps, [.forget(uid: "r1@triage")])
        XCTAssertEqual(plan.notes, [])
    }

    func testTitleDueAndNoteEditedThereAreTakenOver() {
        let edited = with { $0.title = "Call Robert"; $0.due = "2026-03-09T10:00"; $0.note = "about the boat" }
        let plan = CalDAVSyncPlanner.plan(locals: [local()], state: state(), server: server(edited))
        XCTAssertEqual(plan.steps, [
            .changeRecord(recordID: "r1", change: CalDAVRecordChange(title: "Call Robert", note: "about the boat", due: "2026-03-09T10:00")),
            .remember(uid: "r1@triage", href: "/cal/r1.ics", etag: "\"e2\"", fields: edited),
        ])
    }

    func testAServerItemWithoutDueKeepsTheStoreDueAndGetsItBack() {
        let noDue = with { $0.due = nil }
        let plan = CalDAVSyncPlanner.plan(locals: [local()], state: state(), server: server(noDue))
        XCTAssertEqual(plan.steps, [.update(uid: "r1@triage", recordID: "r1", href: "/cal/r1.ics", etag: "\"e2\"", fields: base)])
    }

    // MARK: - Both sides

    func testCompletionWinsOverAnEditOnTheOtherSide() {
        // Done here, title edited on the phone: done everywhere, and the title taken over.
        let done = with { $0.done = true }
        let edited = with { $0.title = "Call Robert" }
        let plan = CalDAVSyncPlanner.plan(locals: [local(done)], state: state(), server: server(edited))
        var merged = edited
        merged.done = true
        XCTAssertEqual(plan.steps, [
            .changeRecord(recordID: "r1", change: CalDAVRecordChange(title: "Call Robert")),
            .update(uid: "r1@triage", recordID: "r1", href: "/cal/r1.ics", etag: "\"e2\"", fields: merged),
        ])
        // Changed on both sides: one conflict line, saying how it was settled.
        XCTAssertEqual(plan.conflicts, ["\"Call Bob\": changed on both sides; completion wins: done on both sides; title from the server"])
    }

    func testCompletionThereWinsOverRemovalHere() {
        let done = with { $0.done = true }
        let plan = CalDAVSyncPlanner.plan(locals: [local(removed: true)], state: state(), server: server(done))
        XCTAssertEqual(plan.steps, [
            .changeRecord(recordID: "r1", change: CalDAVRecordChange(done: true)),
            .remember(uid: "r1@triage", href: "/cal/r1.ics", etag: "\"e2\"", fields: done),
        ])
        XCTAssertEqual(plan.conflicts.count, 1)
    }

    func testCompletedOnBothSidesIsRememberedOnly() {
        let done = with { $0.done = true }
        let plan = CalDAVSyncPlanner.plan(locals: [local(done)], state: state(), server: server(done))
        XCTAssertEqual(plan.steps, [.remember(uid: "r1@triage", href: "/cal/r1.ics", etag: "\"e2\"", fields: done)])
        XCTAssertEqual(plan.conflicts, [])
    }

    func testBothChangedTheTitleTheNewerWinsAndItIsReportedOnce() {
        let mine = with { $0.title = "Call Bob now" }
        let theirs = with { $0.title = "Call Robert" }
        // The server's change is newer (2000 > 1000).
        let plan = CalDAVSyncPlanner.plan(locals: [local(mine, changed: 1000)], state: state(), server: server(theirs, modified: 2000))
        XCTAssertEqual(plan.steps, [
            .changeRecord(recordID: "r1", change: CalDAVRecordChange(title: "Call Robert")),
            .remember(uid: "r1@triage", href: "/cal/r1.ics", etag: "\"e2\"", fields: theirs),
        ])
        XCTAssertEqual(plan.conflicts.count, 1)
        XCTAssertTrue(plan.conflicts[0].contains("title changed on both sides"), plan.conflicts[0])
        // The store's change is newer.
        let older = CalDAVSyncPlanner.plan(locals: [local(mine, changed: 3000)], state: state(), server: server(theirs, modified: 2000))
        XCTAssertEqual(older.steps, [.update(uid: "r1@triage", recordID: "r1", href: "/cal/r1.ics", etag: "\"e2\"", fields: mine)])
        XCTAssertEqual(older.conflicts.count, 1)
    }

    func testDifferentFieldsChangedOnEachSideAreBothKept() {
        let mine = with { $0.due = "2026-03-05" }
        let theirs = with { $0.title = "Call Robert" }
        let plan = CalDAVSyncPlanner.plan(locals: [local(mine)], state: state(), server: server(theirs))
        let merged = CalDAVFields(title: "Call Robert", note: "", due: "2026-03-05", done: false)
        XCTAssertEqual(plan.steps, [
            .changeRecord(recordID: "r1", change: CalDAVRecordChange(title: "Call Robert")),
            .update(uid: "r1@triage", recordID: "r1", href: "/cal/r1.ics", etag: "\"e2\"", fields: merged),
        ])
        XCTAssertEqual(plan.conflicts, ["\"Call Bob\": changed on both sides; title from the server; due from here"])
    }

    func testAChangeOnOneSideOnlyIsNoConflict() {
        let plan = CalDAVSyncPlanner.plan(locals: [local()], state: state(), server: server(with { $0.title = "Call Robert"; $0.done = true }))
        XCTAssertEqual(plan.conflicts, [])
        let here = CalDAVSyncPlanner.plan(locals: [local(with { $0.done = true })], state: state(), server: server(base))
        XCTAssertEqual(here.conflicts, [])
    }

    // MARK: - After a crash, and what is not triage's

    func testAnItemPutBeforeACrashIsAdoptedNotDuplicated() {
        // No state (the sync died after PUT, before saving): the server's copy is adopted.
        let plan = CalDAVSyncPlanner.plan(locals: [local()], state: empty, server: server(base))
        XCTAssertEqual(plan.steps, [.remember(uid: "r1@triage", href: "/cal/r1.ics", etag: "\"e2\"", fields: base)])
    }

    func testWithoutStateACompletionOnEitherSideIsKept() {
        let done = with { $0.done = true }
        let there = CalDAVSyncPlanner.plan(locals: [local()], state: empty, server: server(done))
        XCTAssertEqual(there.steps.first, .changeRecord(recordID: "r1", change: CalDAVRecordChange(done: true)))
        let here = CalDAVSyncPlanner.plan(locals: [local(done)], state: empty, server: server(base))
        XCTAssertEqual(here.steps, [.update(uid: "r1@triage", recordID: "r1", href: "/cal/r1.ics", etag: "\"e2\"", fields: done)])
    }

    func testServerItemsWithoutARecordAreLeftAlone() {
        let foreign = CalDAVSyncPlanner.ServerView(items: [
            "phone-made": CalDAVServerItem(uid: "phone-made", href: "/cal/x.ics", etag: "\"x\"", fields: base),
        ], complete: true)
        let plan = CalDAVSyncPlanner.plan(locals: [], state: state(), server: foreign)
        XCTAssertEqual(plan.steps, [])
    }

    func entry(changed: Timestamp? = nil, statusChanged: Timestamp? = nil) -> QueueEntry {
        var e = QueueEntry(id: "r1", queue: "rec", created: Timestamp(secondsSince1970: 500, utcOffsetSeconds: 0),
                           due: CivilDate(year: 2026, month: 3, day: 4), statusChanged: statusChanged, rule: "r",
                           message: MessageSummary(subject: "Read this"))
        e.changed = changed
        return e
    }

    func testQueueEntryTitleAndNoteEditedThereAreTakenOver() {
        // A queue entry's task: "[rec] subject", no note; the phone renames it and adds a note.
        let e = entry()
        let fields = CalDAVFields(queueEntry: e)
        XCTAssertEqual(fields, CalDAVFields(title: "[rec] Read this", note: "", due: "2026-03-04", done: false))
        let remembered = CalDAVListState(collection: "c", items: [
            "r1@triage": CalDAVItemState(href: "/cal/r1.ics", etag: "\"e1\"", synced: fields.hashes),
        ])
        var phone = fields
        phone.title = "Renamed"
        phone.note = "page 4"
        let plan = CalDAVSyncPlanner.plan(locals: [local(fields, changed: e.lastChanged.secondsSince1970)], state: remembered,
                                          server: server(phone))
        XCTAssertEqual(plan.steps, [
            .changeRecord(recordID: "r1", change: CalDAVRecordChange(title: "Renamed", note: "page 4")),
            .remember(uid: "r1@triage", href: "/cal/r1.ics", etag: "\"e2\"", fields: phone),
        ])
        // Taken over, the entry's task shows them.
        var taken = e
        taken.title = "Renamed"
        taken.note = "page 4"
        XCTAssertEqual(CalDAVFields(queueEntry: taken), phone)
    }

    func testAQueueEntrysOwnChangeTimeIsWhatTheNewerWinsRuleCompares() {
        // The entry's title was taken over at 3000 (its change time), its status changed at 1500:
        // the change time counts, so a phone edit of the same field at 2000 is older.
        let e = entry(changed: Timestamp(secondsSince1970: 3000, utcOffsetSeconds: 0),
                      statusChanged: Timestamp(secondsSince1970: 1500, utcOffsetSeconds: 0))
        XCTAssertEqual(e.lastChanged.secondsSince1970, 3000)
        XCTAssertEqual(entry().lastChanged.secondsSince1970, 500)
        var mine = CalDAVFields(queueEntry: e)
        mine.title = "Mine"
        var theirs = CalDAVFields(queueEntry: e)
        theirs.title = "Theirs"
        let remembered = CalDAVListState(collection: "c", items: [
            "r1@triage": CalDAVItemState(href: "/cal/r1.ics", etag: "\"e1\"", synced: CalDAVFields(queueEntry: e).hashes),
        ])
        let plan = CalDAVSyncPlanner.plan(locals: [local(mine, changed: e.lastChanged.secondsSince1970)], state: remembered,
                                          server: server(theirs, modified: 2000))
        XCTAssertEqual(plan.steps, [.update(uid: "r1@triage", recordID: "r1", href: "/cal/r1.ics", etag: "\"e2\"", fields: mine)])
        XCTAssertEqual(plan.conflicts.count, 1)
    }
}
