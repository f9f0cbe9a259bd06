import Foundation
import XCTest

/// A narrowed run (`UID SEARCH` picks the candidates) killed at every step over the traps of
/// `ServerNarrowingRunTests`, and fillers in batches of 40 (the last two without a candidate): each
/// cron rerun must converge to the state of an uninterrupted run, the saved last UID
/// moving past the messages that were never fetched.
final class NarrowedCrashSweepTests: XCTestCase {
    func testKilledAtEveryStepConverges() throws {
        let server = try DovecotServer.shared()
        let user = try server.makeUser("narrow-sweep")
        try server.createMailbox(user: user, "INBOX")
        try server.createMailbox(user: user, "FYI")
        let folder = try TestFolder("narrow-sweep", rules: ServerNarrowingRunTests.rules)
        defer { folder.remove() }
        try folder.writeConfig(url: "imaps://localhost:\(server.imapsPort)", user: user, caFile: server.caFile)
        let first = try folder.triage(["run"])
        XCTAssertEqual(first.status, 0, "the first run remembers where INBOX ends: \(first.err)")
        try folder.saveStoreAndOutbox()
        let run = ["run", "--batch-size", "40", "--verbose", "--now", "2026-11-30T09:00:00Z"]

        /// Every message out, the traps in again under new UIDs, the store as after the first run.
        func restart() throws {
            for mailbox in ["INBOX", "FYI"] {
                for sub in ["cur", "new"] {
                    let dir = server.maildir(user: user, mailbox: mailbox) + "/" + sub
                    for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
                        try FileManager.default.removeItem(atPath: dir + "/" + name)
                    }
                }
            }
            try ServerNarrowingRunTests.seed(server, user: user)
            try folder.restoreStoreAndOutbox()
        }
        func snapshot() throws -> [String] {
            try ServerNarrowingRunTests.serverState(server, user: user) + folder.storeLines(maskUIDs: true)
        }

        try restart()
        let uninterrupted = try folder.triage(run)
        XCTAssertEqual(uninterrupted.status, 0, uninterrupted.err)
        XCTAssertTrue(uninterrupted.out.contains("narrowing by UID SEARCH"), uninterrupted.out)
        let reference = try snapshot()
        XCTAssertTrue(reference.contains("cc-me in FYI: fyi"), "\(reference)")
        // Nothing left to do: a second run fetches nothing (the state is past every UID).
        let again = try folder.triage(run)
        XCTAssertFalse(again.out.contains("\"trap "), again.out)

        var steps: [String] = []
        var k = 1
        while k < 200 {
            try restart()
            let killed = try folder.triage(run, environment: ["TRIAGE_TEST_KILL_AT": String(k)])
            if killed.status != -9 {
                XCTAssertEqual(killed.status, 0, killed.err)
                XCTAssertEqual(try snapshot(), reference, "a run with the hook armed but not fired")
                break
            }
            let step = CrashSweepTests.stepName(killed.err) ?? "?"
            steps.append(step)
            let rerun = try folder.triage(run)
            XCTAssertEqual(rerun.status, 0, "killed at step \(k) (\(step)); rerun: \(rerun.err)")
            let state = try snapshot()
            XCTAssertEqual(state, reference, "killed at step \(k) (\(step)): the rerun did not converge\n"
                           + CrashSweepTests.difference(reference, state))
            k += 1
        }
        XCTAssertTrue(steps.contains("UID SEARCH"), "\(steps)")
        XCTAssertTrue(steps.contains("state"), "\(steps)")
        XCTAssertTrue(steps.contains("UID MOVE"), "\(steps)")
    }
}
