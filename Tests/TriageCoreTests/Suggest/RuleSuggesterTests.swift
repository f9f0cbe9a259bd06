import Foundation
import TriageCore
import XCTest

/// `RuleSuggester` on generated histories: what it suggests for each kind of mail,
/// and that no suggestion touches answered or flagged mail or people's mail.
final class RuleSuggesterTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_772_442_000)  // 2026-03-02T09:00:00Z
    let utc = TimeZone(identifier: "UTC")!
    var environment: RuleEnvironment { RuleEnvironment(identities: ["me@example.test"], timeZone: utc) }

    /// A received (or sent) message, `daysAgo` before `now`.
    func mail(from: String, to: String = "me@example.test", list: String? = nil, folder: String = "INBOX", flags: Set<String> = [],
              headers: [(String, String)] = [], subject: String = "Hello", id: String? = nil, inReplyTo: String? = nil,
              replyTo: String? = nil, daysAgo: Double = 5, sent: Bool = false) -> HistoryMessage {
        var m = Message()
        m.from = [Address(address: from)]
        m.to = [Address(address: to)]
        m.replyTo = replyTo.map { [Address(address: $0)] } ?? []
        m.subject = subject
        m.listID = list
        m.messageID = id
        m.inReplyTo = inReplyTo
        m.references = inReplyTo.map { [$0] } ?? []
        m.headers = headers.map { HeaderField($0.0, $0.1) }
        m.date = MessageDate(secondsSince1970: Int64(now.timeIntervalSince1970 - daysAgo * 86_400), utcOffsetSeconds: 0)
        m.server.mailbox = folder
        m.server.flags = flags
        return HistoryMessage(message: m, isSent: sent)
    }

    func bulk(_ from: String, count: Int = 5, list: String? = nil, folder: String = "INBOX", seen: Int = 0) -> [HistoryMessage] {
        (0..<count).map { i in
            mail(from: from, list: list, folder: folder, flags: i < seen ? ["\\Seen"] : [],
                 headers: [("List-Unsubscribe", "<https://x.example/u>"), ("Precedence", "bulk")], daysAgo: Double(i * 2 + 1))
        }
    }

    func suggest(_ messages: [HistoryMessage], current: CompiledRules? = nil, all: Bool = false, days: Int = 90) -> SuggestionReport {
        RuleSuggester(environment: environment, current: current, includeCovered: all)
            .suggest(MailHistory(messages: messages, days: days, now: now))
    }

    /// Compiles the printed rules file as `triage check` would, and returns the rules.
    func compiled(_ report: SuggestionReport) throws -> CompiledRules {
        let text = SuggestionWriter.rules(report, days: 90, now: now, timeZone: utc, accounts: ["test"])
        let (rules, diagnostics) = RuleLoader.load([RuleSource(path: "suggested.rules", text: text)], folder: ".", environment: environment)
        XCTAssertEqual(diagnostics.map(\.message), [], text)
        return try XCTUnwrap(rules, text)
    }

    /// The messages the printed rules would act on.
    func touched(_ report: SuggestionReport, _ messages: [HistoryMessage]) throws -> [HistoryMessage] {
        let rules = try compiled(report)
        return messages.filter { !RuleEvaluator.evaluate($0.message, rules: rules, now: now).planned.isEmpty }
    }

    func testNewsletterIsArchivedIntoTheDigestWithItsEvidence() throws {
        let report = suggest(bulk("deals@mail.shop.example", count: 41, seen: 2))
        let rule = try XCTUnwrap(report.rules.first)
        XCTAssertEqual(report.rules.count, 1)
        XCTAssertEqual(rule.kind, .newsletter)
        XCTAssertEqual(rule.query, #"from:"deals@mail.shop.example""#)
        XCTAssertEqual(rule.actions, [#"label "no push""#, "archive", #"digest "Newsletters""#])
        XCTAssertEqual(rule.matched, 41)
        let text = SuggestionWriter.rules(report, days: 90, now: now, timeZone: utc, accounts: [])
        XCTAssertTrue(text.contains("# 41 messages in 90 days from deals@mail.shop.example, 2 opened, none answered, List-Unsubscribe"), text)
        XCTAssertTrue(text.contains("# would have matched 41 messages; none you answered or flagged"), text)
        XCTAssertEqual(try touched(report, bulk("deals@mail.shop.example", count: 41)).count, 41)
    }

    func testAFriendWritingThroughANewsletterToolStaysUntouched() throws {
        var history = bulk("sam@friend.example", count: 6, list: "sam.buttondown.email")
        history.append(mail(from: "me@example.test", to: "sam@friend.example", folder: "Sent", sent: true))
        let report = suggest(history)
        XCTAssertEqual(report.rules.map(\.subject), [])
        XCTAssertEqual(try touched(report, history).count, 0)
        // Without the Sent message it is an ordinary newsletter: the test can tell.
        XCTAssertEqual(suggest(Array(history.dropLast())).rules.map(\.kind), [.newsletter])
    }

    func testAFriendInReplyToOfANewsletterToolIsLeftOut() throws {
        let history = (0..<5).map { i in
            mail(from: "letters@tool.example", list: "friend.tool.example", headers: [("List-Unsubscribe", "<https://u>")],
                 replyTo: i < 2 ? "sam@friend.example" : nil, daysAgo: Double(i + 1))
        } + [mail(from: "me@example.test", to: "sam@friend.example", folder: "Sent", sent: true)]
        let report = suggest(history)
        let rule = try XCTUnwrap(report.rules.first)
        XCTAssertEqual(rule.exceptions, ["sam@friend.example"])
        XCTAssertEqual(rule.matched, 3)
        XCTAssertEqual(try touched(report, history).count, 3)
    }

    func testAnsweredOrFlaggedMailIsNeverTouched() throws {
        var answered = bulk("news@paper.example", count: 6)
        answered[2].message.server.flags.insert("\\Answered")
        var flagged = bulk("alerts@shop.example", count: 6, list: "alerts.shop.example")
        flagged[0].message.server.flags.insert("\\Flagged")
        var replied = bulk("info@club.example", count: 6)
        replied[1].message.messageID = "club-1@club.example"
        let sent = mail(from: "me@example.test", to: "someone@else.example", folder: "Sent", inReplyTo: "<club-1@club.example>", sent: true)
        let history = answered + flagged + replied + [sent]
        let report = suggest(history)
        XCTAssertEqual(report.rules.map(\.subject), [])
        XCTAssertEqual(try touched(report, history).count, 0)
        XCTAssertEqual(Set(report.leftOut.map(\.subject)), ["news@paper.example", "alerts.shop.example", "info@club.example"])
        // Without the answer, flag and reply each is suggested: the test can tell.
        let plain = bulk("news@paper.example", count: 6) + bulk("alerts@shop.example", count: 6, list: "alerts.shop.example")
            + bulk("info@club.example", count: 6)
        XCTAssertEqual(suggest(plain).rules.count, 3)
    }

    func testAListFiledIntoAFolderIsMovedThereWithPeopleLeftOut() throws {
        let posters = ["dan@devs.example", "erin@devs.example", "bob@colleague.example", "carol@uni.example"]
        var history = (0..<12).map { i in
            mail(from: posters[i % 4], to: "dev@lists.example.org", list: "dev.lists.example.org", folder: "Lists/dev",
                 flags: ["\\Seen"], headers: [("List-Post", "<mailto:dev@lists.example.org>"), ("Precedence", "list")],
                 id: "dev-\(i)@lists.example.org", daysAgo: Double(i + 1))
        }
        history.append(mail(from: "me@example.test", to: "bob@colleague.example", folder: "Sent", sent: true))
        history.append(mail(from: "me@example.test", to: "dev@lists.example.org", folder: "Sent", inReplyTo: "<dev-3@lists.example.org>", sent: true))
        let report = suggest(history)
        let rule = try XCTUnwrap(report.rules.first)
        XCTAssertEqual(rule.kind, .filedList)
        XCTAssertEqual(rule.actions, [#"move "Lists/dev""#])
        XCTAssertEqual(Set(rule.exceptions), ["bob@colleague.example", "carol@uni.example"])
        XCTAssertEqual(rule.matched, 6)
        XCTAssertEqual(rule.alreadyThere, 6)
        let hit = try touched(report, history)
        XCTAssertEqual(Set(hit.map { $0.message.from[0].address }), ["dan@devs.example", "erin@devs.example"])
    }

    func testNotificationsAreDigestedAndMarkedReadWhenNeverOpened() throws {
        let github = (0..<6).map { i in
            mail(from: "notifications@github.com", list: "webapp.acme.github.com",
                 headers: [("List-Unsubscribe", "<mailto:u@reply.github.com>")], daysAgo: Double(i + 1))
        }
        let bank = (0..<4).map { i in
            mail(from: "no-reply@alerts.bank.example", flags: i == 0 ? ["\\Seen"] : [], headers: [("Auto-Submitted", "auto-generated")],
                 daysAgo: Double(i + 1))
        }
        let report = suggest(github + bank)
        let bySubject = Dictionary(uniqueKeysWithValues: report.rules.map { ($0.subject, $0) })
        XCTAssertEqual(bySubject["webapp.acme.github.com"]?.kind, .notification)
        XCTAssertEqual(bySubject["webapp.acme.github.com"]?.actions, [#"digest "Notifications""#, "mark read"])
        XCTAssertEqual(bySubject["no-reply@alerts.bank.example"]?.kind, .notification)
        XCTAssertEqual(bySubject["no-reply@alerts.bank.example"]?.actions, [#"digest "Notifications""#])
        _ = try compiled(report)
    }

    func testReceiptsFiledByHandAreMovedToTheirFolder() throws {
        let receipts = (0..<4).map { i in
            mail(from: "orders@store.example", folder: "Receipts", flags: ["\\Seen"], subject: "Your receipt for order \(i)",
                 daysAgo: Double(i + 2))
        }
        let rule = try XCTUnwrap(suggest(receipts).rules.first)
        XCTAssertEqual(rule.kind, .receipt)
        XCTAssertEqual(rule.actions, [#"move "Receipts""#])
        // Spread over two of the user's folders, it is no pattern.
        var spread = receipts
        spread[0].message.server.mailbox = "Taxes"
        spread[1].message.server.mailbox = "Taxes"
        XCTAssertEqual(suggest(spread).rules.count, 0)
    }

    func testPeopleAndFewMessagesGiveNoRule() {
        let alice = (0..<6).map { mail(from: "alice@friends.example", flags: $0 == 0 ? ["\\Answered"] : [], daysAgo: Double($0 + 1)) }
        let few = bulk("rare@shop.example", count: 2)
        XCTAssertEqual(suggest(alice + few).rules.count, 0)
        XCTAssertEqual(suggest(bulk("rare@shop.example", count: 3)).rules.count, 1)
    }

    func testOnlyTheWindowCounts() {
        let old = bulk("old@gone.example", count: 5).map { m -> HistoryMessage in
            var m = m
            m.message.date = MessageDate(secondsSince1970: Int64(now.timeIntervalSince1970) - 120 * 86_400, utcOffsetSeconds: 0)
            return m
        }
        XCTAssertEqual(suggest(old).rules.count, 0)
        XCTAssertEqual(suggest(old, days: 150).rules.count, 1)
    }

    func testWhatTheCurrentRulesCoverIsNotSuggestedAgainUnlessAll() throws {
        let (current, _) = RuleLoader.load([RuleSource(path: "mine.rules", text: """
        rule "newsletters" when from:@mail.shop.example then archive
        """)], folder: ".", environment: environment)
        let history = bulk("deals@mail.shop.example") + bulk("news@other.example")
        let report = suggest(history, current: current)
        XCTAssertEqual(report.rules.map(\.subject), ["news@other.example"])
        XCTAssertTrue(report.leftOut.contains { $0.subject == "deals@mail.shop.example" })
        let all = suggest(history, current: current, all: true)
        XCTAssertEqual(Set(all.rules.map(\.subject)), ["deals@mail.shop.example", "news@other.example"])
        XCTAssertEqual(all.rules.first { $0.subject == "deals@mail.shop.example" }?.covered, true)
    }

    func testNamesDoNotClashWithTheCurrentRules() throws {
        let (current, _) = RuleLoader.load([RuleSource(path: "mine.rules", text: """
        rule "newsletter news@other.example" when from:nobody@x.example then archive
        """)], folder: ".", environment: environment)
        let report = suggest(bulk("news@other.example"), current: current)
        XCTAssertEqual(report.rules.map(\.name), ["newsletter news@other.example (2)"])
    }

    func testAnAddressThatCannotBeWrittenSafelyIsLeftOut() throws {
        let history = bulk("we\"ird*@x.example") + bulk("ok@x.example")
        let report = suggest(history)
        XCTAssertEqual(report.rules.map(\.subject), ["ok@x.example"])
        _ = try compiled(report)
    }

    func testJSONHasTheDocumentedKeys() throws {
        let report = suggest(bulk("deals@mail.shop.example", count: 4, seen: 1))
        let json = SuggestionWriter.json(report, days: 90, now: now, accounts: ["test"]).serialized
        for key in ["\"now\":\"2026-03-02T09:00:00+00:00\"", "\"rules\":", "\"kind\":\"newsletter\"", "\"sender\":\"deals@mail.shop.example\"",
                    "\"evidence\":", "\"messages\":4", "\"opened\":1", "\"list_unsubscribe\":4", "\"effect\":", "\"matched\":4",
                    "\"left_out\":"] {
            XCTAssertTrue(json.contains(key), "\(key) in \(json)")
        }
    }

    func testOneSendersThinListsArePooledIntoASenderRule() throws {
        let history = (0..<4).flatMap { repo in
            (0..<2).map { i in
                mail(from: "notifications@github.com", list: "repo\(repo).acme.github.com",
                     headers: [("List-Unsubscribe", "<mailto:u@reply.github.com>")], daysAgo: Double(repo * 2 + i + 1))
            }
        }
        let rule = try XCTUnwrap(suggest(history).rules.first)
        XCTAssertEqual(rule.query, #"from:"notifications@github.com""#)
        XCTAssertEqual(rule.kind, .notification)
        XCTAssertEqual(rule.matched, 8)
        // One flagged among them: no rule, as the flagged one has the same sender.
        var flagged = history
        flagged[3].message.server.flags.insert("\\Flagged")
        XCTAssertEqual(suggest(flagged).rules.count, 0)
    }

    func testADomainsThinBulkSendersArePooledButNeverAMailProvidersOrAPersons() throws {
        let shop = ["news@mail.shop.example", "deals@mail.shop.example", "offers@mail.shop.example"].flatMap { bulk($0, count: 2) }
        var history = shop + (0..<4).map { mail(from: "alice@mail.shop.example", daysAgo: Double($0 + 1)) }
        history.append(mail(from: "me@example.test", to: "alice@mail.shop.example", folder: "Sent", sent: true))
        let report = suggest(history)
        let rule = try XCTUnwrap(report.rules.first)
        XCTAssertEqual(report.rules.count, 1)
        XCTAssertEqual(rule.subject, "@mail.shop.example")
        XCTAssertEqual(rule.exceptions, ["alice@mail.shop.example"])
        XCTAssertEqual(rule.matched, 6)
        XCTAssertEqual(try touched(report, history).count, 6)
        // Someone there you write to, who has not written lately, is left out too.
        let quiet = history + [mail(from: "me@example.test", to: "bert@eu.mail.shop.example", folder: "Sent", sent: true)]
        XCTAssertEqual(suggest(quiet).rules.first?.exceptions, ["alice@mail.shop.example", "bert@eu.mail.shop.example"])
        let gmail = ["a@gmail.com", "b@gmail.com", "c@gmail.com"].flatMap { bulk($0, count: 2) }
        XCTAssertEqual(suggest(gmail).rules.count, 0)
    }

    // MARK: - Lists still sending after an unsubscribe (issue 28)

    /// A successful unsubscribe from `list` (sent by `from`) `daysAgo` before now, by
    /// one-click, whose list was seen again `stillDaysAgo` before now.
    func unsubscribe(list: String?, from: String, daysAgo: Double = 20, stillDaysAgo: Double = 10) -> UnsubscribeRecord {
        var summary = MessageSummary(from: Address(address: from), subject: "Weekly news", list: list)
        summary.account = "test"
        let created = Timestamp(now.addingTimeInterval(-(daysAgo + 1) * 86_400), timeZone: utc)
        let id = RecordID.forMessage(account: "test", messageKey: "<w1@news.example>", rule: "news", actionKey: "digest")
        let entry = DigestEntry(id: id, section: "Newsletters", created: created, rule: "news", message: summary)
        var record = UnsubscribeRecord(entry: entry, requested: created, via: "link")
        record.method = .oneClick
        record.answer = "HTTP 200"
        record.succeeded = true
        record.done = Timestamp(now.addingTimeInterval(-daysAgo * 86_400), timeZone: utc)
        record.stillSending = Timestamp(now.addingTimeInterval(-stillDaysAgo * 86_400), timeZone: utc)
        return record
    }

    func suggest(_ messages: [HistoryMessage], unsubscribes: [UnsubscribeRecord], current: CompiledRules? = nil,
                 all: Bool = false) -> SuggestionReport {
        RuleSuggester(environment: environment, current: current, includeCovered: all)
            .suggest(MailHistory(messages: messages, days: 90, now: now, unsubscribes: unsubscribes))
    }

    func testAListStillSendingAfterAnUnsubscribeIsArchivedWithItsEvidence() throws {
        // Two posts before the unsubscribe (20 days ago), two after; the editor's flagged post is left out.
        var history = [30.0, 25, 10, 3].map { days in
            mail(from: "news@news.example", list: "weekly.news.example", headers: [("List-Unsubscribe", "<https://news.example/u>")],
                 daysAgo: days)
        }
        history.append(mail(from: "editor@news.example", list: "weekly.news.example", flags: ["\\Flagged"], daysAgo: 5))
        let record = unsubscribe(list: "weekly.news.example", from: "news@news.example")
        let report = suggest(history, unsubscribes: [record])
        XCTAssertEqual(report.rules.count, 1)
        let rule = try XCTUnwrap(report.rules.first)
        XCTAssertEqual(rule.kind, .unsubscribed)
        XCTAssertEqual(rule.query, #"list:"weekly.news.example" -from:"editor@news.example""#)
        XCTAssertEqual(rule.actions, [#"label "no push""#, "archive", #"digest "Lists""#])
        XCTAssertEqual(rule.unsubscribe?.since, 2)
        XCTAssertEqual(rule.matched, 4)
        let text = SuggestionWriter.rules(report, days: 90, now: now, timeZone: utc, accounts: [])
        XCTAssertTrue(text.contains("# you unsubscribed from weekly.news.example on 2026-02-10 by one-click; it still sent 2 messages since\n"),
                      text)
        XCTAssertTrue(text.contains("rule \"unsubscribed weekly.news.example\""), text)
        // Compiled as `triage check` would: it archives the list's mail, never the flagged post.
        let touched = try touched(report, history)
        XCTAssertEqual(touched.count, 4)
        XCTAssertFalse(touched.contains { $0.isFlagged })
        let json = SuggestionWriter.json(report, days: 90, now: now, accounts: ["test"]).serialized
        for key in ["\"kind\":\"unsubscribed\"", "\"unsubscribe\":{", "\"method\":\"one-click\"", "\"since\":2",
                    "\"done\":\"2026-02-10T09:00:00+00:00\""] {
            XCTAssertTrue(json.contains(key), "\(key) in \(json)")
        }
        // Without the record it is an ordinary newsletter: the test can tell.
        XCTAssertEqual(suggest(history).rules.map(\.kind), [.newsletter])
        // A failed unsubscribe, or one whose list stopped, proposes nothing of the kind.
        var failed = record
        failed.succeeded = false
        var quiet = record
        quiet.stillSending = nil
        XCTAssertEqual(suggest(history, unsubscribes: [failed, quiet]).rules.map(\.kind), [.newsletter])
    }

    func testAnUnsubscribedListWithFewOrNoMessagesInTheWindowStillGetsItsRule() throws {
        // One post only, too few for a pattern, and a list with none of its mail in the window.
        let history = [mail(from: "news@news.example", list: "weekly.news.example", daysAgo: 3)]
        let records = [unsubscribe(list: "weekly.news.example", from: "news@news.example"),
                       unsubscribe(list: nil, from: "promo@shop.example", daysAgo: 30, stillDaysAgo: 21)]
        let report = suggest(history, unsubscribes: records)
        XCTAssertEqual(report.leftOut, [])
        XCTAssertEqual(report.rules.map(\.query), [#"list:"weekly.news.example""#, #"from:"promo@shop.example""#])
        let text = SuggestionWriter.rules(report, days: 90, now: now, timeZone: utc, accounts: [])
        XCTAssertTrue(text.contains("# you unsubscribed from promo@shop.example on 2026-01-31 by one-click; it still sent mail on "
            + "2026-02-09 (none of it in the 90 days read)\n"), text)
        XCTAssertTrue(text.contains("it still sent 1 message since"), text)
        _ = try compiled(report)
        XCTAssertEqual(suggest(history).rules.count, 0)
    }

    func testAnUnsubscribedListTheRulesCoverOrAPersonsIsNotSuggested() throws {
        let history = [10.0, 3].map { mail(from: "news@news.example", list: "weekly.news.example", daysAgo: $0) }
        let records = [unsubscribe(list: "weekly.news.example", from: "news@news.example"),
                       unsubscribe(list: nil, from: "promo@shop.example")]
        let (current, diagnostics) = RuleLoader.load([RuleSource(path: "mine.rules", text: """
        rule "gone" when list:news.example OR from:promo@shop.example then archive
        """)], folder: ".", environment: environment)
        XCTAssertEqual(diagnostics.map(\.message), [])
        // Covered, with or without mail in the window: left out, unless --all.
        let report = suggest(history, unsubscribes: records, current: current)
        XCTAssertEqual(report.rules.count, 0)
        XCTAssertEqual(Set(report.leftOut.filter { $0.reason == RuleSuggester.coveredReason }.map(\.subject)),
                       ["weekly.news.example", "promo@shop.example"])
        let all = suggest(history, unsubscribes: records, current: current, all: true)
        XCTAssertEqual(all.rules.map(\.covered), [true, true])
        // A sender the user writes to gets no rule, unsubscribed or not.
        let person = [unsubscribe(list: nil, from: "sam@friend.example")]
        let sent = mail(from: "me@example.test", to: "sam@friend.example", folder: "Sent", sent: true)
        let friendly = suggest([sent] + [4.0, 2].map { mail(from: "sam@friend.example", daysAgo: $0) }, unsubscribes: person)
        XCTAssertEqual(friendly.rules.count, 0)
        XCTAssertTrue(friendly.leftOut.contains { $0.subject == "sam@friend.example" })
    }
}
