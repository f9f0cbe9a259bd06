import Foundation
import TriageCore
import TriageICS
import XCTest

/// Runs the built `triage` binary's store commands (queue, remind, export)
/// against a store seeded through the TriageCore API.
final class StoreCommandTests: XCTestCase {
    private var folder = ""
    private var config = ""
    private var store: Store!
    private let zone = TimeZone(identifier: "Europe/Berlin")!
    private let created = Date(timeIntervalSince1970: 1_772_439_300) // 2026-03-02 09:15 +01:00

    override func setUp() {
        folder = FileManager.default.temporaryDirectory.path + "/triage-store-cli-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        config = folder + "/triage.conf"
        try! "[triage]\nstore = data\ntimezone = Europe/Berlin\n".write(toFile: config, atomically: true, encoding: .utf8)
        store = Store(path: folder + "/data", timeZone: zone)
    }

    override func tearDown() {
        store = nil
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func triage(_ args: String...) throws -> TriageProcess.Result {
        try TriageProcess.run(args + ["--config", config], directory: folder)
    }

    private func entry(_ id: String, queue: String, subject: String, from: String, minutes: Int, dueIn: Int = 0) -> QueueEntry {
        let stamp = Timestamp(created.addingTimeInterval(Double(minutes * 60)), timeZone: zone)
        return QueueEntry(id: id, queue: queue, created: stamp, due: stamp.localDay.adding(days: dueIn), rule: "r",
                          message: MessageSummary(from: Address(name: from, address: "x@example.test"), subject: subject,
                                                  messageID: "\(id)@example.test", account: "personal", mailbox: "INBOX", uid: 1))
    }

    private static func id(_ prefix: String) -> String {
        prefix + String(repeating: "0", count: 32 - prefix.count)
    }

    private func seedQueues() throws {
        var batch = StoreBatch()
        batch.add(entry(Self.id("aaaa1"), queue: "rec", subject: "Second receipt", from: "Shop", minutes: 20, dueIn: 1))
        batch.add(entry(Self.id("aaaa2"), queue: "rec", subject: "First receipt", from: "Bank", minutes: 10))
        batch.add(entry(Self.id("bbbb"), queue: "reply", subject: "Dinner?", from: "Alice", minutes: 5, dueIn: 2))
        _ = try store.write(batch)
    }

    func testQueueListGroupsByQueueNewestFirstWithShortIDs() throws {
        try seedQueues()
        let run = try triage("queue")
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(run.err, "")
        XCTAssertEqual(run.out, """
            rec (2)
              aaaa1  2026-03-03  Shop  Second receipt
              aaaa2  2026-03-02  Bank  First receipt
            reply (1)
              bbbb  2026-03-04  Alice  Dinner?

            """)
        XCTAssertEqual(try triage("queue", "list", "reply").out, "reply (1)\n  bbbb  2026-03-04  Alice  Dinner?\n")
        XCTAssertEqual(try triage("queue", "nosuchqueue").out, "")
    }

    func testQueueJSONIsOneRecordPerLine() throws {
        try seedQueues()
        let run = try triage("queue", "--json")
        XCTAssertEqual(run.status, 0, run.err)
        let lines = run.out.split(separator: "\n")
        XCTAssertEqual(lines.count, 3)
        let objects = try lines.map { try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        XCTAssertEqual(objects.map { $0["id"] as? String }, [Self.id("aaaa1"), Self.id("aaaa2"), Self.id("bbbb")])
        XCTAssertEqual(objects[1]["queue"] as? String, "rec")
        XCTAssertEqual(objects[1]["due"] as? String, "2026-03-02")
        XCTAssertEqual(objects[1]["status"] as? String, "open")
        XCTAssertEqual((objects[1]["message"] as? [String: Any])?["subject"] as? String, "First receipt")
        XCTAssertTrue(lines[0].hasPrefix("{\"id\":"))
    }

    func testQueueDoneReopenRemoveAcceptShortIDs() throws {
        try seedQueues()
        XCTAssertEqual(try triage("queue", "done", "aaaa1", "BBBB").status, 0)
        XCTAssertEqual(try triage("queue").out, "rec (1)\n  aaaa2  2026-03-02  Bank  First receipt\n")
        let all = try triage("queue", "--all").out
        XCTAssertTrue(all.contains("aaaa1  2026-03-03  done  Shop"), all)
        XCTAssertEqual(try store.record(QueueEntry.self, id: Self.id("aaaa1"))?.status, .done)

        XCTAssertEqual(try triage("queue", "reopen", "aaaa1").status, 0)
        XCTAssertEqual(try store.record(QueueEntry.self, id: Self.id("aaaa1"))?.status, .open)

        XCTAssertEqual(try triage("queue", "remove", Self.id("aaaa2")).status, 0)
        XCTAssertFalse(try triage("queue", "--all").out.contains("First receipt"))
    }

    func testUnknownAndAmbiguousIDsAreDataErrorsThatChangeNothing() throws {
        try seedQueues()
        let unknown = try triage("queue", "done", "aaaa1", "cafe")
        XCTAssertEqual(unknown.status, 65)
        XCTAssertTrue(unknown.err.contains("'cafe'"), unknown.err)
        XCTAssertEqual(try store.record(QueueEntry.self, id: Self.id("aaaa1"))?.status, .open)

        let ambiguous = try triage("queue", "done", "aaaa")
        XCTAssertEqual(ambiguous.status, 65)
        XCTAssertTrue(ambiguous.err.contains("aaaa1  rec, due 2026-03-03: Second receipt"), ambiguous.err)
        XCTAssertTrue(ambiguous.err.contains("aaaa2  rec, due 2026-03-02: First receipt"), ambiguous.err)

        XCTAssertEqual(try triage("queue", "done").status, 64)
        XCTAssertEqual(try triage("remind", "done", "abc").status, 65)
    }

    func testHeldLockIsExit75NamingTheHolder() throws {
        try seedQueues()
        let holder = Store(path: store.root, timeZone: zone)
        try holder.lock()
        defer { holder.unlock() }
        let started = Date()
        let run = try triage("queue", "done", "bbbb")
        XCTAssertEqual(run.status, 75)
        XCTAssertTrue(run.err.contains("process \(getpid())"), run.err)
        // It waited a few seconds first, and said so.
        XCTAssertTrue(run.err.hasPrefix("triage: waiting for the store lock held by process \(getpid())"), run.err)
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 4)
        XCTAssertEqual(try triage("queue").status, 0) // reading needs no lock
    }

    func testALockReleasedWithinTheWaitLetsTheCommandThrough() throws {
        try seedQueues()
        nonisolated(unsafe) let holder = Store(path: store.root, timeZone: zone)
        try holder.lock()
        let released = expectation(description: "released")
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { holder.unlock(); released.fulfill() }
        let run = try triage("queue", "done", "bbbb")
        wait(for: [released], timeout: 10)
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.err.contains("waiting for the store lock held by process \(getpid())"), run.err)
        XCTAssertEqual(run.out, "done: bbbb Dinner?\n")
        XCTAssertEqual(try store.record(QueueEntry.self, id: Self.id("bbbb"))?.status, .done)
    }

    func testStatusVerbsSayWhatTheyChanged() throws {
        try seedQueues()
        var batch = StoreBatch()
        batch.add(entry(Self.id("cccc"), queue: "rec", subject: "Invoice\u{1b}[2J for your order #10078\r\nX: y", from: "Shop", minutes: 30))
        _ = try store.write(batch)
        let done = try triage("queue", "done", "cccc", "bbbb")
        XCTAssertEqual(done.status, 0, done.err)
        XCTAssertEqual(done.out, "done: cccc Invoice [2J for your order #10078  X: y\ndone: bbbb Dinner?\n")
        XCTAssertEqual(try triage("queue", "reopen", "bbbb").out, "reopen: bbbb Dinner?\n")
        XCTAssertEqual(try triage("queue", "remove", "aaaa2").out, "remove: aaaa2 First receipt\n")
    }

    func testAnIDOfTheOtherKindNamesTheCommandThatTakesIt() throws {
        try seedQueues()
        try seedReminders()
        let reminder = try triage("queue", "done", "d200")
        XCTAssertEqual(reminder.status, 65)
        XCTAssertEqual(reminder.err, "triage: d200 is a reminder: triage remind done d200\n")
        let entry = try triage("remind", "remove", "bbbb")
        XCTAssertEqual(entry.status, 65)
        XCTAssertEqual(entry.err, "triage: bbbb is a queue entry: triage queue remove bbbb\n")
        // Neither kind: the usual message.
        XCTAssertTrue(try triage("queue", "done", "cafe").err.contains("no queue entry has the id 'cafe'"))
        XCTAssertEqual(try store.record(Reminder.self, id: Self.id("d2"))?.status, .open)
    }

    func testAStoreOfANewerFormatIsRefusedWithExit65AndLeftAsItIs() throws {
        try seedQueues()
        try "2\n".write(toFile: store.root + "/format", atomically: false, encoding: .utf8)
        let before = try FileManager.default.subpathsOfDirectory(atPath: store.root).sorted()
        for args in [["queue"], ["queue", "done", "bbbb"], ["remind", "add", "Call Bob"]] {
            let run = try TriageProcess.run(args + ["--config", config], directory: folder)
            XCTAssertEqual(run.status, 65, "\(args): \(run.err)")
            XCTAssertEqual(run.out, "")
            XCTAssertTrue(run.err.contains(store.root + "/format") && run.err.contains("newer triage"), run.err)
        }
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: store.root).sorted(), before)
        XCTAssertEqual(store.queueEntries([.done]).records, [])
    }

    func testCorruptRecordIsReportedWithItsPathAndSkipped() throws {
        try seedQueues()
        let path = store.path(of: entry(Self.id("bbbb"), queue: "reply", subject: "", from: "", minutes: 0))
        try "{broken".write(toFile: path, atomically: false, encoding: .utf8)
        let run = try triage("queue")
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(run.err.contains(path), run.err)
        XCTAssertTrue(run.out.contains("First receipt"))
        XCTAssertFalse(run.out.contains("Dinner"))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "{broken")
    }

    private func seedReminders() throws {
        let stamp = Timestamp(created, timeZone: zone)
        let office = Place(latitude: 52.52, longitude: 13.405, radiusMeters: 150, proximity: .arriving, title: "Office")
        try store.put(Reminder(id: Self.id("c1"), title: "Water plants", due: CivilDate(year: 2026, month: 3, day: 5), created: stamp))
        try store.put(Reminder(id: Self.id("d2"), title: "Call Bob", due: CivilDate(year: 2026, month: 3, day: 3),
                               at: TimeOfDay(hour: 9, minute: 30), place: office, created: stamp))
    }

    func testRemindListDoneAndRemove() throws {
        try seedReminders()
        XCTAssertEqual(try triage("remind").out, """
            d200  2026-03-03 09:30  Call Bob  (near Office, 150 m, arriving)
            c100  2026-03-05        Water plants

            """)
        let json = try triage("remind", "list", "--json").out.split(separator: "\n")
        XCTAssertEqual(json.count, 2)
        XCTAssertTrue(json[0].contains("\"place\":{\"latitude\":52.52,\"longitude\":13.405,\"radius_m\":150,\"proximity\":\"arriving\",\"title\":\"Office\"}"), String(json[0]))
        XCTAssertEqual(try triage("remind", "done", "d200").status, 0)
        XCTAssertEqual(try triage("remind").out, "c100  2026-03-05  Water plants\n")
        XCTAssertTrue(try triage("remind", "--all").out.contains("d200  2026-03-03 09:30  done  Call Bob"))
        XCTAssertEqual(try triage("remind", "reopen", "d200").status, 0)
        XCTAssertEqual(try store.record(Reminder.self, id: Self.id("d2"))?.status, .open)
        XCTAssertEqual(try triage("remind").out, """
            d200  2026-03-03 09:30  Call Bob  (near Office, 150 m, arriving)
            c100  2026-03-05        Water plants

            """)
        XCTAssertEqual(try triage("remind", "remove", "c100").status, 0)
        XCTAssertEqual(try triage("remind", "--all").out.contains("Water plants"), false)
        XCTAssertEqual(try triage("remind", "reopen").status, 64)
        XCTAssertEqual(try triage("remind", "reopen", "--json", "d200").status, 64)
    }

    func testExportWritesOpenRemindersAsAPrivateICSFile() throws {
        try seedReminders()
        try store.put(Reminder(id: Self.id("e3"), title: "Already done", due: CivilDate(year: 2026, month: 3, day: 1),
                               status: .done, created: Timestamp(created, timeZone: zone)))
        let run = try triage("export", "ics", "--output", "reminders.ics")
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(run.out, "")
        let path = folder + "/reminders.ics"
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int), 0o600)
        let todos = try ICSReader.todos(in: try String(contentsOfFile: path, encoding: .utf8))
        XCTAssertEqual(todos.map(\.uid), [Self.id("d2") + "@triage", Self.id("c1") + "@triage"])
        XCTAssertEqual(todos[0].due, "20260303T093000")
        XCTAssertEqual(todos[0].dueTZID, "Europe/Berlin")
        XCTAssertEqual(todos[0].alarms.first?.appleProximity, "ARRIVE")

        let stdout = try triage("export", "ics")
        XCTAssertTrue(stdout.out.hasPrefix("BEGIN:VCALENDAR\r\n"))
        XCTAssertEqual(try triage("export", "csv").status, 64)
    }

    // MARK: - `remind add`: the rule language's ReminderSyntax parser, at a
    // pinned --now (23:30 in Chicago is already the next day in Berlin).

    private static let now = "2026-03-02T23:30:00-06:00"

    func testRemindAddUsesTheRuleGrammar() throws {
        let run = try triage("remind", "add", "--now", Self.now, "Call the \"dentist\"", "in", "2", "days", "at", "08:05",
                             "near", "-33.8688,151.2093", "radius", "2", "km", "leaving", "note", "Bring the card")
        XCTAssertEqual(run.status, 0, run.err)
        let reminders = store.openReminders().records
        XCTAssertEqual(reminders.count, 1)
        let r = try XCTUnwrap(reminders.first)
        XCTAssertEqual(r.title, "Call the \"dentist\"")
        XCTAssertEqual(r.note, "Bring the card")
        XCTAssertEqual(r.at, TimeOfDay(hour: 8, minute: 5))
        XCTAssertEqual(r.place?.latitude, -33.8688)
        XCTAssertEqual(r.place?.longitude, 151.2093)
        XCTAssertEqual(r.place?.radiusMeters, 2000)
        XCTAssertEqual(r.place?.proximity, .leaving)
        XCTAssertNil(r.rule)
        XCTAssertNil(r.message)
        XCTAssertTrue(RecordID.isValid(r.id))
        // Due two days after today in Europe/Berlin, where --now is already 2026-03-03.
        XCTAssertEqual(r.due, CivilDate(year: 2026, month: 3, day: 5))
        XCTAssertEqual(r.created.rfc3339, "2026-03-03T06:30:00+01:00")
        XCTAssertEqual(run.out, "added: \(r.id.prefix(4)) Call the \"dentist\" (due 2026-03-05 08:05)\n")
    }

    func testRemindAddOnADateAndWithoutDueIsToday() throws {
        XCTAssertEqual(try triage("remind", "add", "Renew passport", "on", "2027-01-15", "--now", Self.now).status, 0)
        // A local --now is read in the configured zone.
        XCTAssertEqual(try triage("remind", "add", "Today's thing", "--now", "2026-03-02T23:30").status, 0)
        let byTitle = Dictionary(uniqueKeysWithValues: store.openReminders().records.map { ($0.title, $0) })
        XCTAssertEqual(byTitle["Renew passport"]?.due, CivilDate(year: 2027, month: 1, day: 15))
        XCTAssertEqual(byTitle["Today's thing"]?.due, CivilDate(year: 2026, month: 3, day: 2))
    }

    func testRemindAddTakesABareTitleAndNoteOfSeveralWords() throws {
        let run = try triage("remind", "add", "Call", "the", "dentist", "in", "2", "days", "note", "bring", "the", "card",
                             "at", "09:30", "--now", Self.now)
        XCTAssertEqual(run.status, 0, run.err)
        let r = try XCTUnwrap(store.openReminders().records.first)
        XCTAssertEqual(r.title, "Call the dentist")
        XCTAssertEqual(r.note, "bring the card")
        XCTAssertEqual(r.due, CivilDate(year: 2026, month: 3, day: 5))
        XCTAssertEqual(r.at, TimeOfDay(hour: 9, minute: 30))
        // Words are literal: braces, colons and quotes in a bare title stay as typed;
        // a keyword as the first word is the title's.
        XCTAssertEqual(try triage("remind", "add", "Re:", "{plants}", "\"x\"", "--now", Self.now).status, 0)
        XCTAssertEqual(try triage("remind", "add", "at", "--now", Self.now).status, 0)
        XCTAssertEqual(Set(store.openReminders().records.map(\.title)), ["Call the dentist", "Re: {plants} \"x\"", "at"])
    }

    func testRemindAddReportsGrammarErrorsAsUsageErrors() throws {
        let run = try triage("remind", "add", "Thing", "in", "two", "days")
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.err.contains("<command line>:1:"), run.err)
        XCTAssertTrue(run.err.contains("\"Thing\" in two days"), run.err)
        XCTAssertEqual(store.openReminders().records, [])
    }

    /// Phrases and a named place from `[place Office]`: `remind list` and the
    /// iCalendar LOCATION say "Office"; `at 6:30pm` is a time alarm.
    func testRemindAddTakesPhrasesAndANamedPlace() throws {
        try "[triage]\nstore = data\ntimezone = Europe/Berlin\n\n[place Office]\nat = 38.97,-95.23\nradius = 200 m\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let run = try triage("remind", "add", "Clear", "the", "desk", "next", "friday", "at", "6:30pm", "near", "Office", "leaving",
                             "--now", "2026-03-02T09:00")
        XCTAssertEqual(run.status, 0, run.err)
        let r = try XCTUnwrap(store.openReminders().records.first)
        XCTAssertEqual(r.due, CivilDate(year: 2026, month: 3, day: 6))
        XCTAssertEqual(r.at, TimeOfDay(hour: 18, minute: 30))
        XCTAssertEqual(r.place, Place(latitude: 38.97, longitude: -95.23, radiusMeters: 200, proximity: .leaving, title: "Office"))
        XCTAssertEqual(try triage("remind").out, "\(r.id.prefix(4))  2026-03-06 18:30  Clear the desk  (near Office, 200 m, leaving)\n")
        let todo = try XCTUnwrap(try ICSReader.todos(in: try triage("export", "ics").out).first)
        XCTAssertEqual(todo.location, "Office")
        XCTAssertEqual(todo.alarms.map(\.trigger), ["19760401T005545Z", "20260306T173000Z"], "the place's alarm, then 18:30 Berlin")

        let unknown = try triage("remind", "add", "Lunch", "near", "Home", "--now", "2026-03-02T09:00")
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.err.contains("unknown place \"Home\""), unknown.err)
    }

    /// A due day already past is refused (64) unless --force.
    func testRemindAddRefusesAPastDayUnlessForced() throws {
        let past = try triage("remind", "add", "Pay rent", "on", "2026-03-01", "--now", Self.now)
        XCTAssertEqual(past.status, 64)
        XCTAssertTrue(past.err.contains("the due day 2026-03-01 is past (today is 2026-03-03)"), past.err)
        XCTAssertTrue(past.err.contains("--force"), past.err)
        XCTAssertEqual(store.openReminders().records, [])
        let forced = try triage("remind", "add", "Pay rent", "on", "2026-03-01", "--force", "--now", Self.now)
        XCTAssertEqual(forced.status, 0, forced.err)
        XCTAssertEqual(store.openReminders().records.first?.due, CivilDate(year: 2026, month: 3, day: 1))
        XCTAssertEqual(try triage("remind", "--force").status, 64, "--force goes with add")
        XCTAssertEqual(try triage("remind", "done", "ffff", "--force").status, 64, "--force goes with add, not with done")
    }
}
