import Foundation
import XCTest

/// How `triage run` fails on a local Maildir account: with the same exit codes as
/// on IMAP, and without stopping the other accounts or the digest.
final class MaildirAccountErrorTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "triage-maildir-errors-\(UUID().uuidString.prefix(8))"
        for account in ["first", "second"] {
            for leaf in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(atPath: "\(dir)/\(account)/\(leaf)", withIntermediateDirectories: true)
            }
            let message = "From: a@x.test\r\nTo: me@example.test\r\nSubject: hello \(account)\r\n"
                + "Message-ID: <\(account)@x.test>\r\n\r\nBody\r\n"
            try message.write(toFile: "\(dir)/\(account)/new/1700000000.M1P1.host", atomically: false, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: dir + "/rules", withIntermediateDirectories: true)
        try "rule \"flag\" when from:x.test then flag, label \"seen it\", digest \"FYI\"\n"
            .write(toFile: dir + "/rules/r.rules", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func writeConfig(firstMailboxes: String = "INBOX") throws {
        try """
        [triage]
        rules = rules
        store = store
        timezone = UTC

        [account first]
        url = maildir:first
        mailboxes = \(firstMailboxes)

        [account second]
        url = maildir:second

        [digest]
        to = me@example.test
        from = triage@example.test
        hour = 0
        smtp = file:outbox
        """.write(toFile: dir + "/triage.conf", atomically: true, encoding: .utf8)
    }

    /// Whether the second account's message was processed (flagged, so renamed into cur/ with F).
    private var secondProcessed: Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir + "/second/cur")) ?? []).contains { $0.hasSuffix(":2,Fa") }
    }

    private var digestWritten: Bool {
        !((try? FileManager.default.contentsOfDirectory(atPath: dir + "/outbox")) ?? []).isEmpty
    }

    func testAMissingMailboxExits78LikeIMAP() throws {
        try writeConfig(firstMailboxes: "Nowhere")
        let run = try TriageProcess.run(["run", "--all", "--config", dir + "/triage.conf"])
        XCTAssertEqual(run.status, 78, run.err)
        XCTAssertTrue(run.err.contains("account first: maildir:\(dir)/first: mailbox Nowhere does not exist"), run.err)
        XCTAssertTrue(secondProcessed, "the other account was skipped: \(run.err)")
        XCTAssertTrue(digestWritten, "the digest was skipped: \(run.err)")
    }

    /// The first account's Maildir mounted read-only (in a private mount namespace:
    /// the tests run as root, where mode bits would not stop a write).
    func testAMaildirThatCannotBeWrittenIsATriageErrorAndTheRunGoesOn() throws {
        try writeConfig()
        let first = dir + "/first"
        let script = "mount --bind \"$0\" \"$0\" && mount -o remount,ro,bind \"$0\" \"$0\" && exec \"$@\""
        let run = try TriageProcess.run(["--mount", "/bin/sh", "-c", script, first, TriageProcess.binary.path,
                                         "run", "--all", "--config", dir + "/triage.conf"],
                                        executable: URL(fileURLWithPath: "/usr/bin/unshare"))
        XCTAssertEqual(run.status, 75, run.err)
        XCTAssertTrue(run.err.contains("account first: maildir:\(first): cannot write \(first)/triage-uidlist: Read-only file system"),
                      run.err)
        XCTAssertFalse(run.err.contains("CocoaError") || run.err.contains("Error Domain"), run.err)
        XCTAssertTrue(secondProcessed, "the other account was skipped: \(run.err)")
        XCTAssertTrue(digestWritten, "the digest was skipped: \(run.err)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: first + "/new/1700000000.M1P1.host"), "nothing of the first is lost")
    }
}
