import Foundation
import XCTest

/// A server without MOVE (127.0.0.4) moves in three commands: UID COPY, UID STORE
/// +FLAGS (\Deleted), UID EXPUNGE. Each interleaving of a crash with them, by name.
final class InterruptedMoveTests: XCTestCase {
    private var box: RunSandbox!
    private let run = ["run", "--batch-size", "7"]

    override func setUpWithError() throws {
        box = try RunSandbox("copymove")
        try box.writeConfig(host: "127.0.0.4", digest: false)
        XCTAssertEqual(try box.triage(["run"]).status, 0)
        try box.seed(7)  // one list message (moved to Lists/dev), one newsletter (to Archive)
        try box.saveStart()
    }

    override func tearDownWithError() throws {
        box.remove()
    }

    /// The step of the first UID COPY (the same in every test: same corpus, same
    /// steps), found once by killing at increasing k.
    private nonisolated(unsafe) static var firstCopy: Int?

    private func firstCopyStep() throws -> Int {
        if let k = Self.firstCopy { return k }
        for k in 1...400 {
            try box.restoreStart()
            let killed = try box.triage(run, environment: ["TRIAGE_TEST_KILL_AT": String(k)])
            XCTAssertEqual(killed.status, -9, "ran out of steps before UID COPY")
            if CrashSweepTests.stepName(killed.err) == "UID COPY" {
                Self.firstCopy = k
                return k
            }
        }
        throw NSError(domain: "InterruptedMoveTests", code: 1, userInfo: [NSLocalizedDescriptionKey: "no UID COPY step"])
    }

    /// Restores the start and kills the run at step k, which must be `name`.
    private func kill(at k: Int, expecting name: String) throws {
        try box.restoreStart()
        let killed = try box.triage(run, environment: ["TRIAGE_TEST_KILL_AT": String(k)])
        XCTAssertEqual(CrashSweepTests.stepName(killed.err), name, killed.err)
    }

    private func count(_ lines: [String], _ prefix: String) -> Int { lines.filter { $0.hasPrefix(prefix) }.count }

    func testEveryInterleavingOfCopyStoreExpungeConverges() throws {
        XCTAssertEqual(try box.triage(run).status, 0)
        let reference = try box.snapshot()
        XCTAssertEqual(count(reference, "Lists/dev m3@"), 1)
        XCTAssertEqual(count(reference, "Archive m5@"), 1)
        XCTAssertEqual(count(reference, "INBOX m3@") + count(reference, "INBOX m5@"), 0)

        // After COPY (both copies exist, neither marked), after STORE \Deleted (the
        // original marked), after EXPUNGE (moved, state not yet saved).
        for name in ["UID COPY", "UID STORE", "UID EXPUNGE"] {
            // The move's three commands are three consecutive steps.
            let k = try firstCopyStep() + ["UID COPY", "UID STORE", "UID EXPUNGE"].firstIndex(of: name)!
            try kill(at: k, expecting: name)
            let afterKill = try box.snapshot()
            let rerun = try box.triage(run + ["--verbose"], environment: ["TRIAGE_TRACE": "1"])
            XCTAssertEqual(rerun.status, 0, rerun.err)
            let state = try box.snapshot()
            XCTAssertEqual(state, reference, "killed at step \(k) (\(name))\n" + CrashSweepTests.difference(reference, state))
            if name == "UID COPY" {
                XCTAssertEqual(count(afterKill, "Lists/dev m3@") + count(afterKill, "INBOX m3@"), 2,
                               "the kill left both copies: \(afterKill)")
                XCTAssertTrue(rerun.err.contains("already in Lists/dev (an interrupted move): expunging only"), rerun.err)
            }
        }
    }

    func testWithoutTheJournalARerunWouldCopyTwice() throws {
        // The control: the gap the journal closes. Kill right after COPY, forget the
        // journal, and the rerun copies the message a second time.
        XCTAssertEqual(try box.triage(run).status, 0)
        let reference = try box.snapshot()
        try kill(at: try firstCopyStep(), expecting: "UID COPY")
        let journal = box.store + "/state/test/INBOX+moves.json"
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal), "the journal is written before the moves")
        try FileManager.default.removeItem(atPath: journal)
        XCTAssertEqual(try box.triage(run).status, 0)
        let state = try box.snapshot()
        XCTAssertNotEqual(state, reference)
        XCTAssertEqual(count(state, "Lists/dev m3@"), 2, "copied twice without the journal")
    }

    func testTheJournalIsGoneAfterACompleteRun() throws {
        XCTAssertEqual(try box.triage(run).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: box.store + "/state/test/INBOX+moves.json"))
    }
}
