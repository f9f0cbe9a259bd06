import Foundation
import TriageCore
import XCTest

final class StoreTests: XCTestCase {
    private var folder = ""
    private var store: Store!

    override func setUp() {
        folder = StoreFixtures.freshFolder()
        store = Store(path: folder + "/store", timeZone: StoreFixtures.zone)
    }

    override func tearDown() {
        store = nil
        try? FileManager.default.removeItem(atPath: folder)
    }

    func testSecondWriteOfTheSameRecordChangesNothing() throws {
        let entry = StoreFixtures.queueEntry(1)
        XCTAssertTrue(try store.put(entry))
        let path = store.path(of: entry)
        let before = try XCTUnwrap(StoreFixtures.bytes(path))
        let mtime = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date

        // Same id, different content (later run, different due day): still nothing changes.
        var again = entry
        again.due = entry.due.adding(days: 5)
        again.message.uid = 999
        XCTAssertFalse(try store.put(again))
        XCTAssertEqual(StoreFixtures.bytes(path), before)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date, mtime)
        XCTAssertEqual(store.openQueueEntries().records, [entry])
    }

    func testADoneRecordStaysDoneWhenWrittenAgain() throws {
        let spec = ReminderSpec(title: "Reply to {from}", due: .inDays(2))
        let message = StoreFixtures.message(7, uid: 10)
        var batch = StoreBatch()
        XCTAssertTrue(batch.add(.remind(spec), rule: "reply", message: message, created: Timestamp(StoreFixtures.now, timeZone: StoreFixtures.zone)))
        let first = try store.write(batch)
        XCTAssertEqual(first.created.count, 1)
        try store.setStatus(reminders: first.created, to: .done, now: StoreFixtures.now.addingTimeInterval(60))

        // The server renumbered the message; the same rule sees it again.
        var renumbered = message
        renumbered.server.uid = 4242
        var second = StoreBatch()
        second.add(.remind(spec), rule: "reply", message: renumbered, created: Timestamp(StoreFixtures.now.addingTimeInterval(3600), timeZone: StoreFixtures.zone))
        let result = try store.write(second)
        XCTAssertEqual(result.created, [])
        XCTAssertEqual(result.existing, first.created)
        XCTAssertEqual(store.openReminders().records, [])
        let stored = try XCTUnwrap(try store.record(Reminder.self, id: first.created[0]))
        XCTAssertEqual(stored.status, .done)
        XCTAssertEqual(stored.message?.uid, 10)
        XCTAssertEqual(stored.due, CivilDate(year: 2026, month: 3, day: 4))
    }

    func testBatchWritesNewRecordsOnceAndReportsExistingOnes() throws {
        var batch = StoreBatch()
        let created = Timestamp(StoreFixtures.now, timeZone: StoreFixtures.zone)
        for n in 0..<5 {
            batch.add(.queue(name: "rec", inDays: 3), rule: "receipts", message: StoreFixtures.message(n), created: created)
            batch.add(.digest(section: "news"), rule: "news", message: StoreFixtures.message(n), created: created)
        }
        XCTAssertFalse(batch.add(.markRead, rule: "x", message: StoreFixtures.message(0), created: created))
        // The same message twice in one batch makes one record.
        batch.add(.queue(name: "rec", inDays: 3), rule: "receipts", message: StoreFixtures.message(0), created: created)
        let result = try store.write(batch)
        XCTAssertEqual(result.created.count, 10)
        XCTAssertEqual(result.existing.count, 1)
        let queue = store.openQueueEntries().records
        XCTAssertEqual(queue.count, 5)
        XCTAssertTrue(queue.allSatisfy { $0.due == CivilDate(year: 2026, month: 3, day: 5) })
        XCTAssertEqual(store.unreportedDigestEntries().records.count, 5)

        let again = try store.write(batch)
        XCTAssertEqual(again.created, [])
        XCTAssertEqual(again.existing.count, 11)
    }

    func testFoldersAre0700AndFiles0600WhateverTheUmask() throws {
        let old = umask(0)
        defer { umask(old) }
        try store.put(StoreFixtures.queueEntry(1))
        try store.put(StoreFixtures.reminder("Call the plumber"))
        try store.put(StoreFixtures.digestEntry(2))
        try store.digestLedger.markSent(CivilDate(year: 2026, month: 3, day: 2), now: StoreFixtures.now)

        let root = store.root
        var folders = [root]
        var files: [String] = []
        let walker = FileManager.default.enumerator(atPath: root)!
        while let relative = walker.nextObject() as? String {
            var isDir: ObjCBool = false
            XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDir))
            if isDir.boolValue { folders.append(root + "/" + relative) } else { files.append(root + "/" + relative) }
        }
        XCTAssertGreaterThanOrEqual(folders.count, 8)
        XCTAssertEqual(files.count, 6) // three records, the sent marker, the lock file, the format marker
        for f in folders { XCTAssertEqual(StoreFixtures.mode(f), 0o700, f) }
        for f in files { XCTAssertEqual(StoreFixtures.mode(f), 0o600, f) }
    }

    func testCorruptRecordIsReportedSkippedAndLeftUntouched() throws {
        let good = StoreFixtures.queueEntry(1)
        let bad = StoreFixtures.queueEntry(2)
        try store.put(good)
        try store.put(bad)
        let badPath = store.path(of: bad)
        let corrupt = Data("{\"id\": \"\(bad.id)\", \"queue\": \"rec\", oops".utf8)
        try corrupt.write(to: URL(fileURLWithPath: badPath))

        let listing = store.openQueueEntries()
        XCTAssertEqual(listing.records, [good])
        XCTAssertEqual(listing.problems.count, 1)
        XCTAssertEqual(listing.problems.first?.path, badPath)
        XCTAssertTrue(listing.problems[0].description.contains(badPath))

        // Writing it again, or changing it, never overwrites or deletes the file.
        XCTAssertFalse(try store.put(bad))
        XCTAssertThrowsError(try store.setStatus(queueEntries: [bad.id], to: .done, now: StoreFixtures.now)) { error in
            XCTAssertEqual((error as? StoreError)?.exitStatus, .dataError)
            XCTAssertTrue((error as? StoreError)?.message.contains(badPath) ?? false)
        }
        XCTAssertEqual(StoreFixtures.bytes(badPath), corrupt)
        XCTAssertThrowsError(try store.record(QueueEntry.self, id: bad.id))
    }

    func testRecordWithMissingFieldOrWrongIDIsAProblem() throws {
        let a = StoreFixtures.queueEntry(1)
        let b = StoreFixtures.queueEntry(2)
        try store.put(a)
        try store.put(b)
        // Valid JSON, but not a record.
        try Data("{\"id\": \"\(a.id)\"}".utf8).write(to: URL(fileURLWithPath: store.path(of: a)))
        // A whole record copied under another name.
        var copy = b
        copy.id = String(repeating: "0", count: 32)
        try Data(b.json.prettySerialized.utf8).write(to: URL(fileURLWithPath: store.folder(QueueEntry.self, "open") + "/" + copy.id + ".json"))
        let listing = store.openQueueEntries()
        XCTAssertEqual(listing.records, [b])
        XCTAssertEqual(Set(listing.problems.map(\.path)), [store.path(of: a), store.path(of: copy)])
        XCTAssertTrue(listing.problems.contains { $0.reason.contains("missing field 'queue'") })
        XCTAssertTrue(listing.problems.contains { $0.reason.contains("does not match its file name") })
    }

    func testHeldLockIsATemporaryFailureNamingTheHolder() throws {
        let other = Store(path: store.root, timeZone: StoreFixtures.zone)
        try other.lock()
        XCTAssertThrowsError(try store.put(StoreFixtures.queueEntry(1))) { error in
            guard let error = error as? StoreError, case .locked(_, let pid) = error else {
                return XCTFail("expected a lock error, got \(error)")
            }
            XCTAssertEqual(pid, getpid())
            XCTAssertEqual(error.exitStatus, .tempFail)
            XCTAssertTrue(error.message.contains("process \(getpid())"))
            XCTAssertTrue(error.message.contains(self.store.root))
        }
        XCTAssertEqual(store.openQueueEntries().records, []) // readers need no lock
        other.unlock()
        XCTAssertTrue(try store.put(StoreFixtures.queueEntry(1)))
    }

    func testLockNestsWithinOneStore() throws {
        try store.withLock {
            try store.put(StoreFixtures.queueEntry(1))
            try store.put(StoreFixtures.queueEntry(2))
            let other = Store(path: store.root, timeZone: StoreFixtures.zone)
            XCTAssertThrowsError(try other.lock())
        }
        let other = Store(path: store.root, timeZone: StoreFixtures.zone)
        XCTAssertNoThrow(try other.lock())
        other.unlock()
    }

    func testStatusChangesMoveRecordsBetweenFolders() throws {
        let entry = StoreFixtures.queueEntry(1)
        try store.put(entry)
        let later = StoreFixtures.now.addingTimeInterval(120)
        let done = try store.setStatus(queueEntries: [entry.id], to: .done, now: later)
        XCTAssertEqual(done.first?.status, .done)
        XCTAssertEqual(done.first?.statusChanged, Timestamp(later, timeZone: StoreFixtures.zone))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.folder(QueueEntry.self, "open") + "/\(entry.id).json"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.folder(QueueEntry.self, "done") + "/\(entry.id).json"))
        XCTAssertEqual(store.openQueueEntries().records, [])
        XCTAssertEqual(store.records(QueueEntry.self).records.map(\.status), [.done])

        try store.setStatus(queueEntries: [entry.id], to: .open, now: later)
        XCTAssertEqual(store.openQueueEntries().records.map(\.id), [entry.id])

        try store.setStatus(queueEntries: [entry.id], to: .removed, now: later)
        XCTAssertEqual(store.records(QueueEntry.self, in: ["open", "done"]).records, [])
        // A removed record is a tombstone: the same message does not bring it back.
        XCTAssertFalse(try store.put(entry))
        XCTAssertEqual(store.openQueueEntries().records, [])
    }

    func testRepeatedIDsInOneUpdateAreChangedOnce() throws {
        let a = StoreFixtures.digestEntry(1)
        try store.put(a)
        let changed = try store.markReported([a.id, a.id], day: CivilDate(year: 2026, month: 3, day: 2))
        XCTAssertEqual(changed.map(\.id), [a.id])
        XCTAssertEqual(store.records(DigestEntry.self, in: ["reported"]).records.map(\.id), [a.id])
        XCTAssertThrowsError(try store.markReported(["../../etc"], day: CivilDate(year: 2026, month: 3, day: 2)))
    }

    func testARecordWithAMalformedIDIsRefused() throws {
        var entry = StoreFixtures.queueEntry(1)
        entry.id = "not-an-id"
        XCTAssertThrowsError(try store.put(entry)) { error in
            XCTAssertEqual((error as? StoreError)?.exitStatus, .dataError)
        }
        XCTAssertNil(try store.record(QueueEntry.self, id: "not-an-id"))
    }

    func testUpdatingAnUnknownIDChangesNothing() throws {
        let entry = StoreFixtures.queueEntry(1)
        try store.put(entry)
        let unknown = String(repeating: "e", count: 32)
        XCTAssertThrowsError(try store.setStatus(queueEntries: [entry.id, unknown], to: .done, now: StoreFixtures.now)) { error in
            XCTAssertTrue((error as? StoreError)?.message.contains(unknown) ?? false)
        }
        XCTAssertEqual(store.openQueueEntries().records, [entry])
    }

    func testACopyLeftInTwoFoldersByACrashResolvesToTheNewer() throws {
        let entry = StoreFixtures.queueEntry(1)
        try store.put(entry)
        var done = entry
        done.status = .done
        done.statusChanged = Timestamp(StoreFixtures.now, timeZone: StoreFixtures.zone)
        // Simulate a crash between writing the done copy and removing the open one.
        let doneFolder = store.folder(QueueEntry.self, "done")
        try FileManager.default.createDirectory(atPath: doneFolder, withIntermediateDirectories: true)
        let openPath = store.path(of: entry)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: openPath)
        try Data(done.json.prettySerialized.utf8).write(to: URL(fileURLWithPath: store.path(of: done)))

        XCTAssertEqual(store.openQueueEntries().records, [])
        XCTAssertEqual(store.records(QueueEntry.self).records, [done])
        XCTAssertEqual(try store.record(QueueEntry.self, id: entry.id), done)
        // The next change of that record removes the stale copy.
        try store.setStatus(queueEntries: [entry.id], to: .done, now: StoreFixtures.now)
        XCTAssertFalse(FileManager.default.fileExists(atPath: openPath))
        XCTAssertEqual(store.records(QueueEntry.self).records, [done])
    }

    func testTempFilesAreIgnoredByListingsAndClearedByTheNextWriter() throws {
        try store.put(StoreFixtures.queueEntry(1))
        let open = store.folder(QueueEntry.self, "open")
        let temp = open + "/.tmp-" + String(repeating: "a", count: 32) + ".12345"
        try Data("{\"half\": ".utf8).write(to: URL(fileURLWithPath: temp))
        let listing = store.openQueueEntries()
        XCTAssertEqual(listing.records.count, 1)
        XCTAssertEqual(listing.problems, [])
        try store.put(StoreFixtures.queueEntry(2))
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp))
        XCTAssertEqual(store.openQueueEntries().records.count, 2)
    }

    func testRecordFilesAreReadableJSONWithDocumentedKeys() throws {
        let place = Place(latitude: 52.52, longitude: 13.405, radiusMeters: 150, proximity: .leaving, title: "Office")
        let reminder = StoreFixtures.reminder("Buy milk", place: place)
        try store.put(reminder)
        let text = String(decoding: try XCTUnwrap(StoreFixtures.bytes(store.path(of: reminder))), as: UTF8.self)
        XCTAssertTrue(text.contains("\"radius_m\": 150"), text)
        XCTAssertTrue(text.contains("\"due\": \"2026-03-04\""), text)
        XCTAssertTrue(text.contains("\"at\": \"09:30\""), text)
        XCTAssertTrue(text.contains("\"created\": \"2026-03-02T09:15:00+01:00\""), text)
        XCTAssertTrue(text.hasSuffix("}\n"))
        XCTAssertTrue(text.hasPrefix("{\n  \"id\": \"\(reminder.id)\",\n  \"title\": \"Buy milk\",\n"), text)
        XCTAssertTrue(text.contains("\n  \"message\": null\n}"), text)
        XCTAssertEqual(store.openReminders().records, [reminder])

        let entry = StoreFixtures.queueEntry(3)
        try store.put(entry)
        let queueText = String(decoding: try XCTUnwrap(StoreFixtures.bytes(store.path(of: entry))), as: UTF8.self)
        XCTAssertTrue(queueText.contains("\"message_id\": \"msg3@example.test\""), queueText)
        XCTAssertTrue(entry.json.serialized.hasPrefix("{\"id\":\"\(entry.id)\",\"queue\":\"rec\""))
    }

    func testDigestEntriesAreMarkedReportedAndSentDaysRecorded() throws {
        let a = StoreFixtures.digestEntry(1)
        let b = StoreFixtures.digestEntry(2)
        try store.put(a)
        try store.put(b)
        let day = CivilDate(year: 2026, month: 3, day: 2)
        try store.markReported([a.id], day: day)
        XCTAssertEqual(store.unreportedDigestEntries().records.map(\.id), [b.id])
        XCTAssertEqual(try store.record(DigestEntry.self, id: a.id)?.reported, day)
        // Reporting again keeps the first day.
        try store.markReported([a.id, b.id], day: day.adding(days: 1))
        XCTAssertEqual(try store.record(DigestEntry.self, id: a.id)?.reported, day)
        XCTAssertEqual(try store.record(DigestEntry.self, id: b.id)?.reported, day.adding(days: 1))
        XCTAssertEqual(store.unreportedDigestEntries().records, [])
        XCTAssertFalse(try store.put(a))

        XCTAssertEqual(try store.digestLedger.sentDays(), [])
        XCTAssertFalse(store.digestLedger.isSent(day))
        XCTAssertTrue(try store.digestLedger.markSent(day, now: StoreFixtures.now))
        XCTAssertFalse(try store.digestLedger.markSent(day, now: StoreFixtures.now))
        XCTAssertTrue(try store.digestLedger.markSent(day.adding(days: 1), now: StoreFixtures.now))
        XCTAssertEqual(try store.digestLedger.sentDays(), [day, day.adding(days: 1)])
        XCTAssertTrue(store.digestLedger.isSent(day))
    }

    func testResolvesShortIDsAndNamesUnknownAndAmbiguousOnes() throws {
        let created = Timestamp(StoreFixtures.now, timeZone: StoreFixtures.zone)
        func entry(_ id: String) -> QueueEntry {
            QueueEntry(id: id, queue: "rec", created: created, due: created.localDay, rule: "r",
                       message: MessageSummary(subject: "about \(id.prefix(6))"))
        }
        let ids = ["abcd0" + String(repeating: "1", count: 27), "abcd1" + String(repeating: "2", count: 27),
                   "ffff" + String(repeating: "3", count: 28)]
        for id in ids { try store.put(entry(id)) }
        XCTAssertEqual(try store.resolve(QueueEntry.self, ["abcd0", "FFFF", ids[1]]), [ids[0], ids[2], ids[1]])
        XCTAssertThrowsError(try store.resolve(QueueEntry.self, ["abcd", "1234", "xyz!"])) { error in
            let error = error as! StoreError
            XCTAssertEqual(error.exitStatus, .dataError)
            guard case .ids(let problems) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(problems.count, 3)
            XCTAssertTrue(error.message.contains("'abcd' matches 2 queue entries"), error.message)
            XCTAssertTrue(error.message.contains("abcd0  rec, due 2026-03-02: about abcd01"), error.message)
            XCTAssertTrue(error.message.contains("abcd1  rec"), error.message)
            XCTAssertTrue(error.message.contains("no queue entry has the id '1234'"), error.message)
            XCTAssertTrue(error.message.contains("'xyz!' is not a queue entry id"), error.message)
        }
        let index = store.shortIDs(QueueEntry.self)
        XCTAssertEqual(ids.map(index.short), ["abcd0", "abcd1", "ffff"])
    }
}
