import Foundation
import XCTest

/// `triage run` killed (SIGKILL, `TRIAGE_TEST_KILL_AT=k`) at every step k — each
/// IMAP command, each store file, each runner step, each webhook POST, the digest
/// delivery — over a corpus that meets every action kind; after each kill a rerun
/// must converge to exactly the state of an uninterrupted run.
///
/// The size is `TRIAGE_SWEEP_MESSAGES` messages in batches of `TRIAGE_SWEEP_BATCH`
/// (default 14 in batches of 7 for the test suite: every action kind twice, two batches; Tests/long/crash-sweep.sh runs
/// the full sweep over 300), plus `RunSandbox.seedLookalikes`: messages that share a
/// Message-ID (one a decoy already in the target folder) or have none, two of them
/// identical, which only a journal that proves its copies moves right.
final class CrashSweepTests: XCTestCase {
    private static func setting(_ name: String, _ fallback: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap(Int.init) ?? fallback
    }

    private var messages: Int { Self.setting("TRIAGE_SWEEP_MESSAGES", 14) }
    private var batch: Int { Self.setting("TRIAGE_SWEEP_BATCH", 7) }

    /// Dovecot with MOVE.
    func testKilledAtEveryStepConvergesWithMove() throws {
        try sweep(host: "localhost", purpose: "sweep-move")
    }

    /// 127.0.0.4 lacks MOVE: moves are COPY, STORE \Deleted, UID EXPUNGE, and a kill
    /// between them must neither leave a copy behind nor copy twice.
    func testKilledAtEveryStepConvergesWithoutMove() throws {
        try sweep(host: "127.0.0.4", purpose: "sweep-copy")
    }

    private func sweep(host: String, purpose: String) throws {
        let box = try RunSandbox(purpose)
        defer { box.remove() }
        try box.writeConfig(host: host)
        let run = ["run", "--batch-size", String(batch)]
        let first = try box.triage(["run"])
        XCTAssertEqual(first.status, 0, "the first run remembers where INBOX ends: \(first.err)")
        try box.seed(messages)
        // Messages a Message-ID cannot tell apart: a resumed move must prove its copies.
        try box.seedLookalikes()
        try box.saveStart()

        // The reference: one uninterrupted run.
        let hooksBefore = Set(try box.webhookRequests().keys)
        let started = Date()
        let uninterrupted = try box.triage(run)
        let runSeconds = Date().timeIntervalSince(started)
        XCTAssertEqual(uninterrupted.status, 0, uninterrupted.err)
        let reference = try box.snapshot()
        let referenceHooks = try box.webhookRequests().filter { !hooksBefore.contains($0.key) }.map(\.value).sorted()
        let digest = box.outboxFiles()
        checkReference(reference, hooks: referenceHooks, digest: digest)

        var steps: [String] = []
        var failures = 0
        var k = 1
        let sweepStarted = Date()
        var clock = PhaseClock()
        while failures < 5 {
            try clock.time("restore") { try box.restoreStart() }
            let hooksSeen = try clock.time("hooks") { Set(try box.webhookRequests().keys) }
            let killed = try clock.time("killed run") { try box.triage(run, environment: ["TRIAGE_TEST_KILL_AT": String(k)]) }
            if killed.status != -9 {
                // Past the last step: the run finished, and is the reference.
                XCTAssertEqual(killed.status, 0, killed.err)
                XCTAssertEqual(try box.snapshot(), reference, "a run with the hook armed but not fired")
                break
            }
            let step = Self.stepName(killed.err) ?? "?"
            steps.append(step)
            let deliveredBeforeKill = digest.first.flatMap(box.inode(ofOutboxFile:))

            let rerun = try clock.time("rerun") { try box.triage(run) }
            XCTAssertEqual(rerun.status, 0, "killed at step \(k) (\(step)); rerun: \(rerun.err)")
            let state = try clock.time("snapshot") { try box.snapshot() }
            if state != reference {
                failures += 1
                XCTFail("killed at step \(k) (\(step)): the rerun did not converge\n" + Self.difference(reference, state))
            }
            // Webhooks: each one posted, and a second time only when killed between the
            // POST and recording it (no HTTP client can know whether a lost answer was a success):
            // right after the POST, or with its delivered record staged but not yet renamed.
            let hooks = try clock.time("hooks") { try box.webhookRequests() }.filter { !hooksSeen.contains($0.key) }.map(\.value).sorted()
            if step == "webhook posted" || step == "store staged webhooks/delivered" {
                XCTAssertEqual(Set(hooks), Set(referenceHooks), "step \(k)")
                XCTAssertLessThanOrEqual(hooks.count, referenceHooks.count + 1, "step \(k): at most the one in flight twice")
            } else {
                XCTAssertEqual(hooks, referenceHooks, "killed at step \(k) (\(step)): webhooks lost or doubled")
            }
            // The digest: one file for the day, and not delivered again unless the kill came
            // between the delivery and recording it, the sent marker staged at most (then it is the
            // same message, same Message-ID).
            XCTAssertEqual(box.outboxFiles(), digest, "killed at step \(k) (\(step))")
            // (What the digest showed is committed with the sent marker, and renamed before it.)
            let beforeMarker = ["digest delivered", "store staged digest/shown, digest/sent", "store write digest/shown"]
            if let deliveredBeforeKill, !beforeMarker.contains(step) {
                XCTAssertEqual(digest.first.flatMap(box.inode(ofOutboxFile:)), deliveredBeforeKill,
                               "killed at step \(k) (\(step)): the digest was sent again")
            }
            k += 1
        }
        let kinds = Dictionary(grouping: steps) { $0.hasPrefix("store") ? "store files" : $0 }.mapValues(\.count)
        print("crash sweep \(purpose): \(messages) messages, batch \(batch): \(steps.count) steps interrupted in "
              + "\(Int(Date().timeIntervalSince(sweepStarted))) s (one run \(String(format: "%.2f", runSeconds)) s); steps: "
              + kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + "; time: \(clock)")
        XCTAssertGreaterThan(steps.count, messages, "every message makes at least one step")
        for kind in ["UID FETCH", "UID STORE", "store files", "state", "webhook posted", "digest delivered", "journal"] {
            XCTAssertNotNil(kinds[kind], "no kill at a \(kind) step: \(kinds)")
        }
        XCTAssertNotNil(kinds[host == "127.0.0.4" ? "UID COPY" : "UID MOVE"], "\(kinds)")
        if host == "127.0.0.4" {
            for kind in ["UID EXPUNGE", "STATUS", "journal copy", "journal copied"] { XCTAssertNotNil(kinds[kind], "\(kinds)") }
        }
    }

    /// The uninterrupted run did what the rules say (so convergence means something).
    private func checkReference(_ reference: [String], hooks: [String], digest: [String]) {
        let kinds = (0..<messages).map { $0 % 7 }
        func count(_ prefix: String) -> Int { reference.filter { $0.hasPrefix(prefix) }.count }
        let extra = RunSandbox.lookalikes
        XCTAssertEqual(count("Lists/dev "), kinds.filter { $0 == 3 }.count + extra.listsDev, "lists moved")
        XCTAssertEqual(count("Archive "), kinds.filter { $0 == 5 }.count + extra.archive, "newsletters archived")
        XCTAssertEqual(count("INBOX "), kinds.filter { $0 != 3 && $0 != 5 }.count, "the rest stays")
        // The decoy stays, the post reusing its Message-ID and both identical posts arrive.
        for line in ["Lists/dev m3@example.test \"Decoy m3\"", "Lists/dev m3@example.test \"Release m3\"",
                     "Lists/dev m3@example.test \"Release d3\"", "Archive ? \"Weekly noid5\""] {
            XCTAssertEqual(count(line), 1, line)
        }
        XCTAssertEqual(count("Lists/dev ? \"Release twin\""), 2)
        XCTAssertEqual(count("store queue/open/"), kinds.filter { $0 == 1 }.count, "receipts queued")
        XCTAssertEqual(count("store reminders/open/"), kinds.filter { $0 == 2 }.count, "boss reminders")
        XCTAssertEqual(count("store webhooks/delivered/"), kinds.filter { $0 == 1 }.count, "webhooks delivered")
        XCTAssertEqual(hooks.count, kinds.filter { $0 == 1 }.count, "one POST per receipt")
        XCTAssertEqual(digest.count, 1, "one digest: \(digest)")
        XCTAssertFalse(reference.contains { $0.contains("after_stop") || $0.contains("after+20stop") }, "stop ends the rules")
        XCTAssertTrue(reference.contains { $0.hasPrefix("Archive ") && $0.contains("\\Seen") && $0.contains("news") })
        XCTAssertTrue(reference.contains { $0.hasPrefix("INBOX m4@") && $0.contains("flags()") && $0.contains("labels()") },
                      "unlabel and mark unread")
        XCTAssertTrue(reference.contains { $0.hasPrefix("INBOX m2@") && $0.contains("\\Flagged") })
        XCTAssertFalse(reference.contains { $0.contains("\\Deleted") })
    }

    /// `UID COPY` from `triage: test hook: killed at step 7 (UID COPY)`.
    static func stepName(_ err: String) -> String? {
        guard let range = err.range(of: "test hook: killed at step ") else { return nil }
        let rest = err[range.upperBound...]
        guard let open = rest.firstIndex(of: "("), let close = rest.firstIndex(of: ")") else { return nil }
        return String(rest[rest.index(after: open)..<close])
    }

    static func difference(_ expected: [String], _ actual: [String]) -> String {
        var missing = expected, extra: [String] = []
        for line in actual {
            if let i = missing.firstIndex(of: line) { missing.remove(at: i) } else { extra.append(line) }
        }
        return (missing.prefix(8).map { "  - " + $0 } + extra.prefix(8).map { "  + " + $0 }).joined(separator: "\n")
    }
}

/// Adds up the time spent in each phase of a loop.
struct PhaseClock: CustomStringConvertible {
    private var seconds: [String: Double] = [:]

    mutating func time<T>(_ phase: String, _ body: () throws -> T) rethrows -> T {
        let started = Date()
        defer { seconds[phase, default: 0] += Date().timeIntervalSince(started) }
        return try body()
    }

    var description: String {
        seconds.sorted { $0.key < $1.key }.map { "\($0.key) \(Int($0.value)) s" }.joined(separator: ", ")
    }
}
