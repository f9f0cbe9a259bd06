import Foundation
import TriageCore
import TriageIMAP
import TriageMaildir
import XCTest

/// The `snooze` action over Maildir and Dovecot (with MOVE, and 127.0.0.4 without it):
/// a snoozed message leaves INBOX for `Snoozed` (made when missing), comes back unread
/// at the first run at or after its time (not before), the digest says "Back today",
/// and it stays: its rule does not snooze it again. `triage snooze` lists and wakes by
/// id; `triage watch` wakes on time without new mail. Fixed `--now` times throughout.
/// (Kills at every step: `SnoozeCrashSweepTests`.)
final class SnoozeTests: XCTestCase {
    static let rules = """
        rule "later" when subject:later then snooze until tomorrow at 9am, digest "FYI"
        rule "plain" when subject:plain then digest "FYI"

        """

    /// Where the mail is: a Maildir of the test folder, or a Dovecot user.
    private enum Mail {
        case maildir(String)
        case dovecot(DovecotServer, user: String, host: String)

        func connect() throws -> MailConnection {
            switch self {
            case .maildir(let root): return try MaildirConnection(root: root)
            case .dovecot(let server, let user, let host): return try server.connect(user: user, host: host)
            }
        }
    }

    /// `MAILBOX subject flags(...)` of every message in the mailboxes, sorted.
    private func contents(_ mail: Mail, _ mailboxes: [String] = ["INBOX", "Snoozed"]) throws -> [String] {
        let connection = try mail.connect()
        defer { connection.close() }
        var lines: [String] = []
        for mailbox in mailboxes {
            do { _ = try connection.open(mailbox, readOnly: true) } catch let error as MailError where error.kind == .missingFolder { continue }
            let uids = try connection.uids(above: 0)
            guard !uids.isEmpty else { continue }
            for item in try connection.fetch(uids) {
                let header = String(decoding: item.header, as: UTF8.self)
                let subject = header.range(of: "Subject: ").map { String(header[$0.upperBound...].prefix { !$0.isNewline }) } ?? "?"
                let flags = item.flags.subtracting(["\\Recent"]).sorted().joined(separator: " ")
                lines.append("\(mailbox) \(subject) flags(\(flags))")
            }
        }
        return lines.sorted()
    }

    private func message(_ subject: String, id: String) -> String {
        "From: Ann <ann@x.test>\nTo: me@example.test\nSubject: \(subject)\nMessage-ID: <\(id)@x.test>\n"
            + "Date: Tue, 01 Dec 2026 08:00:00 +0000\n\nHello.\n"
    }

    /// A folder with a Maildir account (INBOX holding a read `later` and a `plain`) and a `file:` digest.
    private func maildirBox(_ purpose: String) throws -> (TestFolder, Mail) {
        let folder = try TestFolder(purpose, rules: Self.rules)
        let root = folder.dir + "/mail"
        for sub in ["cur", "new", "tmp"] { try FileManager.default.createDirectory(atPath: root + "/" + sub, withIntermediateDirectories: true) }
        try message("later please", id: "l1").write(toFile: root + "/cur/1.test:2,S", atomically: true, encoding: .utf8)
        try message("plain news", id: "p1").write(toFile: root + "/cur/2.test:2,S", atomically: true, encoding: .utf8)
        try folder.writeConfig([ConfigSection.triage(), ConfigSection("account test", ["url": "maildir:mail"]), digest(folder)])
        return (folder, .maildir(root))
    }

    private func digest(_ folder: TestFolder) -> ConfigSection {
        ConfigSection("digest", ["to": "me@example.test", "from": "triage@example.test", "hour": "0", "smtp": "file:\(folder.outbox)"])
    }

    /// The same on a fresh Dovecot user reached at `host`.
    private func dovecotBox(_ purpose: String, host: String) throws -> (TestFolder, Mail) {
        let server = try DovecotServer.shared()
        let user = try server.makeUser(purpose)
        try server.seed(user: user, message("later please", id: "l1"), flags: "S")
        try server.seed(user: user, message("plain news", id: "p1"), flags: "S")
        let folder = try TestFolder(purpose, rules: Self.rules)
        try folder.writeConfig([ConfigSection.triage(), ConfigSection("account test", [
            "url": "imaps://\(host):\(server.imapsPort)", "user": user, "password_command": "cat \(folder.dir)/pw",
            "ca_file": server.caFile,
        ]), digest(folder)])
        return (folder, .dovecot(server, user: user, host: host))
    }

    private func run(_ folder: TestFolder, _ now: String, all: Bool = false) throws {
        let result = try folder.triage(["run", "--now", now] + (all ? ["--all"] : []))
        XCTAssertEqual(result.status, 0, "run at \(now): \(result.err)")
        XCTAssertFalse(result.err.contains("triage:"), "run at \(now) said: \(result.err)")
    }

    /// The whole life of a snoozed message on `mail`.
    private func snoozeAndWake(_ folder: TestFolder, _ mail: Mail) throws {
        try run(folder, "2026-12-01T10:00", all: true)
        XCTAssertEqual(try contents(mail), ["INBOX plain news flags(\\Seen)", "Snoozed later please flags(\\Seen)"],
                       "snoozed: out of INBOX into Snoozed, made for it")
        let listed = try folder.triage(["snooze", "--json"])
        XCTAssertEqual(listed.status, 0, listed.err)
        XCTAssertTrue(listed.out.contains("\"wake\":\"2026-12-02T09:00:00+00:00\""), listed.out)
        XCTAssertTrue(listed.out.contains("\"subject\":\"later please\""), listed.out)

        try run(folder, "2026-12-02T08:59")
        XCTAssertEqual(try contents(mail), ["INBOX plain news flags(\\Seen)", "Snoozed later please flags(\\Seen)"],
                       "not before its time")

        try run(folder, "2026-12-02T09:00")
        XCTAssertEqual(try contents(mail), ["INBOX later please flags()", "INBOX plain news flags(\\Seen)"],
                       "back in INBOX, unread, at its time")
        XCTAssertEqual(try folder.triage(["snooze"]).out, "", "nothing snoozed any more")
        XCTAssertTrue(try folder.triage(["snooze", "--all"]).out.contains("back"))
        let sent = try folder.outboxFiles().map { try String(contentsOfFile: folder.outbox + "/" + $0, encoding: .utf8) }
        XCTAssertTrue(sent.contains { $0.contains("Back today") && $0.contains("later please") },
                      "the day's digest says it came back: \(sent.map { $0.prefix(3000) })")

        // It stays: the rule meets it again in INBOX (and --all walks everything) without snoozing it.
        try run(folder, "2026-12-03T10:00", all: true)
        try run(folder, "2026-12-05T10:00")
        XCTAssertEqual(try contents(mail), ["INBOX later please flags()", "INBOX plain news flags(\\Seen)"], "stays back")
        XCTAssertEqual(folder.storeLines().filter { $0.hasPrefix("store snooze/") }.count, 1, "one record, woken")
        XCTAssertEqual(folder.storeLines().filter { $0.hasPrefix("store snooze/woken/") }.count, 1)
    }

    func testSnoozedMessageIsBackUnreadAtItsTimeAndStaysOnMaildir() throws {
        let (folder, mail) = try maildirBox("snooze-maildir")
        defer { folder.remove() }
        try snoozeAndWake(folder, mail)
    }

    func testSnoozedMessageIsBackUnreadAtItsTimeAndStaysOnDovecot() throws {
        let (folder, mail) = try dovecotBox("snooze-dovecot", host: "localhost")
        defer { folder.remove() }
        try snoozeAndWake(folder, mail)
    }

    /// 127.0.0.4 has no MOVE: both moves are COPY, STORE \Deleted, UID EXPUNGE.
    func testSnoozedMessageIsBackUnreadAtItsTimeAndStaysWithoutMove() throws {
        let (folder, mail) = try dovecotBox("snooze-nomove", host: "127.0.0.4")
        defer { folder.remove() }
        try snoozeAndWake(folder, mail)
    }

    func testSnoozeListsAndWakeBringsOneBackNow() throws {
        let (folder, mail) = try maildirBox("snooze-wake-id")
        defer { folder.remove() }
        try run(folder, "2026-12-01T10:00", all: true)
        let list = try folder.triage(["snooze", "--now", "2026-12-01T10:05"])
        XCTAssertEqual(list.status, 0, list.err)
        let row = list.out.split(separator: "\n")
        XCTAssertEqual(row.count, 1, list.out)
        XCTAssertTrue(list.out.contains("2026-12-02 09:00") && list.out.contains("test") && list.out.contains("later please"), list.out)
        let id = String(row[0].split(separator: " ")[0])

        let unknown = try folder.triage(["snooze", "wake", "ffff"])
        XCTAssertEqual(unknown.status, 65, unknown.err)
        XCTAssertEqual(try contents(mail), ["INBOX plain news flags(\\Seen)", "Snoozed later please flags(\\Seen)"], "nothing changed")

        let wake = try folder.triage(["snooze", "wake", id, "--now", "2026-12-01T11:00"])
        XCTAssertEqual(wake.status, 0, wake.err)
        XCTAssertEqual(wake.out, "woken: \(id) later please\n")
        XCTAssertEqual(try contents(mail), ["INBOX later please flags()", "INBOX plain news flags(\\Seen)"], "back now, unread")
        let again = try folder.triage(["snooze", "wake", id])
        XCTAssertEqual(again.status, 65, "already back: \(again.err)")
        XCTAssertTrue(again.err.contains("is back already"), again.err)

        // Its own time later changes nothing; the rule does not snooze it again.
        try run(folder, "2026-12-02T10:00", all: true)
        XCTAssertEqual(try contents(mail), ["INBOX later please flags()", "INBOX plain news flags(\\Seen)"])
    }

    /// A wake the server will not do (Dovecot cannot write the snoozed folder, so it opens
    /// it read-only and the wake's STORE of the unread flag is refused) exits 75, names the
    /// message and what to do, and leaves it snoozed; once the server takes it, the same
    /// command brings it back.
    func testSnoozeWakeTheServerRefusesExits75AndTheMessageStaysSnoozed() throws {
        let (folder, mail) = try dovecotBox("snooze-wake-refused", host: "localhost")
        defer { folder.remove() }
        guard case .dovecot(let server, let user, _) = mail else { return XCTFail("a Dovecot box") }
        try run(folder, "2026-12-01T10:00", all: true)
        let list = try folder.triage(["snooze", "--now", "2026-12-01T10:05"])
        let id = try XCTUnwrap(list.out.split(separator: " ").first.map(String.init), list.out)

        // Dovecot runs as an unprivileged user: a folder it cannot write is opened read-only.
        let cur = server.maildir(user: user, mailbox: "Snoozed") + "/cur"
        XCTAssertEqual(chmod(cur, 0o555), 0)
        let wake = try folder.triage(["snooze", "wake", id, "--now", "2026-12-01T11:00"])
        XCTAssertEqual(chmod(cur, 0o700), 0)
        XCTAssertEqual(wake.status, 75, wake.err)
        XCTAssertEqual(wake.out, "")
        XCTAssertTrue(wake.err.contains("triage: snooze wake: \(id) \"later please\" was not woken: "), wake.err)
        XCTAssertTrue(wake.err.contains("it is still snoozed in Snoozed (account test). Try 'triage snooze wake \(id)' again"), wake.err)
        XCTAssertEqual(try contents(mail).filter { !$0.hasPrefix("INBOX plain") }.map { $0.prefix(20) }, ["Snoozed later please"],
                       "still snoozed")
        XCTAssertTrue(try folder.triage(["snooze"]).out.contains(id), "still listed as snoozed")

        // Once the folder can be written, the same command brings it back.
        let again = try folder.triage(["snooze", "wake", id, "--now", "2026-12-01T11:05"])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual(again.out, "woken: \(id) later please\n")
        XCTAssertEqual(try contents(mail), ["INBOX later please flags()", "INBOX plain news flags(\\Seen)"], "back now, unread")
    }

    /// A message without a Message-ID is not snoozed (the wake could not find it), and the run says so.
    func testAMessageWithoutMessageIDStays() throws {
        let (folder, mail) = try maildirBox("snooze-no-id")
        defer { folder.remove() }
        if case .maildir(let root) = mail {
            try "From: a@x.test\nSubject: later no id\n\nHi.\n".write(toFile: root + "/cur/3.test:2,", atomically: true, encoding: .utf8)
        }
        let result = try folder.triage(["run", "--all", "--now", "2026-12-01T10:00"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.err.contains("not snoozed (rule 'later'): the message has no Message-ID"), result.err)
        XCTAssertEqual(try contents(mail), ["INBOX later no id flags()", "INBOX plain news flags(\\Seen)",
                                            "Snoozed later please flags(\\Seen)"])
    }

    /// `triage watch` wakes a snoozed message at its time with no new mail arriving:
    /// its wait ends at the wake. The snooze is made by a run whose clock is a day
    /// behind, so that it wakes a few seconds after watch starts.
    func testWatchWakesSnoozedMailWithoutNewMail() throws {
        let (folder, mail) = try dovecotBox("snooze-watch", host: "localhost")
        defer { folder.remove() }
        try folder.writeRules("rule \"later\" when subject:later then snooze for 1 day\n")
        let dayAgo = Date().addingTimeInterval(-86_400 + 6)
        let stamp = ISO8601DateFormatter().string(from: dayAgo)
        try run(folder, stamp, all: true)
        XCTAssertEqual(try contents(mail), ["INBOX plain news flags(\\Seen)", "Snoozed later please flags(\\Seen)"])
        let watch = try WatchProcess(config: folder.config)
        watch.waitUntilWatching()
        let back = WatchProcess.waitUntil(60) {
            (try? self.contents(mail)) == ["INBOX later please flags()", "INBOX plain news flags(\\Seen)"]
        }
        XCTAssertTrue(back, "woken by watch: \((try? contents(mail)) ?? []) \(watch.out) \(watch.err)")
        XCTAssertEqual(watch.stop(), 0)
        XCTAssertEqual(folder.storeLines().filter { $0.hasPrefix("store snooze/woken/") }.count, 1)
    }

    /// A reply to the digest, `snooze ID until DAY`, on an FYI item: the message itself
    /// moves to Snoozed (not only a record), and comes back at its time.
    func testADigestReplySnoozesAnFYIMessage() throws {
        let folder = try TestFolder("snooze-reply", rules: "rule \"news\" when subject:news then digest \"FYI\"\n")
        defer { folder.remove() }
        let root = folder.dir + "/mail"
        for box in ["", "/.Trash"] {
            for sub in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(atPath: root + box + "/" + sub, withIntermediateDirectories: true)
            }
        }
        try message("news today", id: "n1").write(toFile: root + "/cur/1.test:2,S", atomically: true, encoding: .utf8)
        var digest = digest(folder)
        digest.lines.append(("trash", "Trash"))
        try folder.writeConfig([ConfigSection.triage(), ConfigSection("account test", ["url": "maildir:mail"]), digest])
        let mail = Mail.maildir(root)
        try run(folder, "2026-12-01T10:00", all: true)
        let sent = try String(contentsOfFile: folder.outbox + "/" + XCTUnwrap(folder.outboxFiles().first), encoding: .utf8)
        let idPattern = try NSRegularExpression(pattern: #"\[([0-9a-f]{4,})\] Ann "#)
        let match = try XCTUnwrap(idPattern.firstMatch(in: sent, range: NSRange(sent.startIndex..., in: sent)), sent)
        let short = String(sent[Range(match.range(at: 1), in: sent)!])
        XCTAssertTrue(sent.contains("Reply with snooze \(short) until monday"), sent)
        let digestID = try XCTUnwrap(sent.range(of: "Message-ID: <").map { String(sent[$0.upperBound...].prefix { $0 != ">" }) })

        let reply = "From: Me <me@example.test>\nTo: me@example.test\nSubject: Re: digest\nMessage-ID: <r1@phone.example>\n"
            + "In-Reply-To: <\(digestID)>\nReferences: <\(digestID)>\nDate: Tue, 01 Dec 2026 11:00:00 +0000\n\n"
            + "snooze \(short) until 2026-12-03 at 7:30am\n\nOn Tue, triage wrote:\n> FYI\n"
        try reply.write(toFile: root + "/new/2.test", atomically: true, encoding: .utf8)
        try run(folder, "2026-12-01T11:00")
        XCTAssertEqual(try contents(mail), ["Snoozed news today flags(\\Seen)"], "the message itself is put away")
        let listed = try folder.triage(["snooze", "--json"]).out
        XCTAssertTrue(listed.contains("\"wake\":\"2026-12-03T07:30:00+00:00\"") && listed.contains("\"rule\":\"digest reply\""), listed)
        XCTAssertFalse(listed.contains("pending"), "put away: \(listed)")

        try run(folder, "2026-12-03T07:29")
        XCTAssertEqual(try contents(mail), ["Snoozed news today flags(\\Seen)"])
        try run(folder, "2026-12-03T07:30")
        XCTAssertEqual(try contents(mail), ["INBOX news today flags()"], "back, unread")

        // A reply naming something that digest did not list changes nothing.
        let bad = reply.replacingOccurrences(of: "<r1@", with: "<r2@").replacingOccurrences(of: "snooze \(short)", with: "snooze ffff")
        try bad.write(toFile: root + "/new/3.test", atomically: true, encoding: .utf8)
        let refused = try folder.triage(["run", "--now", "2026-12-03T08:00"])
        XCTAssertTrue(refused.err.contains("names a message that digest did not list"), refused.err)
        XCTAssertTrue(try contents(mail).contains("INBOX news today flags()"))
    }

    /// The Snooze link of a listed message (HTML part): its message, sent as the phone
    /// sends it, puts the message away until tomorrow 08:00.
    func testADigestSnoozeLinkPutsTheMessageAwayUntilTomorrow() throws {
        let folder = try TestFolder("snooze-link", rules: "rule \"news\" when subject:news then digest \"FYI\"\n")
        defer { folder.remove() }
        let root = folder.dir + "/mail"
        for box in ["", "/.Trash"] {
            for sub in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(atPath: root + box + "/" + sub, withIntermediateDirectories: true)
            }
        }
        try message("news today", id: "n1").write(toFile: root + "/cur/1.test:2,S", atomically: true, encoding: .utf8)
        var digest = digest(folder)
        digest.lines.append(("trash", "Trash"))
        try folder.writeConfig([ConfigSection.triage(), ConfigSection("account test", ["url": "maildir:mail"]), digest])
        let mail = Mail.maildir(root)
        try run(folder, "2026-12-01T10:00", all: true)
        let preview = try folder.triage(["digest", "--preview", "--html", "--date", "2026-12-01", "--now", "2026-12-01T10:05"])
        let html = preview.out
        let pattern = try NSRegularExpression(pattern: #"href="mailto:[^"?]+\?subject=([^"]+)"[^>]*>Snooze</a>"#)
        let match = try XCTUnwrap(pattern.firstMatch(in: html, range: NSRange(html.startIndex..., in: html)), html)
        let subject = try XCTUnwrap(String(html[Range(match.range(at: 1), in: html)!]).removingPercentEncoding)
        XCTAssertTrue(subject.hasPrefix("triage: snooze "), subject)

        let link = "From: Me <me@example.test>\nTo: me@example.test\nSubject: \(subject)\nMessage-ID: <k1@phone.example>\n"
            + "Date: Tue, 01 Dec 2026 11:00:00 +0000\n\n"
        try link.write(toFile: root + "/new/2.test", atomically: true, encoding: .utf8)
        try run(folder, "2026-12-01T11:00")
        XCTAssertEqual(try contents(mail), ["Snoozed news today flags(\\Seen)"])
        XCTAssertTrue(try folder.triage(["snooze", "--json"]).out.contains("\"wake\":\"2026-12-02T08:00:00+00:00\""))

        // A forged token changes nothing.
        let forged = link.replacingOccurrences(of: "<k1@", with: "<k2@")
            .replacingOccurrences(of: String(subject.split(separator: " ").last!), with: "aaaaaaaa")
        try forged.write(toFile: root + "/new/3.test", atomically: true, encoding: .utf8)
        let refused = try folder.triage(["run", "--now", "2026-12-01T12:00"])
        XCTAssertTrue(refused.err.contains("its token does not fit"), refused.err)

        try run(folder, "2026-12-02T08:00")
        XCTAssertTrue(try contents(mail).contains("INBOX news today flags()"), "back at 08:00")
    }
}
