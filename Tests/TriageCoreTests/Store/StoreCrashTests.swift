import Foundation
import TriageCore
import XCTest

/// A writer killed with SIGKILL at each of the store's checkpoints in turn leaves
/// only whole, readable records and nothing a listing shows but records, and a
/// rerun then ends exactly where an uninterrupted run ends.
///
/// The writer is this test binary itself, run again with a filter that selects
/// `testScenarioWritesAndChangesRecords` and environment variables naming the
/// parent's store and the checkpoint to die at (`Store.checkpoint`): no timing, so
/// every run kills at the same steps.
final class StoreCrashTests: XCTestCase {
    private static let childStoreVariable = "TRIAGE_STORE_CRASH_CHILD_STORE"
    private static let childKillVariable = "TRIAGE_STORE_CRASH_CHILD_KILL_AT"
    private static let batchSize = 6
    private static let doneCount = 3

    /// Every checkpoint of the scenario, in order: the batch (staged, then each
    /// rename), then the status change (staged, the done copies, the removals).
    private static let expectedSteps = ["store staged queue/open"]
        + Array(repeating: "store write queue/open", count: batchSize)
        + ["store staged queue/done"]
        + Array(repeating: "store write queue/done", count: doneCount)
        + Array(repeating: "store remove queue/open", count: doneCount)

    /// The temp files a kill at each checkpoint leaves: a staged batch's files until
    /// each is renamed.
    private static let expectedTemps = Array((0...batchSize).reversed()) + Array((0...doneCount).reversed())
        + Array(repeating: 0, count: doneCount)

    /// Normally: runs the scenario on a seeded store and checks it. In a child
    /// process: runs it on the parent's store, killing itself at the k-th checkpoint.
    func testScenarioWritesAndChangesRecords() throws {
        let environment = ProcessInfo.processInfo.environment
        if let root = environment[Self.childStoreVariable] {
            let killAt = Int(environment[Self.childKillVariable] ?? "") ?? 0
            let store = Store(path: root, timeZone: StoreFixtures.zone)
            var count = 0
            store.checkpoint = { step in
                count += 1
                guard count == killAt else { return }
                // The parent learns where the child died from this file.
                _ = FileManager.default.createFile(atPath: root + ".killed-at", contents: Data(step.utf8))
                kill(getpid(), SIGKILL)
            }
            try Self.scenario(store)
            return
        }
        let folder = StoreFixtures.freshFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try Self.seededStore(folder + "/store")
        var steps: [String] = []
        store.checkpoint = { steps.append($0) }
        try Self.scenario(store)
        XCTAssertEqual(steps, Self.expectedSteps)
        let counts = try Self.verify(root: store.root)
        XCTAssertEqual(counts.records, 2 * Self.batchSize)
        XCTAssertEqual(counts.done, 2 * Self.doneCount)
        XCTAssertEqual(counts.temps, 0)
    }

    func testKilledAtEachCheckpointLeavesWholeRecordsAndTheRerunConverges() throws {
        let folder = StoreFixtures.freshFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let binary = CommandLine.arguments[0]
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: binary), binary)

        // What an uninterrupted scenario leaves.
        let reference = try Self.seededStore(folder + "/reference")
        try Self.scenario(reference)
        let expected = Self.sorted(reference.records(QueueEntry.self).records)

        var killedAt: [String] = []
        for k in 1...(Self.expectedSteps.count + 1) {
            let root = folder + "/store\(k)"
            let seeded = try Self.seededStore(root)
            let before = try Self.verify(root: root)

            let child = Process()
            child.executableURL = URL(fileURLWithPath: binary)
            child.arguments = ["TriageCoreTests.StoreCrashTests/testScenarioWritesAndChangesRecords"]
            var environment = ProcessInfo.processInfo.environment
            environment[Self.childStoreVariable] = root
            environment[Self.childKillVariable] = String(k)
            child.environment = environment
            child.standardOutput = FileHandle.nullDevice
            child.standardError = FileHandle.nullDevice
            try child.run()
            child.waitUntilExit()

            guard child.terminationReason == .uncaughtSignal else {
                // Past the last checkpoint: the scenario ran to its end.
                XCTAssertEqual(child.terminationStatus, 0, "the child scenario failed")
                XCTAssertEqual(k, Self.expectedSteps.count + 1, "the child finished after \(k - 1) checkpoints")
                XCTAssertEqual(Self.sorted(seeded.records(QueueEntry.self).records), expected)
                break
            }
            XCTAssertEqual(child.terminationStatus, SIGKILL)
            let step = try String(contentsOfFile: root + ".killed-at", encoding: .utf8)
            killedAt.append(step)

            // Killed: whole records only, and temp files exactly for the staged files
            // not renamed yet; nothing staged is visible before its rename.
            let counts = try Self.verify(root: root)
            XCTAssertEqual(counts.temps, Self.expectedTemps[k - 1], "killed at step \(k) (\(step))")
            if step.hasPrefix("store staged") {
                XCTAssertEqual(counts.records, k == 1 ? before.records : before.records + Self.batchSize,
                               "killed at step \(k) (\(step)): nothing staged is visible yet")
            }

            // The rerun (lock died with the child) cleans up and ends like the reference.
            let rerun = Store(path: root, timeZone: StoreFixtures.zone)
            try Self.scenario(rerun)
            let after = try Self.verify(root: root)
            XCTAssertEqual(after.temps, 0, "killed at step \(k) (\(step)): the rerun left temp files")
            XCTAssertEqual(after.files, after.records, "killed at step \(k) (\(step)): a record kept two copies")
            XCTAssertEqual(Self.sorted(rerun.records(QueueEntry.self).records), expected, "killed at step \(k) (\(step))")
        }
        XCTAssertEqual(killedAt, Self.expectedSteps, "every checkpoint was a kill point, in order")
    }

    // MARK: - Helpers

    /// A store holding entries 0..<batchSize, the first `doneCount` of them done.
    static func seededStore(_ root: String) throws -> Store {
        let store = Store(path: root, timeZone: StoreFixtures.zone)
        store.synchronous = false
        try writeBatch(store, from: 0)
        store.synchronous = true
        return store
    }

    /// What the child does: entries batchSize..<2*batchSize in one batch, then the
    /// first `doneCount` of them marked done. Idempotent, so it is also the rerun.
    static func scenario(_ store: Store) throws {
        try writeBatch(store, from: batchSize)
    }

    /// Writes entries n..<n+batchSize in one batch, then marks the first `doneCount` done.
    static func writeBatch(_ store: Store, from n: Int) throws {
        var batch = StoreBatch()
        for i in n..<(n + batchSize) { batch.add(entry(i)) }
        _ = try store.write(batch)
        try store.setStatus(queueEntries: (n..<(n + doneCount)).map { entry($0).id }, to: .done, now: StoreFixtures.now)
    }

    /// The queue entry for message `n`.
    static func entry(_ n: Int) -> QueueEntry {
        var m = StoreFixtures.message(n)
        m.snippet = String(repeating: "Record \(n) text. ", count: 50)
        let created = Timestamp(StoreFixtures.now, timeZone: StoreFixtures.zone)
        return QueueEntry(id: RecordID.forMessage(m, rule: "crash", action: .queue(name: "rec", inDays: 1)),
                          queue: "rec", created: created, due: created.localDay.adding(days: 1),
                          rule: "crash", message: MessageSummary(m))
    }

    static func sorted(_ records: [QueueEntry]) -> [QueueEntry] {
        records.sorted { $0.id < $1.id }
    }

    /// Checks that every listed record is whole and matches what was written for
    /// its number, that no id is listed twice, and that every visible file is a
    /// record. Returns the counts of records, done records, record files and
    /// hidden temp files.
    static func verify(root: String) throws -> (records: Int, done: Int, files: Int, temps: Int) {
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
        var files = 0
        var temps = 0
        for status in QueueEntry.statusFolders {
            let folder = store.folder(QueueEntry.self, status)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                if name.hasPrefix(".") {
                    XCTAssertTrue(name.hasPrefix(AtomicFile.tempPrefix), name)
                    temps += 1
                } else {
                    XCTAssertTrue(name.hasSuffix(".json") && RecordID.isValid(name.dropLast(5)), "unexpected file \(name)")
                    files += 1
                }
            }
        }
        return (listing.records.count, listing.records.filter { $0.status == .done }.count, files, temps)
    }
}
