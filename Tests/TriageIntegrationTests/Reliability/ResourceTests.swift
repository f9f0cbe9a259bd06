import Foundation
import XCTest

/// The store on a read-only or a full file system (real mounts: the tests run as
/// root, where mode bits would not stop a write), many accounts and a large
/// mailbox in bounded memory.
final class ResourceTests: XCTestCase {
    private var box: RunSandbox!
    private var mounts: [String] = []
    private let run = ["run", "--batch-size", "5"]

    override func setUpWithError() throws {
        box = try RunSandbox("resources")
        try box.writeConfig(digest: false)
        XCTAssertEqual(try box.triage(["run"]).status, 0)
        try box.seed(14)
        try box.saveStart()
    }

    override func tearDownWithError() throws {
        for mount in mounts.reversed() { try? Spawn.run(["/usr/bin/umount", mount]) }
        box.remove()
    }

    private func mount(_ arguments: [String], at path: String) throws {
        try Spawn.run(["/usr/bin/mount"] + arguments + [path])
        if !arguments.contains(where: { $0.hasPrefix("remount") }) { mounts.append(path) }
    }

    /// The reference (an uninterrupted run), then the starting point again.
    private func reference() throws -> [String] {
        XCTAssertEqual(try box.triage(run).status, 0)
        let state = try box.snapshot()
        try box.restoreStart()
        return state
    }

    /// Runs with the store's trouble in place: exit 75 with `reason`, nothing changed
    /// on the server or in the store.
    private func expectStopped(_ reason: String) throws {
        let before = try box.snapshot()
        let failed = try box.triage(run)
        XCTAssertEqual(failed.status, 75, failed.err)
        XCTAssertTrue(failed.err.contains(reason), failed.err)
        XCTAssertTrue(failed.err.contains("Nothing was lost"), failed.err)
        XCTAssertEqual(try box.snapshot(), before, "no server action and no record for the batch")
    }

    func testReadOnlyStoreStopsBeforeAnyServerActionAndLosesNothing() throws {
        let reference = try reference()
        // The record folders read-only (the lock and the run state stay writable, so
        // the run gets as far as its first batch).
        for kind in ["queue", "digest", "reminders", "webhooks"] {
            try FileManager.default.createDirectory(atPath: box.store + "/" + kind, withIntermediateDirectories: true)
            try mount(["--bind", box.store + "/" + kind], at: box.store + "/" + kind)
            try mount(["-o", "remount,bind,ro"], at: box.store + "/" + kind)
        }
        XCTAssertFalse(FileManager.default.createFile(atPath: box.store + "/queue/probe", contents: Data()), "the mount is read-only")
        try expectStopped("Read-only file system")
        for mount in mounts.reversed() { try Spawn.run(["/usr/bin/umount", mount]) }
        mounts = []
        XCTAssertEqual(try box.triage(run).status, 0)
        XCTAssertEqual(try box.snapshot(), reference, "the rerun converges")
    }

    func testWholeStoreReadOnlyStopsBeforeConnecting() throws {
        try mount(["--bind", box.store], at: box.store)
        try mount(["-o", "remount,bind,ro"], at: box.store)
        let failed = try box.triage(run)
        XCTAssertEqual(failed.status, 75, failed.err)
        XCTAssertTrue(failed.err.contains("lock") && failed.err.contains("read-only"), failed.err)
    }

    func testFullStoreStopsBeforeAnyServerActionAndLosesNothing() throws {
        let reference = try reference()
        // The store on a 1 MiB tmpfs, filled to the last byte.
        try FileManager.default.moveItem(atPath: box.store, toPath: box.store + ".saved")
        try FileManager.default.createDirectory(atPath: box.store, withIntermediateDirectories: false)
        try mount(["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs"], at: box.store)
        try Spawn.run(["/bin/cp", "-a", box.store + ".saved/.", box.store])
        let filler = box.store + "/filler"
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: filler) ?? {
            _ = FileManager.default.createFile(atPath: filler, contents: nil)
            return FileHandle(forWritingAtPath: filler)
        }())
        let block = [UInt8](repeating: 0, count: 4096)
        var filled = 0
        while (try? handle.write(contentsOf: block)) != nil, filled < 2 << 20 { filled += block.count }
        try? handle.close()
        XCTAssertLessThan(filled, 2 << 20, "the tmpfs filled up")

        try expectStopped("the file system is full")
        try FileManager.default.removeItem(atPath: filler)
        XCTAssertEqual(try box.triage(run).status, 0)
        XCTAssertEqual(try box.snapshot(), reference, "the rerun converges")
    }

    func testSecondConcurrentRunExits75AndNamesTheHolder() throws {
        // Another run holds the lock (a real triage process, stopped mid-run).
        let holder = Process()
        holder.executableURL = TriageProcess.binary
        holder.arguments = run + ["--config", box.config]
        var env = ProcessInfo.processInfo.environment
        env["TRIAGE_TEST_KILL_AT"] = "1000000"
        holder.environment = env
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        defer { if holder.isRunning { holder.terminate() }; holder.waitUntilExit() }
        kill(holder.processIdentifier, SIGSTOP)
        defer { kill(holder.processIdentifier, SIGCONT) }
        // Wait until it holds the lock (it writes its pid into the lock file).
        for _ in 0..<200 {
            if (try? String(contentsOfFile: box.store + "/lock", encoding: .utf8))?.contains("\(holder.processIdentifier)") == true { break }
            kill(holder.processIdentifier, SIGCONT); usleep(2_000); kill(holder.processIdentifier, SIGSTOP)
        }
        let second = try box.triage(run)
        XCTAssertEqual(second.status, 75, second.err)
        XCTAssertTrue(second.err.contains("locked by process \(holder.processIdentifier)"), second.err)
    }
}
