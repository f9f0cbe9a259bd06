import Foundation
import XCTest

/// A running `triage watch --verbose` (the built binary), its output going to files
/// that the test reads while it runs. Killed when dropped, if still running.
final class WatchProcess {
    private let process = Process()
    private let outPath: String
    private let errPath: String

    /// Starts `triage watch --config CONFIG --verbose ARGS`, with `environment` added
    /// to this process's (`TRIAGE_TEST_TIME_SCALE`: see `timeScale`).
    init(config: String, arguments: [String] = [], environment: [String: String] = [:]) throws {
        let base = NSTemporaryDirectory() + "triage-watch-\(UUID().uuidString.prefix(8))"
        outPath = base + ".out"
        errPath = base + ".err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        process.executableURL = TriageProcess.binary
        process.arguments = ["watch", "--config", config, "--verbose"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: outPath)
        try? FileManager.default.removeItem(atPath: errPath)
    }

    /// `watch`'s reconnect policy 20 times as fast (`TestHooks`, Sources/TriageApp/TestHooks.swift):
    /// pauses from 0.05 s up to 15 s, and an outage is over once a connection stayed up 3 s.
    static let timeScale = ["TRIAGE_TEST_TIME_SCALE": "0.05"]
    /// How long a connection stays up to end an outage under `timeScale`.
    static let scaledSettle = 3.0

    var pid: pid_t { process.processIdentifier }
    var isRunning: Bool { process.isRunning }
    /// Standard output so far.
    var out: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
    /// Standard error so far.
    var err: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

    /// Waits until the first pass of every mailbox is done (its `N messages processed, M new records`
    /// line, `count` of them), then a moment for the IDLE to start.
    func waitUntilWatching(mailboxes count: Int = 1, file: StaticString = #filePath, line: UInt = #line) {
        let started = Self.waitUntil(30) { out.components(separatedBy: " processed, ").count - 1 >= count }
        XCTAssertTrue(started, "watch did not start: \(out) \(err)", file: file, line: line)
        usleep(500_000)
    }

    /// Sends `signal` and waits up to `seconds` for the exit; returns the exit status,
    /// or nil when it was still running (then it is killed).
    func stop(_ signal: Int32 = SIGTERM, within seconds: Double = 20) -> Int32? {
        kill(process.processIdentifier, signal)
        guard Self.waitUntil(seconds, { !process.isRunning }) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
    }

    /// Waits up to `seconds` for the process to end by itself; its exit status (negative:
    /// the signal that killed it), or nil while it still runs.
    func exited(within seconds: Double) -> Int32? {
        guard Self.waitUntil(seconds, { !process.isRunning }) else { return nil }
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
    }

    /// Polls `condition` every 50 ms for up to `seconds`; whether it came true.
    static func waitUntil(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(50_000)
        }
        return try condition()
    }
}
