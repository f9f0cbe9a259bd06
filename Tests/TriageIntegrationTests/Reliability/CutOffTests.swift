import Foundation
import XCTest

/// `triage run` through a proxy that drops or stalls the connection after N bytes,
/// for many N: exit 75 naming the server (or 0 when the cut came after all the
/// work), never longer than the configured timeout allows, and the next run
/// converges to the state of a run that was never cut off.
///
/// `TRIAGE_CUTOFF_POINTS` sets how many drop points (default 24 for the suite).
final class CutOffTests: XCTestCase {
    private let timeout = 2

    func testDroppedOrStalledAfterNBytesWithMove() throws {
        try cutOff(upstream: "127.0.0.1", purpose: "cut-move", drops: points(12), stalls: 3)
    }

    func testDroppedOrStalledAfterNBytesWithoutMove() throws {
        try cutOff(upstream: "127.0.0.4", purpose: "cut-copy", drops: points(24), stalls: 3)
    }

    private func points(_ fallback: Int) -> Int {
        ProcessInfo.processInfo.environment["TRIAGE_CUTOFF_POINTS"].flatMap(Int.init) ?? fallback
    }

    private func cutOff(upstream: String, purpose: String, drops: Int, stalls: Int) throws {
        let box = try RunSandbox(purpose)
        defer { box.remove() }
        let proxy = try CutoffProxy(to: upstream, port: box.server.imapsPort)
        defer { proxy.stop() }
        try box.writeConfig(port: proxy.port, timeout: timeout, digest: false)
        let server = "localhost:\(proxy.port)"
        let run = ["run", "--batch-size", "5"]

        try proxy.set(.pass)
        XCTAssertEqual(try box.triage(["run"]).status, 0)
        try box.seed(14)
        try box.saveStart()
        let connections = proxy.totals.count
        let uninterrupted = try box.triage(run)
        XCTAssertEqual(uninterrupted.status, 0, uninterrupted.err)
        let reference = try box.snapshot()
        var total = 0
        for _ in 0..<100 where proxy.totals.count == connections { usleep(20_000) }
        total = proxy.totals.last ?? 0
        XCTAssertGreaterThan(total, 5_000, "the whole conversation, TLS included")

        // Cut points: the TLS handshake and login byte by byte at first, then spread
        // over the whole conversation up to its very end.
        var cuts = [0, 1, 5, 50, 200, 500, 1_000, 1_500, 2_000, 3_000]
        let spread = max(1, drops - cuts.count)
        cuts += (1...spread).map { 3_000 + (total - 3_000) * $0 / spread }
        // Stalls in the TLS handshake, right after login, and in the mail commands.
        let stallPoints = [300, 2_500] + (0..<max(0, stalls - 2)).map { total * ($0 + 1) / (stalls - 1) }
        var outcomes: [String: Int] = [:]
        var longest = 0.0

        for (n, stall) in cuts.map({ ($0, false) }) + stallPoints.map({ ($0, true) }) {
            try box.restoreStart()
            try proxy.set(stall ? .stall(after: n) : .drop(after: n))
            let started = Date()
            let cut = try box.triage(run)
            let elapsed = Date().timeIntervalSince(started)
            longest = max(longest, elapsed)
            if ProcessInfo.processInfo.environment["TRIAGE_CUTOFF_DEBUG"] != nil {
                print("cut \(stall ? "stall" : "drop") \(n): \(cut.status) in \(String(format: "%.2f", elapsed)) s: \(cut.err)")
            }
            let what = "\(stall ? "stalled" : "dropped") after \(n) of \(total) bytes"
            // A stall waits out one timeout (for the handshake or an answer), no more.
            XCTAssertLessThan(elapsed, Double(timeout) + 1.5, "\(what): took \(elapsed) s")
            if cut.status == 0 {
                // Only a cut after the last command (during LOGOUT) may go unnoticed.
                XCTAssertEqual(try box.snapshot(), reference, "\(what): exit 0 but the work is not done")
                outcomes["0 (cut during LOGOUT)", default: 0] += 1
            } else {
                XCTAssertEqual(cut.status, 75, "\(what): \(cut.err)")
                XCTAssertTrue(cut.err.contains(server), "\(what): the message names the server: \(cut.err)")
                XCTAssertFalse(cut.err.contains("libetpan error"), "\(what): \(cut.err)")
                let kind = ["timeout": "no answer", "lost": "connection was lost", "closed": "closed", "tls": "TLS"]
                    .first { cut.err.contains($0.value) }?.key ?? "other"
                outcomes["75 \(kind)", default: 0] += 1
            }
            try proxy.set(.pass)
            let rerun = try box.triage(run)
            XCTAssertEqual(rerun.status, 0, "\(what): rerun: \(rerun.err)")
            let state = try box.snapshot()
            XCTAssertEqual(state, reference, "\(what): the rerun did not converge\n" + CrashSweepTests.difference(reference, state))
        }
        print("cut-off \(purpose): \(cuts.count) drop points and \(stallPoints.count) stalls over \(total) bytes; "
              + "longest run \(String(format: "%.1f", longest)) s (timeout \(timeout) s); outcomes: "
              + outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }
}
