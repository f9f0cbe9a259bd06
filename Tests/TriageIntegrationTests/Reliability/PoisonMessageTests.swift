import Foundation
import XCTest

/// A message whose processing kills `triage run` (`TRIAGE_TEST_CRASH_SUBJECT`, the
/// test hook that dies on a parsed message, as a trap on a crafted one did) is not
/// retried forever: its batch is retried one message at a time, and after a second
/// death with it alone in hand it is skipped, said on standard error and in the
/// digest's Problems, left untouched; the other messages are processed. And a kill
/// at every step of that path (`TRIAGE_TEST_KILL_AT`) neither loses nor doubles anything.
final class PoisonMessageTests: XCTestCase {
    private var dir = ""
    private let crash = ["TRIAGE_TEST_CRASH_SUBJECT": "Poison"]

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "triage-poison-\(UUID().uuidString.prefix(8))"
        for leaf in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: "\(dir)/mail/\(leaf)", withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(atPath: dir + "/rules", withIntermediateDirectories: true)
        try "rule \"flag\" when from:x.test then flag, digest \"FYI\"\n"
            .write(toFile: dir + "/rules/r.rules", atomically: true, encoding: .utf8)
        // The digest's hour is never reached by the runs (at 06:00): it is previewed.
        try """
        [triage]
        rules = rules
        store = store
        timezone = UTC

        [account home]
        url = maildir:mail

        [digest]
        to = me@example.test
        from = triage@example.test
        hour = 23
        smtp = file:outbox
        """.write(toFile: dir + "/triage.conf", atomically: true, encoding: .utf8)
        let first = try triage(["run"])
        XCTAssertEqual(first.status, 0, first.err)
        // Three new messages, the second the poison (with a control character in its subject).
        for (n, subject) in ["one", "Poison \u{1B}[31mred", "three"].enumerated() {
            let message = "From: a@x.test\r\nTo: me@example.test\r\nSubject: \(subject)\r\n"
                + "Message-ID: <m\(n + 1)@x.test>\r\n\r\nBody\r\n"
            try message.write(toFile: "\(dir)/mail/new/170000000\(n + 1).M1P1.host", atomically: false, encoding: .utf8)
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func triage(_ args: [String], environment: [String: String] = [:]) throws -> TriageProcess.Result {
        try TriageProcess.run(args + ["--now", "2030-01-15T06:00", "--config", dir + "/triage.conf"], environment: environment)
    }

    /// The flagged messages' Message-IDs (the rule flags every message it sees).
    private func flagged() throws -> [String] {
        try messageFiles().filter { $0.file.contains(":2,") && $0.file.split(separator: ",").last!.contains("F") }.map(\.id).sorted()
    }

    /// Every message file of the Maildir, with its Message-ID.
    private func messageFiles() throws -> [(file: String, id: String)] {
        try ["cur", "new"].flatMap { leaf in
            try FileManager.default.contentsOfDirectory(atPath: "\(dir)/mail/\(leaf)").map { name in
                let text = try String(contentsOfFile: "\(dir)/mail/\(leaf)/\(name)", encoding: .utf8)
                let id = text.components(separatedBy: "\r\n").first { $0.hasPrefix("Message-ID: ") } ?? "?"
                return (leaf + "/" + name, id)
            }
        }
    }

    func testAMessageThatKillsEveryRunIsSkippedNotRetriedForever() throws {
        // 1: the batch of three in hand: killed. 2: retried alone, killed on the poison
        // (one has been done). 3: the poison retried alone once more: killed.
        for attempt in 1...3 {
            let killed = try triage(["run"], environment: crash)
            XCTAssertEqual(killed.status, -9, "run \(attempt): \(killed.err)")
            XCTAssertTrue(killed.err.contains("test hook: crashed on a message"), killed.err)
            XCTAssertEqual(try flagged(), attempt == 1 ? [] : ["Message-ID: <m1@x.test>"], "run \(attempt)")
        }
        // 4: a second death with it alone in hand: skipped, said, the others done.
        let skipping = try triage(["run"], environment: crash)
        XCTAssertEqual(skipping.status, 0, skipping.err)
        XCTAssertEqual(try flagged(), ["Message-ID: <m1@x.test>", "Message-ID: <m3@x.test>"])
        let lines = skipping.err.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 1, skipping.err)
        XCTAssertTrue(lines[0].hasPrefix("triage: home/INBOX: skipped: triage died twice while processing this message "
                                         + "(UID 2, Subject \"Poison [31mred\", Message-ID <m2@x.test>); it stays on the server, untouched"),
                      lines[0])
        XCTAssertFalse(skipping.err.contains("\u{1B}"), "nothing a sender writes reaches the terminal unescaped")
        // Untouched: still there, not flagged.
        XCTAssertEqual(try messageFiles().filter { $0.id == "Message-ID: <m2@x.test>" }.count, 1)

        // 5 and later: not retried, nothing said, however many runs (and --all).
        for args in [["run"], ["run"], ["run", "--all"]] {
            let later = try triage(args, environment: crash)
            XCTAssertEqual(later.status, 0, later.err)
            XCTAssertEqual(later.err, "")
        }
        XCTAssertEqual(try flagged(), ["Message-ID: <m1@x.test>", "Message-ID: <m3@x.test>"])

        // The digest's Problems names it, once.
        let preview = try TriageProcess.run(["digest", "--preview", "--text", "--date", "2030-01-16", "--now", "2030-01-16T08:00",
                                             "--config", dir + "/triage.conf"])
        XCTAssertEqual(preview.status, 0, preview.err)
        XCTAssertTrue(preview.out.contains("! Problems · 1"), preview.out)
        XCTAssertTrue(preview.out.contains("triage died twice while processing this message"), preview.out)
        XCTAssertTrue(preview.out.contains("Poison"), preview.out)
    }

    /// `triage watch` under a supervisor that restarts it (systemd's Restart=on-failure):
    /// it dies on the poison as `run` does, and after the same deaths skips it, says so
    /// and goes on watching; the other messages are done.
    func testWatchRestartedAfterEachCrashSkipsThePoisonAndGoesOn() throws {
        // Without [digest]: a watch reads the real clock, and no digest is wanted here.
        let config = try String(contentsOfFile: dir + "/triage.conf", encoding: .utf8)
        try config.replacingOccurrences(of: "timezone = UTC\n", with: "timezone = UTC\npoll_interval = 1\n")
            .components(separatedBy: "[digest]")[0]
            .write(toFile: dir + "/triage.conf", atomically: true, encoding: .utf8)
        for attempt in 1...3 {
            let watch = try WatchProcess(config: dir + "/triage.conf", environment: crash)
            XCTAssertEqual(watch.exited(within: 30), -9, "start \(attempt): \(watch.out) \(watch.err)")
            XCTAssertTrue(watch.err.contains("test hook: crashed on a message"), watch.err)
        }
        let watch = try WatchProcess(config: dir + "/triage.conf", environment: crash)
        watch.waitUntilWatching()
        XCTAssertTrue(watch.isRunning)
        XCTAssertTrue(watch.err.contains("triage: home/INBOX: skipped: triage died twice while processing this message (UID 2, "
                                         + "Subject \"Poison [31mred\", Message-ID <m2@x.test>)"), watch.err)
        XCTAssertEqual(try flagged(), ["Message-ID: <m1@x.test>", "Message-ID: <m3@x.test>"])
        XCTAssertEqual(watch.stop(), 0)
    }

    /// From each point of the poison path — a batch in hand after a death, then the
    /// poison alone in hand after two — a run killed at every step k and then rerun
    /// ends exactly as an uninterrupted run from that point: nothing lost, nothing doubled.
    func testKilledAtEveryStepOfThePoisonPathConverges() throws {
        var starts: [String] = []
        for attempt in 1...3 {
            XCTAssertEqual(try triage(["run"], environment: crash).status, -9)
            if attempt == 1 || attempt == 3 {
                let copy = dir + "-start\(attempt)"
                try? FileManager.default.removeItem(atPath: copy)
                try FileManager.default.copyItem(atPath: dir, toPath: copy)
                starts.append(copy)
            }
        }
        defer { for start in starts { try? FileManager.default.removeItem(atPath: start) } }
        var kinds = Set<String>()
        for start in starts {
            func restore() throws {
                try FileManager.default.removeItem(atPath: dir)
                try FileManager.default.copyItem(atPath: start, toPath: dir)
            }
            try restore()
            let reference = try triage(["run"])
            XCTAssertEqual(reference.status, 0, reference.err)
            let expected = try snapshot()
            // After one death with the batch in hand, nothing is skipped (the hook is off:
            // the retry finds nothing wrong); after the poison's deaths alone, it is.
            XCTAssertEqual(try flagged().count, start == starts[0] ? 3 : 2, start)
            var k = 1
            while k < 200 {
                try restore()
                let killed = try triage(["run"], environment: ["TRIAGE_TEST_KILL_AT": String(k)])
                if killed.status == 0 { break }
                XCTAssertEqual(killed.status, -9, killed.err)
                let step = CrashSweepTests.stepName(killed.err) ?? "?"
                kinds.insert(step)
                let rerun = try triage(["run"])
                XCTAssertEqual(rerun.status, 0, "killed at step \(k) (\(step)): \(rerun.err)")
                let state = try snapshot()
                if state != expected {
                    XCTFail("from \(start), killed at step \(k) (\(step)): the rerun did not converge\n"
                            + CrashSweepTests.difference(expected, state))
                }
                k += 1
            }
            XCTAssertLessThan(k, 200)
            print("poison sweep from \((start as NSString).lastPathComponent): \(k - 1) steps interrupted")
        }
        for kind in ["in hand", "in hand skipped", "in hand cleared", "state"] {
            XCTAssertTrue(kinds.contains(kind), "no kill at \(kind): \(kinds.sorted())")
        }
    }

    /// The Maildir's messages (with their flags) and every store file with its content,
    /// but for the run record (`triage status`'s history).
    private func snapshot() throws -> [String] {
        var lines = try messageFiles().map { file, id in
            "\(id) \(file.split(separator: ":").last.map(String.init) ?? "")"
        }
        let store = dir + "/store"
        let walker = FileManager.default.enumerator(atPath: store)
        while let path = walker?.nextObject() as? String {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: store + "/" + path, isDirectory: &isFolder), !isFolder.boolValue,
                  !path.hasSuffix(".run-status.json"), !path.hasSuffix("lock") else { continue }
            lines.append("store \(path) " + ((try? String(contentsOfFile: store + "/" + path, encoding: .utf8)) ?? "?"))
        }
        return lines.sorted()
    }
}
