import Foundation
import TriageCore
import TriageIMAP
import TriageMaildir
import XCTest

/// `triage run` killed (SIGKILL, `TRIAGE_TEST_KILL_AT=k`) at every step k of a run that
/// snoozes and of a run that wakes, on Dovecot with MOVE, without it (127.0.0.4: COPY,
/// STORE \Deleted, UID EXPUNGE) and on a Maildir; after each kill a rerun must end in
/// exactly the mailboxes and store of an uninterrupted run: the message is never lost,
/// never doubled, never left in Snoozed (or snoozed again). Fixed `--now` times.
final class SnoozeCrashSweepTests: XCTestCase {
    private static let rules = """
        rule "later" when subject:later then snooze until tomorrow at 9am, digest "FYI"

        """

    /// One place the mail lives, saved and put back whole between runs.
    private struct Box {
        let folder: TestFolder
        /// The Maildir holding the account's mail (Dovecot's, with its indexes, or the test's own).
        let root: String
        let connect: () throws -> MailConnection

        func save() throws {
            try folder.saveStoreAndOutbox()
            try? FileManager.default.removeItem(atPath: folder.template + "/Maildir")
            try Spawn.run(["/bin/cp", "-a", root, folder.template + "/Maildir"])
        }

        func restore() throws {
            // A killed run's Dovecot process may still be writing: remove until it stays gone.
            for _ in 0..<100 {
                try? Spawn.run(["/bin/rm", "-rf", root])
                usleep(20_000)
                if !FileManager.default.fileExists(atPath: root) { break }
            }
            try Spawn.run(["/bin/cp", "-a", folder.template + "/Maildir", root])
            try folder.restoreStoreAndOutbox()
        }

        /// Every message (mailbox, Message-ID, subject, flags) and every store record, times and UIDs masked.
        func snapshot() throws -> [String] {
            let connection = try connect()
            defer { connection.close() }
            var lines: [String] = []
            for mailbox in ["INBOX", "Snoozed"] {
                do { _ = try connection.open(mailbox, readOnly: true) } catch let error as MailError where error.kind == .missingFolder {
                    continue
                }
                let uids = try connection.uids(above: 0)
                guard !uids.isEmpty else { continue }
                for item in try connection.fetch(uids) {
                    let header = String(decoding: item.header, as: UTF8.self)
                    let subject = header.range(of: "Subject: ").map { String(header[$0.upperBound...].prefix { !$0.isNewline }) } ?? "?"
                    let id = HeaderField.messageID(in: item.header) ?? "?"
                    lines.append("\(mailbox) \(id) \"\(subject)\" flags(\(item.flags.subtracting(["\\Recent"]).sorted().joined(separator: " ")))")
                }
            }
            return (lines + folder.storeLines(maskUIDs: true)).sorted()
        }
    }

    private static func message(_ subject: String, _ id: String) -> String {
        "From: Ann <ann@x.test>\nTo: me@example.test\nSubject: \(subject)\nMessage-ID: <\(id)@x.test>\n"
            + "Date: Tue, 01 Dec 2026 08:00:00 +0000\n\nHello.\n"
    }

    private static let corpus = [("later one", "l1", "S"), ("plain", "p1", "S"), ("later two", "l2", "")]

    private func dovecot(_ purpose: String, host: String) throws -> Box {
        let server = try DovecotServer.shared()
        let user = try server.makeUser(purpose)
        for (subject, id, flags) in Self.corpus { try server.seed(user: user, Self.message(subject, id), flags: flags) }
        let folder = try TestFolder(purpose, rules: Self.rules, tmpfs: true)
        try folder.writeConfig(url: "imaps://\(host):\(server.imapsPort)", user: user, caFile: server.caFile)
        return Box(folder: folder, root: server.maildir(user: user), connect: { try server.connect(user: user) })
    }

    private func maildir(_ purpose: String) throws -> Box {
        let folder = try TestFolder(purpose, rules: Self.rules, tmpfs: true)
        let root = folder.dir + "/mail"
        for sub in ["cur", "new", "tmp"] { try FileManager.default.createDirectory(atPath: root + "/" + sub, withIntermediateDirectories: true) }
        for (n, (subject, id, flags)) in Self.corpus.enumerated() {
            try Self.message(subject, id).write(toFile: root + "/cur/\(n).test:2,\(flags)", atomically: true, encoding: .utf8)
        }
        try folder.writeConfig([ConfigSection.triage(), ConfigSection("account test", ["url": "maildir:mail"])])
        return Box(folder: folder, root: root, connect: { try MaildirConnection(root: root) })
    }

    func testKilledAtEveryStepOfSnoozeAndWakeConvergesWithMove() throws {
        try sweepBoth(try dovecot("snooze-sweep-move", host: "localhost"), expect: ["UID MOVE", "wake move"])
    }

    func testKilledAtEveryStepOfSnoozeAndWakeConvergesWithoutMove() throws {
        try sweepBoth(try dovecot("snooze-sweep-copy", host: "127.0.0.4"),
                      expect: ["UID COPY", "UID EXPUNGE", "journal copy", "journal copied", "wake move"])
    }

    func testKilledAtEveryStepOfSnoozeAndWakeConvergesOnMaildir() throws {
        try sweepBoth(try maildir("snooze-sweep-maildir"), expect: ["wake move"])
    }

    /// Snooze (the run at 10:00 on 1 Dec), then wake (at 09:00 the next day), each swept.
    private func sweepBoth(_ box: Box, expect kinds: [String]) throws {
        defer { box.folder.remove() }
        let snoozed = try sweep(box, ["run", "--all", "--now", "2026-12-01T10:00"])
        XCTAssertEqual(snoozed.reference.filter { !$0.hasPrefix("store ") },
                       ["INBOX p1@x.test \"plain\" flags(\\Seen)", "Snoozed l1@x.test \"later one\" flags(\\Seen)", "Snoozed l2@x.test \"later two\" flags()"])
        XCTAssertEqual(snoozed.reference.filter { $0.hasPrefix("store snooze/snoozed/") }.count, 2)
        let woken = try sweep(box, ["run", "--now", "2026-12-02T09:00"])
        XCTAssertEqual(woken.reference.filter { !$0.hasPrefix("store ") },
                       ["INBOX l1@x.test \"later one\" flags()", "INBOX l2@x.test \"later two\" flags()", "INBOX p1@x.test \"plain\" flags(\\Seen)"])
        XCTAssertEqual(woken.reference.filter { $0.hasPrefix("store snooze/woken/") }.count, 2)
        XCTAssertEqual(woken.reference.filter { $0.contains("\"section\": \"Back today\"") }.count, 2,
                       woken.reference.joined(separator: "\n"))
        for kind in ["UID STORE", "wake flags", "wake journal", "wake digest", "wake store", "store", "state"] + kinds
        where !kind.hasPrefix("UID") || box.root.contains("/home/") {
            XCTAssertTrue((snoozed.steps + woken.steps).contains { $0 == kind || $0.hasPrefix(kind + " ") }, "no kill at \(kind): "
                          + "\(Set(snoozed.steps + woken.steps).sorted())")
        }
    }

    /// Kills `args` at every step from the saved start; returns the uninterrupted run's
    /// snapshot (the start of the next phase, saved) and the steps killed at.
    private func sweep(_ box: Box, _ args: [String]) throws -> (reference: [String], steps: [String]) {
        try box.save()
        let uninterrupted = try box.folder.triage(args)
        XCTAssertEqual(uninterrupted.status, 0, uninterrupted.err)
        let reference = try box.snapshot()
        var steps: [String] = []
        var failures = 0
        var k = 1
        while failures < 3 && k < 400 {
            try box.restore()
            let killed = try box.folder.triage(args, environment: ["TRIAGE_TEST_KILL_AT": String(k)])
            if killed.status != -9 {
                XCTAssertEqual(killed.status, 0, killed.err)
                XCTAssertEqual(try box.snapshot(), reference, "a run with the hook armed but not fired")
                break
            }
            let step = CrashSweepTests.stepName(killed.err) ?? "?"
            steps.append(step)
            let rerun = try box.folder.triage(args)
            XCTAssertEqual(rerun.status, 0, "\(args) killed at step \(k) (\(step)); rerun: \(rerun.err)")
            let state = try box.snapshot()
            if state != reference {
                failures += 1
                XCTFail("\(args) killed at step \(k) (\(step)): the rerun did not converge\n"
                        + "expected: \(reference.joined(separator: "\n"))\ngot: \(state.joined(separator: "\n"))")
            }
            k += 1
        }
        // The next phase starts from the uninterrupted run's end.
        try box.restore()
        let again = try box.folder.triage(args)
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual(try box.snapshot(), reference)
        print("snooze sweep \(args.joined(separator: " ")): \(steps.count) steps: \(steps)")
        return (reference, steps)
    }

    // MARK: - A digest reply's snooze

    /// The run that reads a reply `snooze ID until DAY` (it records the snooze, then puts
    /// the message away) and the run that wakes it, each killed at every step.
    func testKilledAtEveryStepOfADigestReplysSnoozeConvergesWithoutMove() throws {
        let server = try DovecotServer.shared()
        let user = try server.makeUser("snooze-reply-sweep")
        try server.createMailbox(user: user, "Trash")
        try server.seed(user: user, Self.message("news today", "n1"), flags: "S")
        let folder = try TestFolder("snooze-reply-sweep", rules: "rule \"news\" when subject:news then digest \"FYI\"\n", tmpfs: true)
        try folder.writeConfig([ConfigSection.triage(), ConfigSection("account test", [
            "url": "imaps://127.0.0.4:\(server.imapsPort)", "user": user, "password_command": "cat \(folder.dir)/pw",
            "ca_file": server.caFile,
        ]), ConfigSection("digest", ["to": "me@example.test", "from": "triage@example.test", "hour": "0",
                                     "smtp": "file:\(folder.outbox)", "trash": "Trash"])])
        try RunSandbox.pinDigestSecret(store: folder.store)
        let box = Box(folder: folder, root: server.maildir(user: user), connect: { try server.connect(user: user) })
        defer { folder.remove() }
        let first = try folder.triage(["run", "--all", "--now", "2026-12-01T10:00"])
        XCTAssertEqual(first.status, 0, first.err)
        let sent = try String(contentsOfFile: folder.outbox + "/" + XCTUnwrap(folder.outboxFiles().first), encoding: .utf8)
        let match = try XCTUnwrap(try NSRegularExpression(pattern: #"\[([0-9a-f]{4,})\] Ann "#)
            .firstMatch(in: sent, range: NSRange(sent.startIndex..., in: sent)), sent)
        let short = String(sent[Range(match.range(at: 1), in: sent)!])
        let digestID = try XCTUnwrap(sent.range(of: "Message-ID: <").map { String(sent[$0.upperBound...].prefix { $0 != ">" }) })
        try server.seed(user: user, "From: Me <me@example.test>\nTo: me@example.test\nSubject: Re: digest\n"
                        + "Message-ID: <r1@phone.example>\nIn-Reply-To: <\(digestID)>\nDate: Tue, 01 Dec 2026 11:00:00 +0000\n\n"
                        + "snooze \(short) until 2026-12-03\n")

        let put = try sweep(box, ["run", "--now", "2026-12-01T11:00"])
        XCTAssertEqual(put.reference.filter { !$0.hasPrefix("store ") }, ["Snoozed n1@x.test \"news today\" flags(\\Seen)"],
                       "the reply's message went to Trash, the listed one to Snoozed")
        let back = try sweep(box, ["run", "--now", "2026-12-03T08:00"])
        XCTAssertEqual(back.reference.filter { !$0.hasPrefix("store ") }, ["INBOX n1@x.test \"news today\" flags()"])
        for kind in ["snooze journal", "snooze move", "snooze store", "UID COPY", "wake move"] {
            XCTAssertTrue((put.steps + back.steps).contains(kind), "no kill at \(kind): \(Set(put.steps + back.steps).sorted())")
        }
    }
}
