import Foundation
import TriageCore
import TriageIMAP
import TriageTestSupport
import XCTest

/// The digest acted on from the phone, end to end over a real Dovecot (IMAP,
/// SPECIAL-USE `\Trash`) and the real SMTP test server (aiosmtpd): `triage run`
/// sends the digest; a Done message as the phone sends it (APPENDed to INBOX over
/// IMAP), or a reply to the digest with commands, is obeyed by the next run and
/// ends in Trash, read; forged tokens, another item's token and a reply to a
/// message that is no digest change nothing and are reported in Problems.
final class DigestActionTests: XCTestCase {
    static let zone = TimeZone(identifier: "America/Chicago")!
    var dir = ""
    var dovecot: DovecotServer!
    var smtp: SMTPTestServer!
    var user = ""
    /// The user's address: the digest goes there, and commands come from and go to it.
    var me = ""

    let plumber = "0162" + String(repeating: "0", count: 27) + "1"
    let receipt = "6aa8" + String(repeating: "0", count: 27) + "1"
    let invoice = "ae6b" + String(repeating: "0", count: 27) + "1"
    let dentist = "21c1" + String(repeating: "0", count: 27) + "1"

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.path + "/triage-digest-act-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir + "/Rules", withIntermediateDirectories: true)
        dovecot = try DovecotServer.shared()
        smtp = try SMTPTestServer.shared()
        XCTAssertGreaterThan(smtp.starttlsPort, 0, "the SMTP server did not start (scripts/install-deps --test)")
        user = try dovecot.makeUser("digest commands")
        try dovecot.createFolders(user: user, ["Trash", "Archive"])
        me = "me-\(UUID().uuidString.prefix(8).lowercased())@example.test"
        try """
        [triage]
        rules = Rules
        store = store
        timezone = America/Chicago

        [account home]
        url = imaps://localhost:\(dovecot.imapsPort)
        user = \(user)
        password_command = printf '%s' '\(DovecotServer.password)'
        ca_file = \(dovecot.caFile)

        [digest]
        to = Me <\(me)>
        from = triage <triage@example.test>
        hour = 7
        smtp = smtp://127.0.0.1:\(smtp.starttlsPort)
        user = \(SMTPTestServer.user)
        password_command = printf '%s' '\(SMTPTestServer.password)'
        ca_file = \(smtp.caFile)

        """.write(toFile: dir + "/triage.conf", atomically: true, encoding: .utf8)
        // A rule that would file every message from me away: command messages never reach it.
        try "rule \"mine\" when from:\(me) then move \"Archive\", label \"ruled\"\n"
            .write(toFile: dir + "/Rules/mine.rules", atomically: true, encoding: .utf8)
        try seedStore()
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private var store: Store { Store(path: dir + "/store", timeZone: Self.zone) }

    private func seedStore() throws {
        let store = self.store
        store.synchronous = false
        let created = Timestamp(secondsSince1970: 1_894_600_800, utcOffsetSeconds: -21_600)  // 2030-01-14
        let day = CivilDate(year: 2030, month: 1, day: 15)
        func summary(_ subject: String) -> MessageSummary {
            MessageSummary(from: Address(name: "Shop", address: "shop@example.test"), subject: subject,
                           date: "2030-01-14T10:00:00-06:00", messageID: subject.lowercased().filter(\.isLetter) + "@example.test",
                           account: "home", mailbox: "INBOX", snippet: "Thank you.")
        }
        try store.put(Reminder(id: plumber, title: "Call the plumber", due: day, created: created))
        try store.put(Reminder(id: dentist, title: "Book the dentist", due: day, created: created))
        try store.put(QueueEntry(id: receipt, queue: "rec", created: created, due: day, rule: "receipts", message: summary("Receipt")))
        try store.put(QueueEntry(id: invoice, queue: "rec", created: created, due: day, rule: "receipts", message: summary("Invoice")))
    }

    @discardableResult
    private func triage(_ args: String..., file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try TriageProcess.run(args + ["--config", dir + "/triage.conf"])
        XCTAssertEqual(result.status, 0, "triage \(args.joined(separator: " ")): \(result.err)", file: file, line: line)
        return result.err
    }

    /// Runs at 08:00 on 15 January 2030 (a first run: INBOX is remembered, the digest sent)
    /// and returns the digest as the SMTP server received it.
    private func sendDigest() throws -> SMTPTestMailParser {
        try triage("run", "--now", "2030-01-15T08:00")
        let mails = smtp.received(containing: me)
        XCTAssertEqual(mails.count, 1)
        return try SMTPTestMailParser.parse(try XCTUnwrap(mails.first))
    }

    /// The subject of the digest's `label` link (Done, Tomorrow) of the item with short id `short`.
    private func linkSubject(_ digest: SMTPTestMailParser, _ label: String, _ short: String) throws -> String {
        let html = try XCTUnwrap(digest.html)
        let pattern = try NSRegularExpression(pattern: "href=\"mailto:([^\"?]+)\\?subject=([^\"]+)\"[^>]*>\(label)</a>")
        for match in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            let to = String(html[Range(match.range(at: 1), in: html)!])
            let subject = String(html[Range(match.range(at: 2), in: html)!]).removingPercentEncoding!
            XCTAssertEqual(to.removingPercentEncoding, me)
            if subject.hasPrefix("triage: \(label.lowercased() == "done" ? "done" : "tomorrow") \(short) ") { return subject }
        }
        XCTFail("no \(label) link for \(short) in the digest")
        return ""
    }

    /// A message as a phone's mail app sends it: from the user, to the user unless said.
    private func phoneMessage(subject: String, inReplyTo: String? = nil, body: String = "", to: String? = nil) -> String {
        var text = "From: Me <\(me)>\r\nTo: \(to ?? me)\r\nSubject: \(subject)\r\nDate: Tue, 15 Jan 2030 08:30:00 -0600\r\n"
        text += "Message-ID: <\(UUID().uuidString)@phone.example>\r\n"
        if let inReplyTo { text += "In-Reply-To: <\(inReplyTo)>\r\nReferences: <\(inReplyTo)>\r\n" }
        text += "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\(body)"
        return text
    }

    /// Subjects and flags of the messages in a folder, over IMAP.
    private func folder(_ name: String) throws -> [(subject: String, seen: Bool)] {
        let connection = try dovecot.connect(user: user)
        defer { connection.close() }
        _ = try connection.open(name, readOnly: true)
        return try connection.fetch(try connection.uids(above: 0)).map { item in
            let header = String(decoding: item.header, as: UTF8.self)
            let subject = header.components(separatedBy: "\r\n").first { $0.hasPrefix("Subject: ") }.map { String($0.dropFirst(9)) } ?? ""
            return (subject, item.flags.contains("\\Seen"))
        }
    }

    private func status<R: StoreRecord>(_ type: R.Type, _ id: String) throws -> String {
        let record = try XCTUnwrap(try store.record(R.self, id: id))
        if let r = record as? Reminder { return "\(r.status.rawValue) \(r.due.iso)" }
        if let q = record as? QueueEntry { return "\(q.status.rawValue) \(q.due.iso)" }
        return ""
    }

    func testADoneMessageFromThePhoneClosesTheItemAndEndsInTrash() throws {
        let digest = try sendDigest()
        let done = try linkSubject(digest, "Done", "0162")
        XCTAssertTrue(digest.text?.contains("reply with: done 0162") ?? false, digest.text ?? "")
        XCTAssertNotNil(try? linkSubject(digest, "Tomorrow", "21c1"))
        try dovecot.append(user: user, [SeedMessage(text: phoneMessage(subject: done))])

        try triage("run", "--now", "2030-01-15T09:00")
        XCTAssertEqual(try status(Reminder.self, plumber), "done 2030-01-15")
        XCTAssertEqual(try status(Reminder.self, dentist), "open 2030-01-15")
        XCTAssertEqual(try folder("INBOX").count, 0)
        let trash = try folder("Trash")
        XCTAssertEqual(trash.map(\.subject), [done])
        XCTAssertEqual(trash.map(\.seen), [true])
        // The next digest no longer shows it.
        let next = try triage("digest", "--preview", "--text", "--date", "2030-01-16", "--now", "2030-01-16T08:00")
        XCTAssertEqual(next, "")
        let preview = try TriageProcess.run(["digest", "--preview", "--text", "--date", "2030-01-16", "--now", "2030-01-16T08:00",
                                             "--config", dir + "/triage.conf"]).out
        XCTAssertFalse(preview.contains("Call the plumber"), preview)
        XCTAssertTrue(preview.contains("Book the dentist"), preview)

        // Sending Done twice is harmless.
        try dovecot.append(user: user, [SeedMessage(text: phoneMessage(subject: done))])
        try triage("run", "--now", "2030-01-15T10:00")
        XCTAssertEqual(try status(Reminder.self, plumber), "done 2030-01-15")
        XCTAssertEqual(try folder("Trash").count, 2)

        // Tomorrow snoozes a reminder.
        let later = try linkSubject(digest, "Tomorrow", "21c1")
        try dovecot.append(user: user, [SeedMessage(text: phoneMessage(subject: later))])
        try triage("run", "--now", "2030-01-15T11:00")
        XCTAssertEqual(try status(Reminder.self, dentist), "open 2030-01-16")
    }

    func testAReplyWithThreeCommandsAppliesAllThree() throws {
        let digest = try sendDigest()
        let digestID = try XCTUnwrap(digest.message_id).trimmingCharacters(in: CharacterSet(charactersIn: "<>"))
        let body = "done 6aa8 ae6b\r\nsnooze 21c1 3 days\r\n\r\nOn Tue, 15 Jan 2030, triage wrote:\r\n> done 0162\r\n"
        try dovecot.append(user: user, [SeedMessage(text: phoneMessage(subject: "Re: " + (digest.subject ?? ""),
                                                                        inReplyTo: digestID, body: body))])
        try triage("run", "--now", "2030-01-15T09:00")
        XCTAssertEqual(try status(QueueEntry.self, receipt), "done 2030-01-15")
        XCTAssertEqual(try status(QueueEntry.self, invoice), "done 2030-01-15")
        XCTAssertEqual(try status(Reminder.self, dentist), "open 2030-01-18")
        XCTAssertEqual(try status(Reminder.self, plumber), "open 2030-01-15", "a quoted line is no command")
        XCTAssertEqual(try folder("INBOX").count, 0)
        XCTAssertEqual(try folder("Trash").map(\.seen), [true])
    }

    /// The review's reproduction: a genuine reply whose snooze is absurdly long once
    /// made every run die (exit 132, "arithmetic overflow" on n * 7). Now the run ends
    /// normally, the reply is refused with a clear Problems line, and the other command
    /// messages and the digest are unaffected.
    func testACraftedSnoozeIsRefusedAndTheRunGoesOn() throws {
        let digest = try sendDigest()
        let digestID = try XCTUnwrap(digest.message_id).trimmingCharacters(in: CharacterSet(charactersIn: "<>"))
        try dovecot.append(user: user, [SeedMessage(text: phoneMessage(subject: "Re: " + (digest.subject ?? ""), inReplyTo: digestID,
                                                                        body: "snooze 0162 2000000000000000000 weeks\r\n"))])
        try dovecot.append(user: user, [SeedMessage(text: phoneMessage(subject: "Re: " + (digest.subject ?? ""), inReplyTo: digestID,
                                                                        body: "done 6aa8\r\n"))])
        let result = try TriageProcess.run(["run", "--now", "2030-01-15T09:00", "--config", dir + "/triage.conf"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.err.contains("a digest command was ignored: line 1: snooze wants an id and a time of at most 366 days"),
                      result.err)
        XCTAssertEqual(try status(Reminder.self, plumber), "open 2030-01-15")
        XCTAssertEqual(try status(QueueEntry.self, receipt), "done 2030-01-15", "the other reply is obeyed")
        XCTAssertEqual(try folder("INBOX").count, 0)
        XCTAssertEqual(try folder("Archive").count, 1, "the refused reply goes through the rules as any mail (issue 25)")
        // A second run neither dies nor reports it again.
        let again = try TriageProcess.run(["run", "--now", "2030-01-15T10:00", "--config", dir + "/triage.conf"])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual(again.err, "")
        let preview = try TriageProcess.run(["digest", "--preview", "--text", "--date", "2030-01-16", "--now", "2030-01-16T08:00",
                                             "--config", dir + "/triage.conf"]).out
        XCTAssertTrue(preview.contains("! Problems · 1"), preview)
        XCTAssertTrue(preview.replacingOccurrences(of: "\n  ", with: " ")
            .contains("refused: line 1: snooze wants an id and a time of at most 366 days"), preview)
    }

    /// Two replies as phones send them (fixtures of TriageMIMETests/Fixtures/replies):
    /// iOS Mail in German, HTML only and base64 (`snooze 21c1 3 days` above
    /// `Am … schrieb …:` and a `blockquote type="cite"`), and Outlook desktop
    /// (`done 0162` above a header block and an unquoted copy of the digest). Each
    /// obeys the line above its quote and none of the quoted digest's lines
    /// (`done 6aa8`, `reopen ae6b`, `> done 21c1`).
    func testAGermanHTMLReplyAndAnOutlookReplyObeyOnlyTheLineAboveTheQuote() throws {
        let digest = try sendDigest()
        let digestID = try XCTUnwrap(digest.message_id).trimmingCharacters(in: CharacterSet(charactersIn: "<>"))
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TriageMIMETests/Fixtures/replies")
        for name in ["ios-mail-de.eml", "outlook-desktop-en.eml"] {
            let text = try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
                .replacingOccurrences(of: "{{DIGEST}}", with: digestID).replacingOccurrences(of: "me@example.test", with: me)
            try dovecot.append(user: user, [SeedMessage(text: text)])
        }
        try triage("run", "--now", "2030-01-15T09:00")
        XCTAssertEqual(try status(Reminder.self, plumber), "done 2030-01-15", "Outlook's line above its header block")
        XCTAssertEqual(try status(Reminder.self, dentist), "open 2030-01-18", "the German reply's snooze, not the quoted done 21c1")
        XCTAssertEqual(try status(QueueEntry.self, receipt), "open 2030-01-15", "quoted: done 6aa8")
        XCTAssertEqual(try status(QueueEntry.self, invoice), "open 2030-01-15", "quoted: reopen ae6b")
        XCTAssertEqual(try folder("INBOX").count, 0)
        XCTAssertEqual(try folder("Trash").map(\.seen), [true, true])
    }

    func testForgedOrMisdirectedCommandsChangeNothing() throws {
        let digest = try sendDigest()
        let invoiceDone = try linkSubject(digest, "Done", "ae6b")
        let token = String(invoiceDone.split(separator: " ").last!)
        let subjects = [
            "triage: done 0162 abcdefgh",  // forged
            "triage: done 6aa8 \(token)",  // the token of another item
        ]
        for subject in subjects { try dovecot.append(user: user, [SeedMessage(text: phoneMessage(subject: subject))]) }
        // A reply to a message that is no digest, and to a made-up digest Message-ID.
        try dovecot.append(user: user, [SeedMessage(text: phoneMessage(subject: "Re: " + (digest.subject ?? ""),
                                                                        inReplyTo: "lunch@example.test", body: "done 0162\r\n"))])
        try dovecot.append(user: user, [SeedMessage(text: phoneMessage(subject: "Re: anything",
                                                                        inReplyTo: "digest-2030-01-15.000000000000.aaaaaaaaaaaaaaaa@triage.invalid",
                                                                        body: "done 0162\r\n"))])
        let err = try triage("run", "--now", "2030-01-15T09:00")
        XCTAssertEqual(err.components(separatedBy: "a digest command was ignored").count - 1, 4, err)
        XCTAssertEqual(try status(Reminder.self, plumber), "open 2030-01-15")
        XCTAssertEqual(try status(Reminder.self, dentist), "open 2030-01-15")
        XCTAssertEqual(try status(QueueEntry.self, receipt), "open 2030-01-15")
        XCTAssertEqual(try status(QueueEntry.self, invoice), "open 2030-01-15")
        // Not obeyed: mail like any other, sorted by the rules (issue 25); nothing in Trash.
        XCTAssertEqual(try folder("INBOX").count, 0)
        XCTAssertEqual(try folder("Archive").count, 4)
        XCTAssertEqual(try folder("Trash").count, 0)
        // Said in the next digest's Problems.
        let preview = try TriageProcess.run(["digest", "--preview", "--text", "--date", "2030-01-16", "--now", "2030-01-16T08:00",
                                             "--config", dir + "/triage.conf"]).out
        XCTAssertTrue(preview.contains("! Problems · 4"), preview)
        XCTAssertTrue(preview.contains("token does not fit"), preview)
    }

    // MARK: - Issue 25: Reply-To, which digest, which items, how long, and the rules

    private func digestID(_ digest: SMTPTestMailParser) throws -> String {
        try XCTUnwrap(digest.message_id).trimmingCharacters(in: CharacterSet(charactersIn: "<>"))
    }

    private func preview(_ day: String) throws -> String {
        try TriageProcess.run(["digest", "--preview", "--text", "--date", day, "--now", day + "T08:00",
                               "--config", dir + "/triage.conf"]).out
    }

    /// The text of the Problems section of a preview: from its heading to the next
    /// section's (a line followed by its underline, or the reminders').
    private func problems(_ text: String) -> String {
        guard let start = text.range(of: "! Problems") else { return "" }
        let rest = text[start.lowerBound...]
        let end = rest.range(of: "\nReminders")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    func testTheDigestCarriesReplyToAndAReplyToItsFromAddressIsObeyed() throws {
        let digest = try sendDigest()
        XCTAssertEqual(digest.from.map(\.address), ["triage@example.test"])
        XCTAssertEqual(digest.reply_to?.map(\.address), [me], "\(digest.headers)")
        XCTAssertEqual(digest.reply_to?.map(\.name), ["Me"])
        // The mail app answered the From (triage@…); the message is delivered to the INBOX triage reads.
        try dovecot.append(user: user, [SeedMessage(text: phoneMessage(subject: "Re: " + (digest.subject ?? ""),
                                                                        inReplyTo: try digestID(digest), body: "done 6aa8\r\n",
                                                                        to: "triage <triage@example.test>"))])
        try triage("run", "--now", "2030-01-15T09:00")
        XCTAssertEqual(try status(QueueEntry.self, receipt), "done 2030-01-15")
        XCTAssertEqual(try folder("Trash").map(\.seen), [true])
    }

    func testAReplyNamingAnItemTheDigestDidNotShowIsRefusedWithoutRepeatingIt() throws {
        // Open, but due later: not in the digest of 15 January.
        let later = "5d4e" + String(repeating: "0", count: 27) + "1"
        try store.put(Reminder(id: later, title: "Renew the passport", due: CivilDate(year: 2030, month: 2, day: 1),
                               created: Timestamp(secondsSince1970: 1_894_600_800, utcOffsetSeconds: -21_600)))
        let digest = try sendDigest()
        XCTAssertFalse(digest.text?.contains("5d4e") ?? true)
        try dovecot.append(user: user, [SeedMessage(text: phoneMessage(subject: "Re: " + (digest.subject ?? ""),
                                                                        inReplyTo: try digestID(digest),
                                                                        body: "done 6aa8\r\ndone 5d4e\r\n"))])
        let err = try triage("run", "--now", "2030-01-15T09:00")
        XCTAssertTrue(err.contains("line 2 names an item that digest did not show"), err)
        XCTAssertEqual(try status(Reminder.self, later), "open 2030-02-01")
        XCTAssertEqual(try status(QueueEntry.self, receipt), "open 2030-01-15", "all or nothing")
        XCTAssertEqual(try folder("Archive").count, 1, "a refused reply is sorted by the rules")
        let text = problems(try preview("2030-01-16"))
        XCTAssertTrue(text.contains("line 2 names an item that digest did not show"), text)
        XCTAssertFalse(text.contains("5d4e"), text)
        XCTAssertFalse(text.contains("done 6aa8"), text)
    }

    func testAReplyToADigestOlderThanReplyDaysIsRefused() throws {
        let digest = try sendDigest()
        try dovecot.append(user: user, [SeedMessage(text: phoneMessage(subject: "Re: " + (digest.subject ?? ""),
                                                                        inReplyTo: try digestID(digest), body: "done 6aa8\r\n"))])
        // 31 days after it was sent (08:00 on 15 January).
        let err = try triage("run", "--now", "2030-02-15T08:30")
        XCTAssertTrue(err.contains("the digest of Tue 15 Jan is older than 30 days: reply to today's digest"), err)
        XCTAssertEqual(try status(QueueEntry.self, receipt), "open 2030-01-15")
        XCTAssertEqual(try folder("Trash").count, 0)
    }

    func testAPhishingMailTitledLikeAReplyReachesTheRules() throws {
        try dovecot.createFolders(user: user, ["Junk"])
        try "rule \"junk\" when subject:\"triage\" then move \"Junk\"\n"
            .write(toFile: dir + "/Rules/mine.rules", atomically: true, encoding: .utf8)
        let digest = try sendDigest()
        // From the user's address (forged), titled as a reply and a link, proving nothing.
        try dovecot.append(user: user, [
            SeedMessage(text: phoneMessage(subject: "Re: triage · Tue 15 Jan: your mailbox is full, verify here",
                                           body: "Click https://phish.example/login\r\n")),
            SeedMessage(text: phoneMessage(subject: "triage: verify your account now")),
            SeedMessage(text: phoneMessage(subject: "Re: " + (digest.subject ?? ""), inReplyTo: try digestID(digest),
                                           body: "Your password expires: https://phish.example\r\n")),
        ])
        try triage("run", "--now", "2030-01-15T09:00")
        XCTAssertEqual(try folder("INBOX").count, 0)
        XCTAssertEqual(try folder("Junk").count, 3)
        XCTAssertEqual(try status(QueueEntry.self, receipt), "open 2030-01-15")
    }

    func testRefusedRepliesAreAtMostTenProblemLinesADigest() throws {
        let digest = try sendDigest()
        let id = try digestID(digest)
        let replies = (0..<40).map { i in
            SeedMessage(text: phoneMessage(subject: "Re: triage · \(i) " + String(repeating: "x", count: 120), inReplyTo: id,
                                           body: "done 5d4e\r\n"))
        }
        try dovecot.append(user: user, replies)
        try triage("run", "--now", "2030-01-15T09:00")
        let text = problems(try preview("2030-01-16"))
        XCTAssertEqual(text.components(separatedBy: "refused: ").count - 1, 10, text)
        XCTAssertTrue(text.contains("and 30 more refused digest commands"), text)
        XCTAssertFalse(text.contains("done 5d4e"), text)
        XCTAssertFalse(text.contains(String(repeating: "x", count: 80)), "at most 80 characters of a subject: \(text)")
    }

    func testHintsCarryTheIDsOfTheDigestAnswered() throws {
        // A digest without the docs' example ids (0162, 21c1): those two are done.
        _ = try store.setStatus(reminders: [plumber, dentist], to: .done, now: Date(timeIntervalSince1970: 1_894_600_800))
        let digest = try sendDigest()
        try dovecot.append(user: user, [SeedMessage(text: phoneMessage(subject: "Re: " + (digest.subject ?? ""),
                                                                        inReplyTo: try digestID(digest), body: "snooze\r\n"))])
        let err = try triage("run", "--now", "2030-01-15T09:00")
        XCTAssertTrue(err.contains("as in snooze 6aa8 3 days"), err)
        XCTAssertFalse(err.contains("0162") || err.contains("21c1"), err)
    }
}
