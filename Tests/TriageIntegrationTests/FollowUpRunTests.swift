import Foundation
import TriageTestSupport
import XCTest

/// Follow-ups on sent mail, end to end with `triage run` over Maildir and Dovecot: a
/// rule with `in:Sent` reads the Sent folder without it being listed (Dovecot's is
/// "Sent Messages", marked `\Sent` by dovecot.sh; the Maildir's `.Sent`); three sent
/// quotes make three follow-ups due three days after sending; a reply from the client
/// closes one and a reply from the user does not; `run --all` over both folders makes
/// none for a quote already answered; the digest lists the open ones under "Waiting for".
final class FollowUpRunTests: XCTestCase {
    private var folder: TestFolder!
    private let rules = """
    rule "quotes want an answer"
      when in:Sent subject:quote
      then follow up in 3 days

    """

    /// Where the mail lives: Dovecot (over IMAP) or a Maildir the account reads directly.
    private struct Mail {
        var seed: (_ mailbox: String, _ message: String, _ date: Date) throws -> Void
        var sentFolder: String
        var files: (_ mailbox: String) -> [String]
    }

    override func setUpWithError() throws {
        folder = try TestFolder("follow-up", rules: rules)
    }

    override func tearDownWithError() throws {
        folder?.remove()
    }

    private func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    private var digest: ConfigSection {
        ConfigSection("digest", ["to": "me@example.test", "from": "triage@example.test", "hour": "0", "smtp": "file:\(folder.outbox)"])
    }

    private func dovecot(mailboxes: String = "INBOX", sent: String = "Sent Messages", sentKey: Bool = false) throws -> Mail {
        let server = try DovecotServer.shared()
        let user = try server.makeUser("follow-up")
        try server.createMailbox(user: user, sent)
        var lines: KeyValuePairs<String, String> = [:]
        if sentKey { lines = ["sent": sent] }
        try folder.writeConfig(url: "imaps://localhost:\(server.imapsPort)", user: user, caFile: server.caFile, mailboxes: mailboxes,
                               accountLines: lines, digest: true)
        return Mail(seed: { try server.seed(user: user, mailbox: $0, $1, date: $2) }, sentFolder: sent,
                    files: { server.files(user: user, mailbox: $0) })
    }

    private func maildir(mailboxes: String = "INBOX") throws -> Mail {
        let root = folder.dir + "/mail"
        for box in ["", "/.Sent"] {
            for leaf in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(atPath: root + box + "/" + leaf, withIntermediateDirectories: true)
            }
        }
        try folder.writeConfig([ConfigSection.triage(), ConfigSection("account test", ["url": "maildir:mail", "mailboxes": mailboxes]),
                                digest])
        var counter = 0
        func path(_ mailbox: String) -> String { mailbox == "INBOX" ? root : root + "/." + mailbox }
        return Mail(seed: { mailbox, message, date in
            counter += 1
            let file = path(mailbox) + "/cur/\(Int(date.timeIntervalSince1970)).M\(counter)P1.test:2,"
            try message.write(toFile: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: file)
        }, sentFolder: "Sent", files: { mailbox in
            ["cur", "new"].flatMap { (try? FileManager.default.contentsOfDirectory(atPath: path(mailbox) + "/" + $0)) ?? [] }.sorted()
        })
    }

    private func quote(_ n: Int) -> String {
        "From: Me <me@example.test>\nTo: Client \(n) <c\(n)@client.test>\nSubject: Quote \(n)\n"
            + "Date: Mon, 30 Nov 2026 10:00:0\(n) +0000\nMessage-ID: <quote\(n)@example.test>\n\nThe quote.\n"
    }

    private func reply(to n: Int, from: String, id: String) -> String {
        "From: \(from)\nTo: me@example.test\nSubject: Re: Quote \(n)\nDate: Tue, 01 Dec 2026 09:00:00 +0000\n"
            + "Message-ID: <\(id)>\nIn-Reply-To: <quote\(n)@example.test>\nReferences: <quote\(n)@example.test>\n\nThanks.\n"
    }

    @discardableResult
    private func run(_ now: String, _ extra: String...) throws -> TriageProcess.Result {
        let result = try folder.triage(["run", "--now", now] + extra)
        XCTAssertEqual(result.status, 0, result.err)
        return result
    }

    /// The reminders in the store: `STATUS TITLE due DAY`, sorted.
    private func reminders() throws -> [String] {
        var lines: [String] = []
        for status in ["open", "done", "removed"] {
            let dir = folder.store + "/reminders/" + status
            for file in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where file.hasSuffix(".json") {
                let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + file))
                let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
                lines.append("\(status) \(json["title"] as? String ?? "?") due \(json["due"] as? String ?? "?")")
            }
        }
        return lines.sorted()
    }

    private func answerOfDone() throws -> [String: Any]? {
        let dir = folder.store + "/reminders/done"
        guard let file = try FileManager.default.contentsOfDirectory(atPath: dir).first(where: { $0.hasSuffix(".json") }) else { return nil }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/" + file))) as? [String: Any]
        return (json?["follow_up"] as? [String: Any])?["answer"] as? [String: Any]
    }

    // MARK: - Three quotes, one answer

    private func threeQuotesOneAnswer(_ mail: Mail) throws {
        // The first run of both folders only notes where they end (as for any mailbox).
        try run("2026-11-30T09:00:00Z")
        let states = (try? FileManager.default.contentsOfDirectory(atPath: folder.store + "/state/test")) ?? []
        XCTAssertTrue(states.contains { $0.hasPrefix("Sent") && $0.hasSuffix(".json") }, "the Sent folder is read without being listed: \(states)")
        for n in 1...3 { try mail.seed(mail.sentFolder, quote(n), date("2026-11-30T10:00:0\(n)Z")) }
        let sentBefore = mail.files(mail.sentFolder)
        try run("2026-12-01T08:00:00Z")
        XCTAssertEqual(try reminders(), ["open No reply from Client 1: Quote 1 due 2026-12-03",
                                         "open No reply from Client 2: Quote 2 due 2026-12-03",
                                         "open No reply from Client 3: Quote 3 due 2026-12-03"])
        XCTAssertEqual(mail.files(mail.sentFolder), sentBefore, "the Sent folder is left as it was")

        // The client answers quote 2; the user's own follow-up mail on quote 1 is no answer.
        try mail.seed("INBOX", reply(to: 2, from: "Client 2 <c2@client.test>", id: "answer2@client.test"), date("2026-12-01T09:00:00Z"))
        try mail.seed("INBOX", reply(to: 1, from: "Me <me@example.test>", id: "nudge1@example.test"), date("2026-12-01T09:00:01Z"))
        let closing = try run("2026-12-01T12:00:00Z", "--verbose")
        XCTAssertTrue(closing.out.contains("follow-up answered by c2@client.test, closed: No reply from Client 2: Quote 2"), closing.out)
        XCTAssertEqual(try reminders(), ["done No reply from Client 2: Quote 2 due 2026-12-03",
                                         "open No reply from Client 1: Quote 1 due 2026-12-03",
                                         "open No reply from Client 3: Quote 3 due 2026-12-03"])
        XCTAssertEqual(try answerOfDone()?["message_id"] as? String, "answer2@client.test")

        // The digest's Waiting for section: the two open ones, with how long.
        let preview = try folder.triage(["digest", "--preview", "--text", "--date", "2026-12-02", "--now", "2026-12-02T08:00:00Z"])
        XCTAssertEqual(preview.status, 0, preview.err)
        XCTAssertTrue(preview.out.contains("Waiting for · 2"), preview.out)
        XCTAssertTrue(preview.out.contains("• Client 1: Quote 1 — 2 days\n  follow up on Thu 3 Dec\n"), preview.out)
        XCTAssertTrue(preview.out.contains("• Client 3: Quote 3 — 2 days"), preview.out)
        XCTAssertFalse(preview.out.contains("Client 2: Quote 2"), preview.out)

        // `triage remind done` works on one, as on any reminder.
        let list = try folder.triage(["remind", "list", "--json", "--now", "2026-12-02T08:00:00Z"])
        XCTAssertEqual(list.status, 0, list.err)
        XCTAssertTrue(list.out.contains("\"follow_up\""), list.out)
    }

    func testThreeSentQuotesOneAnswerOnMaildir() throws {
        try threeQuotesOneAnswer(try maildir())
    }

    func testThreeSentQuotesOneAnswerOnDovecotsSpecialUseSentFolder() throws {
        try threeQuotesOneAnswer(try dovecot())
    }

    func testTheAccountsSentKeyNamesTheFolder() throws {
        let mail = try dovecot(sent: "Outbox/Done", sentKey: true)
        try run("2026-11-30T09:00:00Z")
        try mail.seed("Outbox/Done", quote(1), date("2026-11-30T10:00:01Z"))
        try run("2026-12-01T08:00:00Z")
        XCTAssertEqual(try reminders(), ["open No reply from Client 1: Quote 1 due 2026-12-03"])

        // A folder that is not there: the run says so (78), the rest of the account is read.
        var config = try String(contentsOfFile: folder.config, encoding: .utf8)
        config = config.replacingOccurrences(of: "sent = Outbox/Done", with: "sent = Outbox/Gone")
        try config.write(toFile: folder.config, atomically: true, encoding: .utf8)
        let missing = try folder.triage(["run", "--now", "2026-12-01T09:00:00Z"])
        XCTAssertEqual(missing.status, 78, missing.err)
        XCTAssertTrue(missing.err.contains("folder \"Outbox/Gone\" does not exist"), missing.err)
        XCTAssertTrue(missing.err.contains("no sent mail is read: create it or fix sent = in [account test]"), missing.err)
    }

    // MARK: - History

    private func history(_ mail: Mail) throws {
        for n in 1...3 { try mail.seed(mail.sentFolder, quote(n), date("2026-11-30T10:00:0\(n)Z")) }
        try mail.seed("INBOX", reply(to: 2, from: "Client 2 <c2@client.test>", id: "answer2@client.test"), date("2026-12-01T09:00:00Z"))
        try run("2026-12-01T12:00:00Z", "--all")
        XCTAssertEqual(try reminders(), ["open No reply from Client 1: Quote 1 due 2026-12-03",
                                         "open No reply from Client 3: Quote 3 due 2026-12-03"],
                       "no follow-up for the quote answered before the first run")
        // Again: nothing doubles, nothing comes back.
        try run("2026-12-01T13:00:00Z", "--all")
        XCTAssertEqual(try reminders().count, 2)
    }

    func testRunAllWithHistoryOnMaildir() throws {
        try history(try maildir())
    }

    func testRunAllWithHistoryOnDovecot() throws {
        try history(try dovecot())
    }

    /// Sent listed before INBOX: the answered quote's follow-up is made and closed in the
    /// same run, so it is never open.
    func testRunAllWithSentReadFirst() throws {
        let mail = try maildir(mailboxes: "Sent, INBOX")
        for n in 1...2 { try mail.seed("Sent", quote(n), date("2026-11-30T10:00:0\(n)Z")) }
        try mail.seed("INBOX", reply(to: 2, from: "c2@client.test", id: "answer2@client.test"), date("2026-12-01T09:00:00Z"))
        try run("2026-12-01T12:00:00Z", "--all")
        XCTAssertEqual(try reminders(), ["done No reply from Client 2: Quote 2 due 2026-12-03",
                                         "open No reply from Client 1: Quote 1 due 2026-12-03"])
    }

    // MARK: - watch

    /// `triage watch` reads the Sent folder too (its own poll), makes the follow-up and
    /// closes it when the answer lands in INBOX.
    func testWatchReadsTheSentFolderAndClosesOnTheAnswer() throws {
        _ = try maildir()
        var config = try String(contentsOfFile: folder.config, encoding: .utf8)
        config = config.replacingOccurrences(of: "[triage]\n", with: "[triage]\npoll_interval = 1\n")
        try config.write(toFile: folder.config, atomically: true, encoding: .utf8)
        let watch = try WatchProcess(config: folder.config)
        watch.waitUntilWatching(mailboxes: 2)
        XCTAssertTrue(watch.out.contains("test/Sent: watching with a look every 1 s (no IDLE) (the Sent folder, for in:Sent)"),
                      watch.out + watch.err)
        try quote(1).write(toFile: folder.dir + "/mail/.Sent/new/1.quote", atomically: true, encoding: .utf8)
        XCTAssertTrue(WatchProcess.waitUntil(30) { (try? self.reminders()) == ["open No reply from Client 1: Quote 1 due 2026-12-03"] },
                      "\((try? reminders()) ?? []) \(watch.out) \(watch.err)")
        try reply(to: 1, from: "c1@client.test", id: "answer1@client.test")
            .write(toFile: folder.dir + "/mail/new/2.answer", atomically: true, encoding: .utf8)
        XCTAssertTrue(WatchProcess.waitUntil(30) { (try? self.reminders()) == ["done No reply from Client 1: Quote 1 due 2026-12-03"] },
                      "\((try? reminders()) ?? []) \(watch.out) \(watch.err)")
        XCTAssertEqual(watch.stop(), 0)
        XCTAssertEqual(watch.err, "")
    }

    // MARK: - check --connect, and an account without a Sent folder

    func testCheckConnectNamesTheSentFolderAndARunSaysWhenThereIsNone() throws {
        let server = try DovecotServer.shared()
        _ = try dovecot()
        let check = try folder.triage(["check", "--connect"])
        XCTAssertEqual(check.status, 0, check.err)
        XCTAssertTrue(check.out.contains("test: in:Sent reads \"Sent Messages\" on localhost:\(server.imapsPort)"), check.out)

        // A user whose server marks no folder \Sent (none exists): check fails, a run says it.
        let bare = try server.makeUser("follow-up-no-sent")
        try folder.writeConfig(url: "imaps://localhost:\(server.imapsPort)", user: bare, caFile: server.caFile)
        let missing = try folder.triage(["check", "--connect"])
        XCTAssertEqual(missing.status, 78, missing.err)
        XCTAssertTrue(missing.err.contains("a rule reads in:Sent, but localhost:\(server.imapsPort) marks no folder \\Sent"), missing.err)
        let run = try folder.triage(["run", "--now", "2026-12-01T08:00:00Z"])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.err.contains("no sent mail is read: set sent = FOLDER"), run.err)
    }

    /// A server set up without SPECIAL-USE (no folder marked `\Sent`) but with a folder
    /// named as mail clients name it: that folder is the Sent folder, for `check` and `run`.
    func testAFolderNamedSentIsTheSentFolderWithoutSpecialUse() throws {
        let server = try DovecotServer.shared()
        // "Sent" is no SPECIAL-USE folder in the test server's configuration ("Sent Messages" is).
        let mail = try dovecot(sent: "Sent")
        try mail.seed("Sent", quote(1), date("2026-11-30T10:00:01Z"))
        let check = try folder.triage(["check", "--connect"])
        XCTAssertEqual(check.status, 0, check.err)
        XCTAssertTrue(check.out.contains("test: in:Sent reads \"Sent\" on localhost:\(server.imapsPort)"), check.out)
        let run = try folder.triage(["run", "--all", "--now", "2026-12-01T08:00:00Z"])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertFalse(run.err.contains("no sent mail is read"), run.err)
        XCTAssertEqual(try reminders(), ["open No reply from Client 1: Quote 1 due 2026-12-03"])
    }

    // MARK: - Crash safety

    /// `run --all` killed at every step (`TRIAGE_TEST_KILL_AT`: each store file, each
    /// runner step, the follow-up index) and run again ends as an uninterrupted run: the
    /// answered quote's follow-up done, the other open, nothing twice.
    func testAKillAtAnyStepThenARerunConverges() throws {
        let mail = try maildir(mailboxes: "Sent, INBOX")
        for n in 1...2 { try mail.seed("Sent", quote(n), date("2026-11-30T10:00:0\(n)Z")) }
        try mail.seed("INBOX", reply(to: 2, from: "c2@client.test", id: "answer2@client.test"), date("2026-12-01T09:00:00Z"))
        let pristine = folder.dir + "/pristine"
        try Spawn.run(["/bin/cp", "-a", folder.dir + "/mail", pristine])
        func restore() throws {
            for path in [folder.dir + "/mail", folder.store, folder.outbox] { try? FileManager.default.removeItem(atPath: path) }
            try Spawn.run(["/bin/cp", "-a", pristine, folder.dir + "/mail"])
        }
        let args = ["run", "--all", "--now", "2026-12-01T12:00:00Z"]
        XCTAssertEqual(try folder.triage(args).status, 0)
        let reference = try reminders()
        XCTAssertEqual(reference, ["done No reply from Client 2: Quote 2 due 2026-12-03",
                                   "open No reply from Client 1: Quote 1 due 2026-12-03"])
        var k = 1
        while k < 200 {
            try restore()
            let killed = try folder.triage(args, environment: ["TRIAGE_TEST_KILL_AT": String(k)])
            if killed.status != -9 {
                XCTAssertEqual(killed.status, 0, killed.err)
                break
            }
            let rerun = try folder.triage(args)
            XCTAssertEqual(rerun.status, 0, "after a kill at step \(k): \(rerun.err)")
            XCTAssertEqual(try reminders(), reference, "after a kill at step \(k): \(killed.err)")
            k += 1
        }
        XCTAssertGreaterThan(k, 5, "the sweep went through the run's steps")
    }

    // MARK: - Replying to the digest

    /// The digest's "Waiting for" items take a reply's `done ID` like any reminder.
    func testAReplyToTheDigestMarksAFollowUpDone() throws {
        let mail = try maildir()
        try run("2026-11-30T09:00:00Z")
        for n in 1...2 { try mail.seed("Sent", quote(n), date("2026-11-30T10:00:0\(n)Z")) }
        try run("2026-12-01T08:00:00Z")  // makes the follow-ups, then sends the day's digest (hour 0)
        let eml = try XCTUnwrap(folder.outboxFiles().last, "the digest was sent")
        let digest = try SMTPTestMailParser.parse(URL(fileURLWithPath: folder.outbox + "/" + eml))
        let text = try XCTUnwrap(digest.text)
        XCTAssertTrue(text.contains("Waiting for · 2"), text)
        let block = try XCTUnwrap(text.components(separatedBy: "\n\n").first { $0.contains("Client 1: Quote 1") }, text)
        let command = try XCTUnwrap(block.components(separatedBy: "\n").first { $0.contains("reply with: done ") }, block)
            .components(separatedBy: "reply with: ")[1]
        let messageID = try XCTUnwrap(digest.message_id).trimmingCharacters(in: CharacterSet(charactersIn: "<>"))
        try mail.seed("INBOX", "From: Me <me@example.test>\r\nTo: me@example.test\r\nSubject: Re: triage\r\n"
                      + "Date: Tue, 01 Dec 2026 09:30:00 +0000\r\nMessage-ID: <r1@phone.example>\r\n"
                      + "In-Reply-To: <\(messageID)>\r\nReferences: <\(messageID)>\r\n"
                      + "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\(command)\r\n",
                      date("2026-12-01T09:30:00Z"))
        try run("2026-12-01T10:00:00Z")
        XCTAssertEqual(try reminders(), ["done No reply from Client 1: Quote 1 due 2026-12-03",
                                         "open No reply from Client 2: Quote 2 due 2026-12-03"])
        XCTAssertNil(try answerOfDone(), "done by the user, not answered")
    }
}
