import Foundation
import TriageCore
import XCTest

/// `triage sync` killed (SIGKILL, `TRIAGE_TEST_KILL_AT=k`) at every step k — each
/// store file, each PUT, DELETE and MKCALENDAR, each save of the sync state — with
/// changes waiting on both sides; after each kill a rerun must converge: the lists
/// hold exactly the open and completed records, each once; no completion is lost;
/// and one more sync writes nothing.
final class CalDAVCrashSweepTests: XCTestCase {
    let day = CivilDate(year: 2026, month: 12, day: 10)
    func id(_ n: Int) -> String { CalDAVTestFolder.id(n) }
    func uid(_ n: Int) -> String { id(n) + "@triage" }

    /// A folder synced once, then changed on both sides: here id 1 done, id 2 removed,
    /// ids 6 and 7 new, queue `invitations` (entry 10) newly synced to a list not yet
    /// made; on the phone the rec entry 4 completed and reminder 8 deleted.
    private func prepare(_ k: Int) throws -> CalDAVTestFolder {
        let f = try CalDAVTestFolder("caldav-sweep-\(k)", server: try CalDAVTestServer.radicale())
        try f.addReminder(id(1), "Call Bob", due: day, at: TimeOfDay(hour: 9, minute: 0))
        try f.addReminder(id(2), "Buy milk", due: day)
        try f.addReminder(id(3), "Already done", due: day, status: .done)
        try f.addQueueEntry(id(4), queue: "rec", subject: "Your receipt", due: day)
        try f.addReminder(id(8), "Water plants", due: day)
        let first = try f.triage(["sync"])
        XCTAssertEqual(first.status, 0, first.err)

        XCTAssertEqual(try f.triage(["remind", "done", id(1)]).status, 0)
        XCTAssertEqual(try f.triage(["remind", "remove", id(2)]).status, 0)
        try f.addReminder(id(6), "New here", due: day)
        try f.addReminder(id(7), "Also new", due: day)
        try f.server.phone(f.rec, ["complete", uid(4)])
        try f.server.phone(f.reminders, ["delete", uid(8)])
        // And a queue newly synced, whose list the killed sync makes (MKCALENDAR).
        try f.writeConfig(extra: "queue.invitations = \(invites(f))")
        try f.addQueueEntry(id(10), queue: "invitations", subject: "Party", due: day)
        return f
    }

    private func invites(_ f: CalDAVTestFolder) -> String { "Invites " + f.reminders.dropFirst("Reminders ".count) }

    /// What every converged sync leaves.
    private func checkConverged(_ f: CalDAVTestFolder, _ what: String) throws {
        let items = try f.server.items(f.reminders)
        XCTAssertEqual(items.map(\.uid), [uid(1), uid(6), uid(7)], "\(what): exactly these, each once")
        XCTAssertEqual(Set(items.map(\.href)).count, items.count, "\(what): no duplicate resource")
        XCTAssertEqual(items.first { $0.uid == uid(1) }?.status, "COMPLETED", what)
        XCTAssertEqual(items.filter { $0.status == "NEEDS-ACTION" }.map(\.uid), [uid(6), uid(7)], what)
        let queue = try f.server.items(f.rec)
        XCTAssertEqual(queue.map(\.uid), [uid(4)], what)
        XCTAssertEqual(queue.first?.status, "COMPLETED", what)
        XCTAssertEqual(f.reminder(id(1))?.status, .done, what)
        XCTAssertEqual(f.reminder(id(2))?.status, .removed, what)
        XCTAssertEqual(try f.server.items(invites(f)).map(\.uid), [uid(10)], "\(what): the new list, made once, with its entry once")
        XCTAssertEqual(f.entry(id(4))?.status, .done, "\(what): the phone's completion")
        XCTAssertEqual(f.reminder(id(8))?.status, .done, "\(what): the phone's deletion")
        XCTAssertEqual(f.reminder(id(6))?.status, .open, what)
        let again = try f.triage(["sync", "--verbose"])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertFalse(again.out.contains(": PUT ") || again.out.contains(": DELETE "), "\(what): one more sync writes nothing\n\(again.out)")
    }

    func testKilledAtEveryStepConverges() throws {
        var steps: [String] = []
        var k = 1
        while k < 80 {
            let f = try prepare(k)
            defer { f.remove() }
            let killed = try f.triage(["sync"], environment: ["TRIAGE_TEST_KILL_AT": String(k)])
            if killed.status != -9 {
                XCTAssertEqual(killed.status, 0, killed.err)
                try checkConverged(f, "uninterrupted")
                break
            }
            let step = killed.err.firstRange(of: "(").map { String(killed.err[$0.upperBound...].prefix { $0 != ")" }) } ?? "?"
            steps.append(step)
            let rerun = try f.triage(["sync"])
            XCTAssertEqual(rerun.status, 0, "killed at step \(k) (\(step)); rerun: \(rerun.err)")
            try checkConverged(f, "killed at step \(k) (\(step))")
            k += 1
        }
        print("caldav crash sweep: \(steps.count) steps interrupted: \(steps.joined(separator: ", "))")
        for kind in ["caldav PUT", "caldav DELETE", "caldav MKCALENDAR", "caldav state"] {
            XCTAssertTrue(steps.contains(kind), "no kill at a \(kind) step: \(steps)")
        }
        XCTAssertTrue(steps.contains { $0.hasPrefix("store") }, "no kill at a store step: \(steps)")
    }
}
