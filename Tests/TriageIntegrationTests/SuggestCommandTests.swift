import Foundation
import TriageCore
import TriageMIME
import TriageTestSupport
import XCTest

/// `triage suggest` on a generated mailbox with 60 days of history (`SuggestCorpus`:
/// Mailchimp, Substack, GitHub, Mailman, receipts, people), over Maildir and Dovecot:
/// the output passes `triage check` as it is, handles the bulk classes, and its rules
/// touch no answered or flagged message and no mail from a person the user writes to.
final class SuggestCommandTests: XCTestCase {
    private var folder: TestFolder!
    /// The user's current rules: the bank's alerts are handled already.
    private let current = "rule \"bank\" when from:@alerts.bank.example then digest \"Bank\"\n"

    override func setUpWithError() throws {
        folder = try TestFolder("suggest", rules: current)
    }

    override func tearDownWithError() throws {
        folder?.remove()
    }

    // MARK: - Maildir

    /// Writes the corpus into a Maildir at `dir/mail` (Sent found by its usual name).
    private func seedMaildir(_ seeds: [SuggestCorpus.Seed]) throws -> String {
        let root = folder.dir + "/mail"
        for box in [""] + SuggestCorpus.folders.map { "/." + $0.replacingOccurrences(of: "/", with: ".") } {
            for leaf in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(atPath: root + box + "/" + leaf, withIntermediateDirectories: true)
            }
        }
        for (i, seed) in seeds.enumerated() {
            let box = seed.folder == "INBOX" ? "" : "/." + seed.folder.replacingOccurrences(of: "/", with: ".")
            let path = root + box + "/cur/\(Int(seed.date.timeIntervalSince1970)).M\(i)P1.corpus:2,\(String(seed.flags.sorted()))"
            try seed.text.write(toFile: path, atomically: false, encoding: .utf8)
        }
        return root
    }

    func testMaildirSuggestionsPassCheckCoverTheBulkClassesAndTouchNoOnesMail() throws {
        _ = try seedMaildir(SuggestCorpus.mailbox())
        try folder.writeConfig([ConfigSection.triage(), ConfigSection("account home", ["url": "maildir:mail"])])
        try verify(label: "Maildir")
    }

    /// An account that cannot be read stops the command with its own exit status, says
    /// which account and what to do, and prints no rules (they would act on its mail too).
    func testAnAccountThatCannotBeReadSaysWhichAndSuggestsNothing() throws {
        _ = try seedMaildir(SuggestCorpus.mailbox())
        try folder.writeConfig([ConfigSection.triage(), ConfigSection("account home", ["url": "maildir:mail"]),
                                ConfigSection("account gone", ["url": "maildir:nowhere"])])
        let result = try folder.triage(["suggest", "--now", SuggestCorpus.nowText])
        XCTAssertNotEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out, "", "no rules printed")
        XCTAssertTrue(result.err.contains("suggest: account gone: "), result.err)
        XCTAssertTrue(result.err.contains("nothing was suggested") && result.err.contains("--account NAME"), result.err)
        let one = try folder.triage(["suggest", "--account", "home", "--now", SuggestCorpus.nowText])
        XCTAssertEqual(one.status, 0, one.err)
        XCTAssertTrue(one.out.contains("rule \""), one.out)
    }

    /// A list the user unsubscribed from (Substack, 30 days before now, by one-click) that
    /// still sent (`still_sending` set by a run): suggest reads the store's record and
    /// proposes to archive it, with the unsubscribe as its evidence, once.
    func testMaildirAListStillSendingAfterAnUnsubscribeGetsAnArchiveRule() throws {
        _ = try seedMaildir(SuggestCorpus.mailbox())
        try folder.writeConfig([ConfigSection.triage(), ConfigSection("account home", ["url": "maildir:mail"])])
        let utc = TimeZone(identifier: "UTC")!
        var summary = MessageSummary(from: Address(address: "patnotes@substack.com"), subject: "Notes #43: on gardens",
                                     list: "patnotes.substack.com")
        summary.account = "home"
        let done = SuggestCorpus.now.addingTimeInterval(-30 * 86_400)
        let id = RecordID.forMessage(account: "home", messageKey: "notes43@substack.example", rule: "news", actionKey: "digest")
        let entry = DigestEntry(id: id, section: "Newsletters", created: Timestamp(done, timeZone: utc), rule: "news", message: summary)
        var record = UnsubscribeRecord(entry: entry, requested: Timestamp(done, timeZone: utc), via: "link")
        record.method = .oneClick
        record.answer = "HTTP 200 from https://patnotes.substack.com"
        record.succeeded = true
        record.done = Timestamp(done, timeZone: utc)
        record.stillSending = Timestamp(SuggestCorpus.now.addingTimeInterval(-18 * 86_400), timeZone: utc)
        XCTAssertTrue(try Store(path: folder.store, timeZone: utc).put(record))

        let run = try folder.triage(["suggest", "--now", SuggestCorpus.nowText])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.out.contains("""
            # you unsubscribed from patnotes.substack.com on 2026-01-31 by one-click; it still sent 3 messages since
            # 6 messages in 90 days from patnotes@substack.com on the list patnotes.substack.com, 5 opened, none answered
            """), run.out)
        XCTAssertTrue(run.out.contains("""
            rule "unsubscribed patnotes.substack.com"
              when list:"patnotes.substack.com"
              then label "no push", archive, digest "Lists"
            """), run.out)
        XCTAssertFalse(run.out.contains("rule \"newsletter patnotes@substack.com\""), run.out)
        let json = try folder.triage(["suggest", "--now", SuggestCorpus.nowText, "--json"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let rules = try XCTUnwrap(object["rules"] as? [[String: Any]])
        let rule = try XCTUnwrap(rules.first { $0["list"] as? String == "patnotes.substack.com" }, json.out)
        XCTAssertEqual(rule["kind"] as? String, "unsubscribed")
        let unsubscribe = try XCTUnwrap(rule["unsubscribe"] as? [String: Any], json.out)
        XCTAssertEqual(unsubscribe["since"] as? Int, 3)
        XCTAssertEqual(unsubscribe["method"] as? String, "one-click")

        // It passes check; saved, it is not suggested again (and --all shows it covered).
        try run.out.write(toFile: folder.dir + "/rules/suggested.rules", atomically: true, encoding: .utf8)
        let check = try folder.triage(["check"])
        XCTAssertEqual(check.status, 0, check.err)
        let again = try folder.triage(["suggest", "--now", SuggestCorpus.nowText])
        XCTAssertFalse(again.out.contains("unsubscribed patnotes"), again.out)
    }

    // MARK: - Dovecot

    /// A Dovecot user with the corpus, `sent = Sent` (the test server marks no \Sent folder).
    private func dovecotConfig(_ seeds: [SuggestCorpus.Seed]) throws -> DovecotServer {
        let server = try DovecotServer.shared()
        let user = try server.makeUser("suggest")
        for box in SuggestCorpus.folders { try server.createMailbox(user: user, box) }
        for seed in seeds { try server.seed(user: user, mailbox: seed.folder, seed.text, flags: seed.flags, date: seed.date) }
        try folder.writeConfig(url: "imaps://localhost:\(server.imapsPort)", user: user, caFile: server.caFile, mailboxes: nil,
                               accountLines: ["sent": "Sent"])
        return server
    }

    func testDovecotSuggestionsPassCheckCoverTheBulkClassesAndTouchNoOnesMail() throws {
        _ = try dovecotConfig(SuggestCorpus.mailbox())
        try verify(label: "Dovecot")
    }

    /// 10,000 messages of history over IMAP: measured, not asserted (docs/BENCHMARKS.md).
    func testTenThousandMessagesOverIMAPMeasured() throws {
        _ = try dovecotConfig(SuggestCorpus.bulk(10_000))
        for pass in ["first (Dovecot indexes the folder)", "second"] {
            let start = Date()
            let (result, kilobytes) = try TriageProcess.measured(["suggest", "--now", SuggestCorpus.nowText, "--config", folder.config])
            let seconds = Date().timeIntervalSince(start)
            XCTAssertEqual(result.status, 0, result.err)
            XCTAssertTrue(result.out.contains("rule \""), result.out)
            print("suggest over IMAP, 10,000 messages, \(pass) run: \(String(format: "%.2f", seconds)) s, peak RSS \(kilobytes / 1024) MB")
        }
    }

    /// The same over a Maildir: what the analysis costs without a server.
    func testTenThousandMessagesOverMaildirMeasured() throws {
        _ = try seedMaildir(SuggestCorpus.bulk(10_000))
        try folder.writeConfig([ConfigSection.triage(), ConfigSection("account home", ["url": "maildir:mail"])])
        let start = Date()
        let (result, kilobytes) = try TriageProcess.measured(["suggest", "--now", SuggestCorpus.nowText, "--config", folder.config])
        let seconds = Date().timeIntervalSince(start)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("rule \""), result.out)
        print("suggest over Maildir, 10,000 messages: \(String(format: "%.2f", seconds)) s, peak RSS \(kilobytes / 1024) MB")
    }

    // MARK: - What both check

    private func verify(label: String) throws {
        let run = try folder.triage(["suggest", "--now", SuggestCorpus.nowText])
        XCTAssertEqual(run.status, 0, "\(label): \(run.err)")
        let text = run.out
        XCTAssertTrue(text.hasPrefix("# Suggested by triage suggest from "), text)
        XCTAssertTrue(text.contains("# 8 messages in 90 days from deals@mail.shop.example on the list a1b2c3d4e5f6a7b8c9d0e1f23.7f9e8d.list-id.mcsv.net, 2 opened, none answered"), text)
        XCTAssertTrue(text.contains("# would have matched 8 messages; none you answered or flagged"), text)

        // The output passes `triage check` as it is, beside the current rules.
        try text.write(toFile: folder.dir + "/rules/suggested.rules", atomically: true, encoding: .utf8)
        let check = try folder.triage(["check"])
        XCTAssertEqual(check.status, 0, "\(label): \(check.err)\n\(text)")
        XCTAssertEqual(check.err, "", text)
        // With them saved, nothing new is suggested, and it says why.
        let again = try folder.triage(["suggest", "--now", SuggestCorpus.nowText])
        XCTAssertTrue(again.out.contains("# Nothing new to suggest: your rules already handle the "), again.out)
        XCTAssertFalse(again.out.contains("rule \""), again.out)
        try FileManager.default.removeItem(atPath: folder.dir + "/rules/suggested.rules")

        // The kinds, from --json.
        let json = try folder.triage(["suggest", "--now", SuggestCorpus.nowText, "--json"])
        XCTAssertEqual(json.status, 0, json.err)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let rules = try XCTUnwrap(object["rules"] as? [[String: Any]])
        var kinds: [String: String] = [:]
        for rule in rules { kinds[(rule["list"] ?? rule["sender"]) as? String ?? "?"] = rule["kind"] as? String }
        for (subject, kind) in SuggestCorpus.expected {
            // The current rules handle the bank's alerts.
            let wanted = subject == "no-reply@alerts.bank.example" ? nil : kind
            XCTAssertEqual(kinds[subject], wanted, "\(label): \(subject) in \(json.out)")
        }
        XCTAssertEqual(Set(kinds.values), ["newsletter", "notification", "filed-list", "list", "receipt"])
        let dev = try XCTUnwrap(rules.first { $0["list"] as? String == "dev.lists.example.org" })
        XCTAssertEqual(dev["actions"] as? [String], [#"move "Lists/dev""#])
        XCTAssertEqual(Set(dev["exceptions"] as? [String] ?? []), ["bob@colleague.example", "carol@uni.example"])

        // --all shows what the current rules handle too.
        let all = try folder.triage(["suggest", "--now", SuggestCorpus.nowText, "--all"])
        XCTAssertTrue(all.out.contains(#"from:"no-reply@alerts.bank.example""#), all.out)
        XCTAssertTrue(all.out.contains("your current rules already handle all of its mail"), all.out)

        // No rule of the output touches answered, flagged or people's mail of the corpus.
        let environment = RuleEnvironment(identities: [SuggestCorpus.me], timeZone: TimeZone(identifier: "UTC")!)
        let (compiled, diagnostics) = RuleLoader.load([RuleSource(path: "s.rules", text: all.out)], folder: ".", environment: environment)
        XCTAssertEqual(diagnostics.map(\.message), [])
        let suggested = try XCTUnwrap(compiled)
        var touched = 0
        for seed in SuggestCorpus.mailbox() where seed.folder != "Sent" {
            var message = MessageParser.parse(Array(seed.text.utf8))
            message.server.mailbox = seed.folder
            message.server.flags = Set(seed.flags.map { ["S": "\\Seen", "R": "\\Answered", "F": "\\Flagged"][String($0)]! })
            let planned = RuleEvaluator.evaluate(message, rules: suggested, now: SuggestCorpus.now).planned
            guard !planned.isEmpty else { continue }
            touched += 1
            XCTAssertFalse(seed.flags.contains("R") || seed.flags.contains("F"), "\(label): touches answered/flagged:\n\(seed.text)")
            let senders = (message.from + message.replyTo).map { $0.address.lowercased() }
            XCTAssertFalse(senders.contains { SuggestCorpus.people.contains($0) }, "\(label): touches a person's mail:\n\(seed.text)")
        }
        XCTAssertGreaterThan(touched, 30)

        // --output writes a private file; an unknown account is a usage error.
        let out = try folder.triage(["suggest", "--now", SuggestCorpus.nowText, "--output", folder.dir + "/out.rules"])
        XCTAssertEqual(out.status, 0, out.err)
        XCTAssertEqual(try String(contentsOfFile: folder.dir + "/out.rules", encoding: .utf8), text)
        let mode = try FileManager.default.attributesOfItem(atPath: folder.dir + "/out.rules")[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        XCTAssertEqual(try folder.triage(["suggest", "--account", "nope"]).status, 64)
    }
}
