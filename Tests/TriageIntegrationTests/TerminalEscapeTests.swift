import Foundation
import TriageCore
import XCTest

/// Nothing a sender writes reaches the terminal as control (issue 11, item 5).
///
/// One message carries every way in: a raw ESC sequence, an RFC 2047 `=1B`
/// (Q and B), an encoded CR LF that would forge a line, a raw C1 CSI (U+009B in
/// UTF-8) and an encoded one, a BEL, an encoded bare CR. Each command that shows
/// it must write no ESC, no CSI, no BEL, no bare CR and no forged line, as bytes.
final class TerminalEscapeTests: XCTestCase {
    private var folder = ""
    private var config: String { folder + "/triage.conf" }
    private var messageFile: String { folder + "/evil.eml" }

    /// Q-encoded ESC, BEL and CR LF in the name and subject; raw ESC and CSI after
    /// them; a B-encoded word with a bare CR and an encoded CSI.
    static let message: [UInt8] = {
        let encodedTail = Data("tail\rover\u{9B}6n".utf8).base64EncodedString()
        var text = "From: =?UTF-8?Q?Evil=1B]0;owned=07?= \u{1B}[31mCorp <evil@example.test>\r\n"
        text += "To: me@example.test\r\n"
        text += "Subject: =?UTF-8?Q?Invoice=1B[2J_paid=0D=0Aforged:_line?= raw\u{1B}[31mred \u{9B}2J =?UTF-8?B?\(encodedTail)?=\r\n"
        text += "Message-ID: <esc1@example.test>\r\nDate: Mon, 30 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\n"
        text += "Content-Type: multipart/mixed; boundary=b\r\n\r\n"
        text += "--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nBody \u{1B}[2J text \u{9B}31m and \roverwrite\r\n"
        text += "--b\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=\"=?UTF-8?Q?bill=1B[8m.pdf?=\"\r\n\r\nJVBERi0K\r\n--b--\r\n"
        return Array(text.utf8)
    }()

    /// What triage shows for the subject and the sender's name: each control a space.
    static let subject = "Invoice [2J paid  forged: line raw [31mred  2J tail over 6n"
    static let name = "Evil ]0;owned   [31mCorp"

    override func setUp() {
        folder = FileManager.default.temporaryDirectory.path + "/triage-escapes-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: folder + "/rules", withIntermediateDirectories: true)
        for sub in ["cur", "new", "tmp"] {
            try! FileManager.default.createDirectory(atPath: folder + "/Maildir/" + sub, withIntermediateDirectories: true)
        }
        XCTAssertTrue(FileManager.default.createFile(atPath: messageFile, contents: Data(Self.message)))
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/Maildir/new/1.triage-test", contents: Data(Self.message)))
        try! """
        rule "evil"
          when from:evil@example.test
          then digest "{from.name}", queue rec, remind "Pay {subject}" in 2 days note "from {from}"

        """.write(toFile: folder + "/rules/r.rules", atomically: true, encoding: .utf8)
        try! """
        [triage]
        me = me@example.test
        rules = rules
        store = store
        timezone = UTC

        [account m]
        url = maildir:Maildir

        [digest]
        to = me@example.test
        from = triage@example.test
        hour = 0
        smtp = file:outbox

        """.write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func triage(_ args: String...) throws -> TriageProcess.Result {
        try TriageProcess.run(args + ["--config", config], directory: folder)
    }

    /// No control character but TAB, LF and CR LF; no line a sender forged.
    static func assertClean(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let scalars = Array(text.unicodeScalars)
        for (i, scalar) in scalars.enumerated() where ControlCharacters.isControl(scalar) {
            if scalar == "\t" || scalar == "\n" { continue }
            if scalar == "\r", i + 1 < scalars.count, scalars[i + 1] == "\n" { continue }
            XCTFail("\(what) writes control U+\(String(scalar.value, radix: 16, uppercase: true)) at \(i): \(text.debugDescription)",
                    file: file, line: line)
            return
        }
        for output in text.split(separator: "\n") where output.trimmingCharacters(in: .whitespaces).hasPrefix("forged") {
            XCTFail("\(what) has a forged line: \(output.debugDescription)", file: file, line: line)
        }
    }

    func testInspectShowsNoControls() throws {
        let run = try TriageProcess.run(["inspect", messageFile])
        XCTAssertEqual(run.status, 0, run.err)
        Self.assertClean(run.out, "inspect")
        XCTAssertTrue(run.out.contains("  Subject:      \(Self.subject)\n"), run.out)
        XCTAssertTrue(run.out.contains("  From:         \(Self.name) <evil@example.test>\n"), run.out)
        XCTAssertTrue(run.out.contains("  Snippet:      Body [2J text 31m and overwrite\n"), run.out)
        XCTAssertTrue(run.out.contains("bill [8m.pdf"), run.out)
    }

    func testInspectJSONHasNoControls() throws {
        let run = try TriageProcess.run(["inspect", "--json", messageFile])
        XCTAssertEqual(run.status, 0, run.err)
        Self.assertClean(run.out, "inspect --json")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        XCTAssertEqual(object["subject"] as? String, Self.subject)
        XCTAssertEqual((object["from"] as? [[String: Any]])?.first?["name"] as? String, Self.name)
        XCTAssertEqual(object["attachments"] as? [String], ["bill [8m.pdf"])
    }

    func testTestCommandShowsNoControlsInTextOrJSON() throws {
        let run = try triage("test", messageFile)
        XCTAssertEqual(run.status, 0, run.err)
        Self.assertClean(run.out, "test")
        XCTAssertTrue(run.out.contains("digest \"\(Self.name)\"\n"), run.out)
        XCTAssertTrue(run.out.contains("remind \"Pay \(Self.subject)\""), run.out)
        let json = try triage("test", "--json", messageFile)
        XCTAssertEqual(json.status, 0, json.err)
        Self.assertClean(json.out, "test --json")
        XCTAssertTrue(json.out.contains("\"section\":\"\(Self.name)\""), json.out)
    }

    func testRunQueueRemindDigestAndExportShowNoControls() throws {
        let run = try triage("run", "--all", "--verbose")
        XCTAssertEqual(run.status, 0, run.err)
        Self.assertClean(run.out, "run --verbose")
        Self.assertClean(run.err, "run --verbose (standard error)")
        XCTAssertTrue(run.out.contains("\"\(Self.subject)\""), run.out)
        XCTAssertTrue(run.out.contains("digest \"\(Self.name)\""), run.out)

        let queue = try triage("queue")
        XCTAssertEqual(queue.status, 0, queue.err)
        Self.assertClean(queue.out, "queue")
        XCTAssertTrue(queue.out.contains("  \(Self.name)  \(Self.subject)\n"), queue.out)

        let remind = try triage("remind")
        XCTAssertEqual(remind.status, 0, remind.err)
        Self.assertClean(remind.out, "remind")
        XCTAssertTrue(remind.out.contains("  Pay \(Self.subject)\n"), remind.out)

        // The digest section is named after the sender: one line, no controls.
        let digest = try triage("digest", "--preview", "--text")
        XCTAssertEqual(digest.status, 0, digest.err)
        Self.assertClean(digest.out, "digest --preview --text")
        XCTAssertTrue(digest.out.contains("\n\(Self.name) · 1\n"), digest.out)

        let ics = try triage("export", "ics")
        XCTAssertEqual(ics.status, 0, ics.err)
        Self.assertClean(ics.out, "export ics")
        XCTAssertTrue(ics.out.contains("SUMMARY:Pay Invoice [2J paid  forged: line raw [31mred  2J tail ov"), ics.out)
    }

    /// Records written before the fix (or typed by the user) may hold controls:
    /// what the commands print is filtered on its way to the terminal too, and the
    /// iCalendar export writes no control RFC 5545 forbids.
    func testStoredControlsAreFilteredOnOutput() throws {
        let zone = TimeZone(identifier: "UTC")!
        let store = Store(path: folder + "/store", timeZone: zone)
        let stamp = Timestamp(Date(timeIntervalSince1970: 1_796_032_800), timeZone: zone)  // 2026-12-01
        let summary = MessageSummary(from: Address(name: "Old\u{1B}]2;x\u{07}", address: "old@example.test"),
                                     subject: "Stored\u{1B}[2J\u{9B}1m\rback\r\nforged line", messageID: "old@example.test",
                                     account: "m", mailbox: "INBOX", uid: 1)
        var batch = StoreBatch()
        batch.add(QueueEntry(id: String(repeating: "a", count: 32), queue: "rec", created: stamp, due: stamp.localDay,
                             rule: "r", message: summary))
        batch.add(Reminder(id: String(repeating: "b", count: 32), title: "Title\u{1B}[5m\u{9B}\rover\nforged line",
                           note: "a\u{1B}]0;t\u{07}\r\nb\rc", due: stamp.localDay, created: stamp, rule: "r", message: summary))
        _ = try store.write(batch)

        let queue = try triage("queue")
        XCTAssertEqual(queue.status, 0, queue.err)
        Self.assertClean(queue.out, "queue (stored)")
        XCTAssertTrue(queue.out.contains("Old ]2;x "), queue.out)
        XCTAssertTrue(queue.out.contains("Stored [2J 1m back  forged line\n"), queue.out)

        let remind = try triage("remind")
        XCTAssertEqual(remind.status, 0, remind.err)
        Self.assertClean(remind.out, "remind (stored)")
        XCTAssertTrue(remind.out.contains("Title [5m  over forged line\n"), remind.out)

        let ics = try triage("export", "ics")
        XCTAssertEqual(ics.status, 0, ics.err)
        Self.assertClean(ics.out, "export ics (stored)")
        XCTAssertTrue(ics.out.contains("SUMMARY:Title [5m  over forged line\r\n"), ics.out)
    }

    /// Server text in an error and the IMAP trace: a refused LOGIN whose text holds
    /// ESC, BEL and a C1 CSI reaches standard error as plain text.
    func testServerTextInErrorsAndTracesIsFiltered() throws {
        let dovecot = try DovecotServer.shared()
        let server = try FakeIMAPServer(.escape, dovecot: dovecot)
        defer { server.stop() }
        try """
        [triage]
        me = me@example.test
        rules = rules
        store = store

        [account fake]
        url = imaps://localhost:\(server.port)
        user = me
        password = secret-pw
        ca_file = \(dovecot.caFile)

        """.write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)
        let run = try TriageProcess.run(["run", "--verbose", "--config", config], environment: ["TRIAGE_TRACE": "1"],
                                        directory: folder)
        XCTAssertEqual(run.status, 77, run.err)
        Self.assertClean(run.err, "run (refused login, with trace)")
        Self.assertClean(run.out, "run (refused login, with trace)")
        XCTAssertTrue(run.err.contains("S: 1 NO [AUTHENTICATIONFAILED]  ]0;owned Denied  2J  [2Jhere\n"), run.err)
        XCTAssertTrue(run.err.contains("refused the login for me ( ]0;owned Denied  2J  [2Jhere);"), run.err)
    }
}
