import Foundation
import TriageCore
import XCTest

/// `triage sync` against real CalDAV servers (Radicale here; `XandikosSyncTests`
/// runs the same cases through a TLS proxy in front of Xandikos), checked with an
/// independent client, python3-caldav, acting as the phone.
class CalDAVSyncTests: XCTestCase {
    /// The server under test.
    func server() throws -> CalDAVTestServer { try CalDAVTestServer.radicale() }

    let day = CivilDate(year: 2026, month: 12, day: 10)
    let office = Place(latitude: 52.52, longitude: 13.405, radiusMeters: 150, proximity: .arriving, title: "Office")
    func id(_ n: Int) -> String { CalDAVTestFolder.id(n) }
    func uid(_ n: Int) -> String { id(n) + "@triage" }

    func folder(_ purpose: String) throws -> CalDAVTestFolder {
        let f = try CalDAVTestFolder(purpose, server: try server())
        addTeardownBlock { f.remove() }
        return f
    }

    /// Store: a timed reminder, a located one with a note, a done one, a rec entry and an entry of another queue.
    func seed(_ f: CalDAVTestFolder) throws {
        try f.addReminder(id(1), "Call Bob", due: day, at: TimeOfDay(hour: 9, minute: 0))
        try f.addReminder(id(2), "Buy milk", due: day, place: office, note: "two litres")
        try f.addReminder(id(3), "Already done", due: day, status: .done)
        try f.addQueueEntry(id(4), queue: "rec", subject: "Your receipt", due: day)
        try f.addQueueEntry(id(5), queue: "reply", subject: "Not synced", due: day)
    }

    func sync(_ f: CalDAVTestFolder, _ extra: [String] = [], environment: [String: String] = [:]) throws -> TriageProcess.Result {
        let result = try f.triage(["sync", "--verbose"] + extra, environment: environment)
        return result
    }

    func puts(_ result: TriageProcess.Result) -> [String] {
        result.out.split(separator: "\n").map(String.init).filter { $0.contains(": PUT ") }
    }

    func testTheListsHoldExactlyTheOpenRecordsWithTheirFieldsAndAlarms() throws {
        let f = try folder("caldav-fields")
        try seed(f)
        let result = try sync(f)
        XCTAssertEqual(result.status, 0, result.err)

        let items = try f.server.items(f.reminders)
        XCTAssertEqual(items.map(\.uid), [uid(1), uid(2)], "the open reminders, not the done one")
        let timed = items[0]
        XCTAssertEqual(timed.summary, "Call Bob")
        XCTAssertEqual(timed.status, "NEEDS-ACTION")
        XCTAssertEqual(timed.due, "20261210T090000")
        // The alarm at the time: 09:00 in Berlin is 08:00 UTC.
        XCTAssertEqual(timed.alarms, [.init(action: "DISPLAY", trigger: "20261210T080000Z", proximity: nil, apple_proximity: nil)])
        let located = items[1]
        XCTAssertEqual(located.summary, "Buy milk")
        XCTAssertEqual(located.description, "two litres")
        XCTAssertEqual(located.due, "20261210")
        XCTAssertEqual(located.geo, [52.52, 13.405])
        XCTAssertEqual(located.location, "Office")
        XCTAssertEqual(located.alarms.first?.proximity, "ARRIVE")
        XCTAssertEqual(located.alarms.first?.apple_proximity, "ARRIVE")
        XCTAssertTrue(located.apple_location?.contains("X-APPLE-RADIUS=150") == true, located.apple_location ?? "none")
        XCTAssertTrue(located.apple_location?.contains("geo:52.52") == true, located.apple_location ?? "none")

        let queue = try f.server.items(f.rec)
        XCTAssertEqual(queue.map(\.uid), [uid(4)], "the rec queue's entry only")
        XCTAssertEqual(queue.first?.summary, "[rec] Your receipt")
        XCTAssertTrue(queue.first?.description.contains("From: Shop <orders@shop.example>") == true, queue.first?.description ?? "")
        XCTAssertTrue(queue.first?.description.contains("Message-ID: <00000000@mail.example>") == true, queue.first?.description ?? "")
        XCTAssertTrue(queue.first?.description.contains("Mailbox: test/INBOX") == true, queue.first?.description ?? "")
    }

    func testASecondSyncWithNothingChangedSendsNoPut() throws {
        let f = try folder("caldav-idle")
        try seed(f)
        let first = try sync(f)
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertEqual(puts(first).count, 3, first.out)
        for round in 2...3 {
            let again = try sync(f)
            XCTAssertEqual(again.status, 0, again.err)
            XCTAssertEqual(puts(again), [], "sync \(round): \(again.out)")
            XCTAssertTrue(again.out.contains("0 added, 0 updated, 0 deleted"), again.out)
        }
        XCTAssertEqual(try f.server.items(f.reminders).count, 2, "nothing doubled")
        XCTAssertFalse(try sync(f).out.contains("REPORT"), "a list whose sync-token did not move is not even listed")

        // Changes on the phone now come through the saved sync-token (RFC 6578).
        try f.server.phone(f.reminders, ["complete", uid(1)])
        try f.server.phone(f.reminders, ["delete", uid(2)])
        let changed = try sync(f)
        XCTAssertEqual(changed.status, 0, changed.err)
        XCTAssertTrue(changed.out.contains("REPORT sync-collection"), changed.out)
        XCTAssertFalse(changed.out.contains("REPORT calendar-query"), changed.out)
        XCTAssertEqual(f.reminder(id(1))?.status, .done)
        XCTAssertEqual(f.reminder(id(2))?.status, .done, "deleted on the phone, reported by sync-collection")
        XCTAssertEqual(puts(changed), [])
    }

    func testWhatThePhoneDoesComesBack() throws {
        let f = try folder("caldav-phone")
        try seed(f)
        try f.addReminder(id(6), "Water plants", due: day)
        XCTAssertEqual(try sync(f).status, 0)

        try f.server.phone(f.reminders, ["complete", uid(1)])
        try f.server.phone(f.reminders, ["delete", uid(6)])
        try f.server.phone(f.reminders, ["edit", uid(2), "summary=Buy oat milk", "due=20261212", "description=three litres"])
        try f.server.phone(f.rec, ["complete", uid(4)])
        let result = try sync(f)
        XCTAssertEqual(result.status, 0, result.err)

        XCTAssertEqual(f.reminder(id(1))?.status, .done, "checked off on the phone")
        XCTAssertEqual(f.reminder(id(6))?.status, .done, "deleted on the phone: done here, not deleted")
        XCTAssertTrue(result.out.contains("\"Water plants\": deleted on the server; marked done here (nothing is deleted here)"), result.out)
        let edited = f.reminder(id(2))
        XCTAssertEqual(edited?.title, "Buy oat milk")
        XCTAssertEqual(edited?.due, CivilDate(year: 2026, month: 12, day: 12))
        XCTAssertEqual(edited?.note, "three litres")
        XCTAssertEqual(edited?.place, office, "the place stays")
        XCTAssertEqual(f.entry(id(4))?.status, .done, "a queue entry checked off on the phone")
        XCTAssertEqual(puts(result), [], "taking over writes nothing back")

        // And the digest's source, the open list, no longer has them.
        let open = try f.triage(["remind", "list"])
        XCTAssertFalse(open.out.contains("Call Bob"), open.out)
        XCTAssertTrue(open.out.contains("Buy oat milk"), open.out)
        let idle = try sync(f)
        XCTAssertEqual(puts(idle), [], idle.out)
    }

    func testAQueueEntrysTitleAndNoteEditedOnThePhoneComeBack() throws {
        let f = try folder("caldav-queue-edit")
        try seed(f)
        XCTAssertEqual(try sync(f).status, 0)
        try f.server.phone(f.rec, ["edit", uid(4), "summary=File the receipt", "description=under taxes"])
        let result = try sync(f)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(f.entry(id(4))?.title, "File the receipt", result.out)
        XCTAssertEqual(f.entry(id(4))?.note, "under taxes")
        XCTAssertNotNil(f.entry(id(4))?.changed, "stored with the record's own change time")
        XCTAssertEqual(puts(result), [], "taking over writes nothing back")

        // Done here later: the phone's title and note stay on the server, the message details come back.
        XCTAssertEqual(try f.triage(["queue", "done", id(4)]).status, 0)
        XCTAssertEqual(try sync(f).status, 0)
        let item = try f.server.items(f.rec).first
        XCTAssertEqual(item?.summary, "File the receipt")
        XCTAssertEqual(item?.status, "COMPLETED")
        XCTAssertTrue(item?.description.hasPrefix("under taxes\n\n") == true, item?.description ?? "")
        XCTAssertTrue(item?.description.contains("Message-ID: <00000000@mail.example>") == true, item?.description ?? "")
        XCTAssertEqual(puts(try sync(f)), [], "and nothing more")
    }

    func testChangesOnBothSidesAreSettledFieldByFieldAndReportedOnce() throws {
        let f = try folder("caldav-conflict")
        try seed(f)
        XCTAssertEqual(try sync(f).status, 0)
        // Done here, renamed and moved on the phone.
        XCTAssertEqual(try f.triage(["remind", "done", id(1)]).status, 0)
        try f.server.phone(f.reminders, ["edit", uid(1), "summary=Call Robert", "due=20261211"])
        // Removed here, checked off on the phone.
        XCTAssertEqual(try f.triage(["remind", "remove", id(2)]).status, 0)
        try f.server.phone(f.reminders, ["complete", uid(2)])
        // A queue entry done here, its note edited on the phone.
        XCTAssertEqual(try f.triage(["queue", "done", id(4)]).status, 0)
        try f.server.phone(f.rec, ["edit", uid(4), "description=ask Anna"])

        let result = try sync(f)
        XCTAssertEqual(result.status, 0, result.err)
        let conflicts = result.out.split(separator: "\n").filter { $0.contains(": conflict: ") }
        XCTAssertEqual(conflicts.count, 3, result.out)
        XCTAssertEqual(conflicts.filter { $0.contains("\"Call Bob\": changed on both sides; completion wins: done on both sides; "
                                                     + "title from the server; due from the server") }.count, 1, result.out)
        XCTAssertEqual(conflicts.filter { $0.contains("\"Buy milk\": removed here but completed on the server; completion wins") }.count, 1, result.out)
        XCTAssertEqual(conflicts.filter { $0.contains("\"[rec] Your receipt\": changed on both sides; completion wins: done on both sides; "
                                                     + "note from the server") }.count, 1, result.out)
        XCTAssertTrue(result.out.contains("3 conflicts"), result.out)

        // Per field: completion from here, title and due from the phone.
        let called = f.reminder(id(1))
        XCTAssertEqual(called?.status, .done)
        XCTAssertEqual(called?.title, "Call Robert")
        XCTAssertEqual(called?.due, CivilDate(year: 2026, month: 12, day: 11))
        let items = try f.server.items(f.reminders)
        let there = items.first { $0.uid == uid(1) }
        XCTAssertEqual(there?.status, "COMPLETED")
        XCTAssertEqual(there?.summary, "Call Robert")
        XCTAssertEqual(there?.due, "20261211", "the phone's day, as a day")
        // Completion wins over removal: done here, kept (completed) there.
        XCTAssertEqual(f.reminder(id(2))?.status, .done)
        XCTAssertEqual(items.first { $0.uid == uid(2) }?.status, "COMPLETED")
        XCTAssertEqual(f.entry(id(4))?.status, .done)
        XCTAssertEqual(f.entry(id(4))?.note, "ask Anna")
        XCTAssertEqual(try f.server.items(f.rec).first?.status, "COMPLETED")

        let again = try sync(f)
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertFalse(again.out.contains("conflict: "), "each conflict is reported once: \(again.out)")
        XCTAssertTrue(again.out.contains("0 conflicts"), again.out)
        XCTAssertEqual(puts(again), [], again.out)
    }

    /// The requests the server received during `body` (counted on the server's side).
    func requests(_ f: CalDAVTestFolder, during body: () throws -> TriageProcess.Result) throws -> (TriageProcess.Result, [String]) {
        let before = f.server.requests().count
        let result = try body()
        Thread.sleep(forTimeInterval: 0.2)   // the log is written as the answers go out
        return (result, Array(f.server.requests().dropFirst(before)))
    }

    func testDiscoveryIsRememberedAndDoneAgainOnlyWhenTheHomeIsNotWhereItWas() throws {
        let f = try folder("caldav-discovery")
        try seed(f)
        let (first, discovering) = try requests(f) { try sync(f) }
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertTrue(discovering.contains("PROPFIND /.well-known/caldav"), "\(discovering)")
        XCTAssertEqual(try sync(f).status, 0)   // lists everything once after the writes

        // Nothing changed: one PROPFIND of the remembered home (the lists' sync-tokens), no discovery.
        let (idle, asked) = try requests(f) { try sync(f) }
        XCTAssertEqual(idle.status, 0, idle.err)
        XCTAssertEqual(asked.count, 1, "\(asked)\n\(idle.out)")
        XCTAssertTrue(asked.first?.hasPrefix("PROPFIND /me/") == true, "\(asked)")
        XCTAssertFalse(idle.out.contains("/.well-known/caldav"), idle.out)

        // A home that is gone from where it was (Radicale: 404; Xandikos: an empty listing): discovered again, nothing doubled.
        let statePath = f.dir + "/store/caldav/phone.json"
        let text = try String(contentsOfFile: statePath, encoding: .utf8)
        let state = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        let home = try XCTUnwrap(state["home"] as? String, "the calendar home is remembered")
        XCTAssertEqual(state["discovered_from"] as? String, f.server.url)
        try text.replacingOccurrences(of: "\"" + home + "\"", with: "\"" + home + "gone/\"")
            .write(toFile: statePath, atomically: true, encoding: .utf8)
        let (moved, again) = try requests(f) { try sync(f) }
        XCTAssertEqual(moved.status, 0, moved.err)
        XCTAssertTrue(moved.out.contains("the lists are not where they were; looking for them again"), moved.out)
        XCTAssertTrue(again.contains("PROPFIND /.well-known/caldav"), "\(again)")
        XCTAssertEqual(try f.server.items(f.reminders).map(\.uid), [uid(1), uid(2)], "the same lists, nothing doubled")
        XCTAssertEqual(puts(moved), [], moved.out)

        if f.server.script == "radicale.sh" { XCTAssertTrue(moved.out.contains("PROPFIND /me/gone/ -> 404"), moved.out) }

        // Remembered again.
        let (_, after) = try requests(f) { try sync(f) }
        XCTAssertEqual(after.count, 1, "\(after)")

        // A home that is now another user's (Radicale refuses it: 403): discovered again too, not a login error.
        let current = try String(contentsOfFile: statePath, encoding: .utf8)
        try current.replacingOccurrences(of: "\"" + home + "\"", with: "\"" + home.replacingOccurrences(of: "/me/", with: "/other/") + "\"")
            .write(toFile: statePath, atomically: true, encoding: .utf8)
        let refused = try sync(f)
        XCTAssertEqual(refused.status, 0, refused.err)
        XCTAssertTrue(refused.out.contains("the lists are not where they were; looking for them again"), refused.out)
        if f.server.script == "radicale.sh" { XCTAssertTrue(refused.out.contains("PROPFIND /other/ -> 403"), refused.out) }
        XCTAssertEqual(puts(refused), [], refused.out)
    }

    func testDoneReopenedAndRemovedHereReachThePhone() throws {
        let f = try folder("caldav-here")
        try seed(f)
        XCTAssertEqual(try sync(f).status, 0)

        let shortQueue = String(id(4).prefix(4))
        _ = shortQueue
        XCTAssertEqual(try f.triage(["queue", "done", id(4)]).status, 0)
        XCTAssertEqual(try f.triage(["remind", "done", id(1)]).status, 0)
        XCTAssertEqual(try f.triage(["remind", "remove", id(2)]).status, 0)
        let result = try sync(f)
        XCTAssertEqual(result.status, 0, result.err)
        let queue = try f.server.items(f.rec)
        XCTAssertEqual(queue.first?.status, "COMPLETED", "queue done completes it on the server")
        XCTAssertEqual(queue.first?.completed, true)
        let reminders = try f.server.items(f.reminders)
        XCTAssertEqual(reminders.map(\.uid), [uid(1)], "the removed one is deleted")
        XCTAssertEqual(reminders.first?.status, "COMPLETED")

        XCTAssertEqual(try f.triage(["remind", "reopen", id(1)]).status, 0)
        XCTAssertEqual(try sync(f).status, 0)
        XCTAssertEqual(try f.server.items(f.reminders).first?.status, "NEEDS-ACTION", "reopened here, reopened there")
        XCTAssertEqual(f.reminder(id(1))?.status, .open)
    }

    func testAnEditRacingTheSyncIsMergedAfter412() throws {
        let f = try folder("caldav-race")
        try seed(f)
        XCTAssertEqual(try sync(f).status, 0)
        // Done here; meanwhile the phone renames it. Make the state say the server is as
        // last seen (its current sync-token, no ctag), so triage writes with the old ETag,
        // as when the phone's edit lands between triage's listing and its PUT.
        XCTAssertEqual(try f.triage(["remind", "done", id(1)]).status, 0)
        try f.server.phone(f.reminders, ["edit", uid(1), "summary=Call Robert"])
        let token = try f.server.phone(f.reminders, ["token"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let statePath = f.dir + "/store/caldav/phone.json"
        var state = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: statePath))) as! [String: Any]
        var lists = state["lists"] as! [String: Any]
        var list = lists[f.reminders] as! [String: Any]
        list["sync_token"] = token
        list.removeValue(forKey: "ctag")
        lists[f.reminders] = list
        state["lists"] = lists
        try JSONSerialization.data(withJSONObject: state).write(to: URL(fileURLWithPath: statePath))

        let result = try sync(f)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("PUT /") && result.out.contains("-> 412"), result.out)
        XCTAssertTrue(result.out.contains("changed on the server meanwhile (412); reading it again"), result.out)
        let item = try f.server.items(f.reminders).first { $0.uid == uid(1) }
        XCTAssertEqual(item?.summary, "Call Robert", "the phone's edit is not overwritten")
        XCTAssertEqual(item?.status, "COMPLETED", "and the completion made here is there")
        XCTAssertEqual(f.reminder(id(1))?.title, "Call Robert")
        XCTAssertEqual(f.reminder(id(1))?.status, .done)
    }

    func testItemsTriageDidNotMakeAreLeftAlone() throws {
        let f = try folder("caldav-foreign")
        try seed(f)
        XCTAssertEqual(try sync(f).status, 0)
        try f.server.phone(f.reminders, ["add", "phone-made-1", "Made on the phone"])
        try f.server.phone(f.reminders, ["add", id(99) + "@triage", "Another triage's"])
        let result = try sync(f)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertFalse(result.out.contains("DELETE"), result.out)
        let items = try f.server.items(f.reminders)
        XCTAssertEqual(items.first { $0.uid == "phone-made-1" }?.status, "", "untouched")
        XCTAssertNotNil(items.first { $0.uid == id(99) + "@triage" })
        XCTAssertNil(f.reminder(id(99)), "not taken into the store")
        XCTAssertEqual(puts(result), [])
    }

    func testAMissingListIsReportedWhenItMayNotBeCreated() throws {
        let f = try folder("caldav-nolist")
        try f.writeConfig(extra: "create_lists = no")
        try seed(f)
        let result = try sync(f)
        XCTAssertEqual(result.status, 78, result.out + result.err)
        XCTAssertTrue(result.err.contains("no such list on the server; create it on the phone, or set create_lists = yes"), result.err)
    }

    func testAWrongPasswordIs77AndAnUntrustedServer75() throws {
        let f = try folder("caldav-refused")
        try seed(f)
        try f.writeConfig(password: "wrong")
        let refused = try sync(f)
        XCTAssertEqual(refused.status, 77, refused.err)
        XCTAssertFalse(refused.err.contains("wrong"), "the password is never shown")
        try f.writeConfig(caFile: "/etc/ssl/certs/ca-certificates.crt")
        let untrusted = try sync(f)
        XCTAssertEqual(untrusted.status, 75, untrusted.err)
        XCTAssertTrue(untrusted.err.contains("TLS failed"), untrusted.err)
        XCTAssertFalse(untrusted.out.contains("PUT"), "nothing was sent")
    }

    func testRunSyncsAtItsEndAndAServerDownIsOnly75() throws {
        let f = try folder("caldav-run")
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: f.dir + "/mail/" + sub, withIntermediateDirectories: true)
        }
        let account = "\n[account local]\nurl = maildir:mail\n"
        try f.writeConfig(extra: account)
        try seed(f)
        let run = try f.triage(["run"])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(try f.server.items(f.reminders).map(\.uid), [uid(1), uid(2)], "run synced at its end")

        // A server that is down: reported, 75, and the rest of the run stands.
        try f.writeConfig(url: "https://127.0.0.1:1/", extra: account)
        try f.addReminder(id(9), "After the outage", due: day)
        let down = try f.triage(["run"])
        XCTAssertEqual(down.status, 75, down.err)
        XCTAssertTrue(down.err.contains("triage: caldav phone: CalDAV https://127.0.0.1:1: cannot connect"), down.err)
        XCTAssertEqual(f.reminder(id(9))?.status, .open)
    }

    func testPlainHTTPToAnotherMachineIsRefusedBeforeAnyRequest() throws {
        let f = try folder("caldav-plain")
        try f.writeConfig(url: "http://192.0.2.1/")
        try seed(f)
        let result = try sync(f)
        XCTAssertEqual(result.status, 78, result.err)
        XCTAssertTrue(result.err.contains("url must be https:// (plain http:// only to this machine)"), result.err)
        XCTAssertEqual(result.out, "", "no request was made")
    }

    func testDryRunChangesNothing() throws {
        let f = try folder("caldav-dry")
        try seed(f)
        XCTAssertEqual(try sync(f).status, 0)
        try f.server.phone(f.reminders, ["complete", uid(1)])
        try f.addReminder(id(7), "New one", due: day)
        let dry = try sync(f, ["--dry-run"])
        XCTAssertEqual(dry.status, 0, dry.err)
        XCTAssertTrue(dry.out.contains("would add \"New one\""), dry.out)
        XCTAssertTrue(dry.out.contains("would take over from the server for \"Call Bob\": done"), dry.out)
        XCTAssertEqual(f.reminder(id(1))?.status, .open)
        XCTAssertEqual(try f.server.items(f.reminders).count, 2)
    }
}
