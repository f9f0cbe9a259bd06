import Foundation
import XCTest

/// A server without MOVE (127.0.0.4) moves in three commands: UID COPY, UID STORE
/// +FLAGS (\Deleted), UID EXPUNGE. Each interleaving of a crash with them and with
/// the journal writes around them, by name, over messages a Message-ID cannot tell
/// apart: a decoy with m3's Message-ID already in Lists/dev, a second list post with
/// m3's Message-ID, two identical list posts without one, a newsletter without one
/// (`RunSandbox.seedLookalikes`).
final class InterruptedMoveTests: XCTestCase {
    private var box: RunSandbox!
    /// One batch: one journal, one move per folder.
    private let run = ["run", "--batch-size", "20"]
    private var journalFile: String { box.store + "/state/test/INBOX+moves.json" }

    override func setUpWithError() throws {
        box = try RunSandbox("copymove")
        try box.writeConfig(host: "127.0.0.4", digest: false)
        XCTAssertEqual(try box.triage(["run"]).status, 0)
        try box.seed(7)  // one list message m3 (moved to Lists/dev), one newsletter m5 (to Archive)
        try box.seedLookalikes()
        try box.saveStart()
    }

    override func tearDownWithError() throws {
        box.remove()
    }

    /// Step names of one run from its start, found once by killing at increasing k
    /// (the same in every test: same corpus, same steps).
    private nonisolated(unsafe) static var steps: [String]?

    private func stepNames() throws -> [String] {
        if let steps = Self.steps { return steps }
        var names: [String] = []
        for k in 1...400 {
            try box.restoreStart()
            let killed = try box.triage(run, environment: ["TRIAGE_TEST_KILL_AT": String(k)])
            if killed.status == 0 { break }
            XCTAssertEqual(killed.status, -9, killed.err)
            names.append(CrashSweepTests.stepName(killed.err) ?? "?")
        }
        Self.steps = names
        return names
    }

    /// The step (1-based) of the first `name` (after the first `after`): the
    /// moves to Lists/dev come first (their messages have the lowest UIDs).
    private func step(_ name: String, after: String? = nil) throws -> Int {
        let names = try stepNames()
        let start = after.flatMap { names.firstIndex(of: $0) } ?? 0
        guard let index = names[start...].firstIndex(of: name) else {
            throw NSError(domain: "InterruptedMoveTests", code: 1, userInfo: [NSLocalizedDescriptionKey: "no \(name) step in \(Self.steps ?? [])"])
        }
        return index + 1
    }

    /// Restores the start and kills the run at step k, which must be `name`.
    private func kill(at k: Int, expecting name: String) throws {
        try box.restoreStart()
        let killed = try box.triage(run, environment: ["TRIAGE_TEST_KILL_AT": String(k)])
        XCTAssertEqual(CrashSweepTests.stepName(killed.err), name, killed.err)
    }

    private func count(_ lines: [String], _ prefix: String) -> Int { lines.filter { $0.hasPrefix(prefix) }.count }

    /// Every moved message's text is in its folder exactly once, nothing moved is
    /// left in INBOX, the decoy is untouched, no copy is `\Deleted`.
    private func checkMoved(_ state: [String], _ context: String) {
        XCTAssertEqual(count(state, "Lists/dev m3@example.test \"Release m3\""), 1, context)
        XCTAssertEqual(count(state, "Lists/dev m3@example.test \"Release d3\""), 1, context)
        XCTAssertEqual(count(state, "Lists/dev m3@example.test \"Decoy m3\""), 1, context)
        XCTAssertEqual(count(state, "Lists/dev ? \"Release twin\""), 2, "two identical messages, two copies: " + context)
        XCTAssertEqual(count(state, "Archive m5@example.test \"Weekly m5\""), 1, context)
        XCTAssertEqual(count(state, "Archive ? \"Weekly noid5\""), 1, context)
        XCTAssertEqual(count(state, "INBOX m3@") + count(state, "INBOX ?") + count(state, "INBOX m5@"), 0, context)
        XCTAssertFalse(state.contains { $0.contains("\\Deleted") }, context)
    }

    /// Killed at every step from the journal write to the end of the batch (STATUS,
    /// `journal copy`, UID COPY, `journal copied`, UID STORE, UID EXPUNGE, per
    /// folder), the rerun ends exactly like an uninterrupted run: the originals'
    /// text in the target, the decoy never taken for a copy, no message without
    /// Message-ID copied twice.
    func testEveryInterleavingOfCopyStoreExpungeConverges() throws {
        XCTAssertEqual(try box.triage(run).status, 0)
        let reference = try box.snapshot()
        checkMoved(reference, "uninterrupted: \(reference)")

        let names = try stepNames()
        let first = try step("journal")
        let last = names.lastIndex(of: "move").map { $0 + 1 } ?? first
        XCTAssertTrue(names.contains("UID COPY") && names.contains("UID EXPUNGE"), "\(names)")
        var resumed: [String] = []
        for k in first...last {
            let name = names[k - 1]
            try kill(at: k, expecting: name)
            let rerun = try box.triage(run + ["--verbose"], environment: ["TRIAGE_TRACE": "1"])
            XCTAssertEqual(rerun.status, 0, rerun.err)
            let state = try box.snapshot()
            XCTAssertEqual(state, reference, "killed at step \(k) (\(name))\n" + CrashSweepTests.difference(reference, state))
            checkMoved(state, "killed at step \(k) (\(name))")
            if name == "UID COPY" || name == "journal copied" || name == "UID STORE" && names[k - 2] == "journal copied" {
                // The copies existed before the rerun: proven by the UIDNEXT mark and the
                // match (killed right after the COPY) or by COPYUID (later), not copied again.
                for folder in ["Lists/dev", "Archive"] where rerun.err.contains("already in \(folder) (an interrupted move") {
                    resumed.append("\(name) \(folder)")
                }
            }
        }
        XCTAssertEqual(resumed.sorted(), ["UID COPY Archive", "UID COPY Lists/dev", "UID STORE Archive", "UID STORE Lists/dev",
                                          "journal copied Archive", "journal copied Lists/dev"],
                       "each kill after a COPY left copies that the rerun found")
    }

    /// A decoy with m3's Message-ID that reaches Lists/dev after the interrupted run
    /// (above the UIDNEXT it journaled) is not taken for the copy either.
    func testALaterDecoyAboveTheMarkIsNotTakenForTheCopy() throws {
        for name in ["journal copy", "UID COPY"] {
            try kill(at: try step(name), expecting: name)
            try box.server.seed(user: box.user, mailbox: "Lists/dev",
                                "From: Someone <someone@example.test>\nSubject: Late decoy m3\n"
                                + "Message-ID: <m3@example.test>\n\nLater.\n")
            let rerun = try box.triage(run)
            XCTAssertEqual(rerun.status, 0, rerun.err)
            let state = try box.snapshot()
            checkMoved(state, "killed at \(name), then a decoy arrived")
            XCTAssertEqual(count(state, "Lists/dev m3@example.test \"Late decoy m3\""), 1)
        }
    }

    func testWithoutTheJournalARerunWouldCopyTwice() throws {
        // The control: the gap the journal closes. Kill right after COPY, forget the
        // journal, and the rerun copies the messages a second time.
        XCTAssertEqual(try box.triage(run).status, 0)
        let reference = try box.snapshot()
        try kill(at: try step("UID COPY"), expecting: "UID COPY")
        XCTAssertTrue(FileManager.default.fileExists(atPath: journalFile), "the journal is written before the moves")
        try FileManager.default.removeItem(atPath: journalFile)
        XCTAssertEqual(try box.triage(run).status, 0)
        let state = try box.snapshot()
        XCTAssertNotEqual(state, reference)
        XCTAssertEqual(count(state, "Lists/dev ? \"Release twin\""), 4, "copied twice without the journal")
    }

    /// A journal from before COPYs were journaled (`uidvalidity` and `moves` only)
    /// proves nothing: the rerun copies again. A duplicate, never a loss, and the
    /// new copy does not inherit the `\Deleted` the interrupted run had set.
    func testAnOldJournalCopiesAgainAndLosesNothing() throws {
        try kill(at: try step("UID STORE", after: "UID COPY"), expecting: "UID STORE")
        let data = try Data(contentsOf: URL(fileURLWithPath: journalFile))
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertNotNil(object["attempts"])
        object["attempts"] = nil
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: journalFile))
        let rerun = try box.triage(run)
        XCTAssertEqual(rerun.status, 0, rerun.err)
        let state = try box.snapshot()
        XCTAssertEqual(count(state, "Lists/dev m3@example.test \"Release m3\""), 2, "copied again: \(state)")
        XCTAssertEqual(count(state, "Lists/dev ? \"Release twin\""), 4)
        XCTAssertEqual(count(state, "INBOX m3@") + count(state, "INBOX ?"), 0)
        XCTAssertFalse(state.contains { $0.contains("\\Deleted") }, "\(state)")
    }

    func testTheJournalIsGoneAfterACompleteRun() throws {
        XCTAssertEqual(try box.triage(run).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalFile))
    }
}
