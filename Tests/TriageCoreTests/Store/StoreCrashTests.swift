import Foundation
import TriageCore
import XCTest

/// A writer killed with SIGKILL at random moments leaves only whole, readable
/// records and nothing a listing shows but records.
///
/// The writer is this test binary itself, run again with a filter that selects
/// `testWriterKeepsEveryRecordWhole` and an environment variable that makes that
/// method write forever into the parent's store.
final class StoreCrashTests: XCTestCase {
    private static let childStoreVariable = "TRIAGE_STORE_CRASH_CHILD_STORE"
    private static let childStartVariable = "TRIAGE_STORE_CRASH_CHILD_START"
    private static let batchSize = 20

    /// Normally: writes a few hundred records in batches, with status changes,
    /// and checks them. In a child process: the same, forever, until killed.
    func testWriterKeepsEveryRecordWhole() throws {
        let environment = ProcessInfo.processInfo.environment
        if let root = environment[Self.childStoreVariable] {
            let start = Int(environment[Self.childStartVariable] ?? "0") ?? 0
            let store = Store(path: root, timeZone: StoreFixtures.zone)
            var n = start
            // Until the parent kills this process; the deadline only stops a child
            // whose parent died first from running on.
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                try? Self.writeBatch(store, from: n)
                n += Self.batchSize
            }
            return
        }
        let folder = StoreFixtures.freshFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = Store(path: folder + "/store", timeZone: StoreFixtures.zone)
        for batch in 0..<10 { try Self.writeBatch(store, from: batch * Self.batchSize) }
        let counts = try Self.verify(root: store.root)
        XCTAssertEqual(counts.records, 10 * Self.batchSize)
        XCTAssertEqual(counts.done, 10 * 5)
        XCTAssertEqual(counts.temps, 0)
    }

    func testKilledWritersLeaveOnlyWholeRecords() throws {
        let folder = StoreFixtures.freshFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let root = folder + "/store"
        let binary = CommandLine.arguments[0]
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: binary), binary)

        var previous = 0
        var grew = 0
        var sawTemps = false
        var rounds = 0
        // At least eight rounds, and more until one kill has fallen between writing
        // a temp file and renaming it (the case this test is about).
        for round in 0..<30 where round < 8 || !sawTemps {
            rounds += 1
            let child = Process()
            child.executableURL = URL(fileURLWithPath: binary)
            child.arguments = ["TriageCoreTests.StoreCrashTests/testWriterKeepsEveryRecordWhole"]
            var environment = ProcessInfo.processInfo.environment
            environment[Self.childStoreVariable] = root
            environment[Self.childStartVariable] = String(round * 1_000_000)
            child.environment = environment
            child.standardOutput = FileHandle.nullDevice
            child.standardError = FileHandle.nullDevice
            let filesBefore = Self.recordFiles(root)
            try child.run()
            // Kill only once the child is writing (its start-up time varies with the
            // machine's load), at a random moment within its writes.
            let deadline = Date().addingTimeInterval(30)
            while Self.recordFiles(root) <= filesBefore, Date() < deadline, child.isRunning { usleep(5_000) }
            usleep(UInt32.random(in: 0...150_000))
            XCTAssertEqual(kill(child.processIdentifier, SIGKILL), 0)
            child.waitUntilExit()
            XCTAssertEqual(child.terminationReason, .uncaughtSignal)
            XCTAssertEqual(child.terminationStatus, SIGKILL)

            let counts = try Self.verify(root: root)
            if counts.records > previous { grew += 1 }
            if counts.temps > 0 { sawTemps = true }
            previous = counts.records
        }
        // A round whose first new file was a status change (open -> done) adds no record.
        XCTAssertGreaterThanOrEqual(grew, rounds - 2, "the child writers should have written records in most rounds")
        XCTAssertTrue(sawTemps, "no kill fell in the middle of a write in \(rounds) rounds")

        // The lock died with the last writer; the next writer cleans up the temp
        // files in the folders it writes to.
        let store = Store(path: root, timeZone: StoreFixtures.zone)
        XCTAssertTrue(try store.put(Self.entry(99_999_999)))
        let openFolder = store.folder(QueueEntry.self, "open")
        XCTAssertEqual(StoreFiles_hidden(in: openFolder), [])
        XCTAssertEqual(try Self.verify(root: root).records, previous + 1)
    }

    // MARK: - Helpers

    /// The queue entry for message `n`: a few kilobytes so a kill can fall mid-write.
    static func entry(_ n: Int) -> QueueEntry {
        var m = StoreFixtures.message(n)
        m.snippet = String(repeating: "Record \(n) text. ", count: 200)
        let created = Timestamp(StoreFixtures.now, timeZone: StoreFixtures.zone)
        return QueueEntry(id: RecordID.forMessage(m, rule: "crash", action: .queue(name: "rec", inDays: 1)),
                          queue: "rec", created: created, due: created.localDay.adding(days: 1),
                          rule: "crash", message: MessageSummary(m))
    }

    /// Writes entries n..<n+batchSize in one batch, then marks the first five done.
    static func writeBatch(_ store: Store, from n: Int) throws {
        var batch = StoreBatch()
        for i in n..<(n + batchSize) { batch.add(entry(i)) }
        let result = try store.write(batch)
        try store.setStatus(queueEntries: Array(result.created.prefix(5)), to: .done, now: StoreFixtures.now)
    }

    /// Checks that every listed record is whole and matches what was written for
    /// its number, that no id is listed twice, and that every visible file is a
    /// record. Returns the counts of records, done records and hidden temp files.
    static func verify(root: String) throws -> (records: Int, done: Int, temps: Int) {
        let store = Store(path: root, timeZone: StoreFixtures.zone)
        let listing = store.records(QueueEntry.self)
        XCTAssertEqual(listing.problems, [], "a killed writer left an unreadable record")
        var seen = Set<String>()
        for record in listing.records {
            XCTAssertTrue(seen.insert(record.id).inserted, "\(record.id) listed twice")
            let subject = try XCTUnwrap(record.message.subject)
            let n = try XCTUnwrap(Int(subject.dropFirst("Message ".count)))
            var expected = entry(n)
            expected.status = record.status
            expected.statusChanged = record.statusChanged
            XCTAssertEqual(record, expected)
        }
        var temps = 0
        for status in QueueEntry.statusFolders {
            let folder = store.folder(QueueEntry.self, status)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                if name.hasPrefix(".") {
                    XCTAssertTrue(name.hasPrefix(".tmp-"), name)
                    temps += 1
                } else {
                    XCTAssertTrue(name.hasSuffix(".json") && RecordID.isValid(name.dropLast(5)), "unexpected file \(name)")
                }
            }
        }
        return (listing.records.count, listing.records.filter { $0.status == .done }.count, temps)
    }

    /// How many record files (`*.json`, temp files aside) the store's queue folders hold: a cheap poll.
    private static func recordFiles(_ root: String) -> Int {
        ["open", "done"].reduce(0) { count, status in
            count + ((try? FileManager.default.contentsOfDirectory(atPath: root + "/queue/" + status)) ?? [])
                .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.count
        }
    }
}

/// Hidden names in a folder (temp files).
private func StoreFiles_hidden(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(".") }
}
