import Foundation
import TriageCore
@testable import TriageMIME
import XCTest

/// The Unsubscribe link from a newsletter to the command a run obeys: the parser
/// keeps the unsubscribe fields, the digest shows the link (HTML) and its subject
/// (text), and the message a phone sends from that link is read back as the
/// unsubscribe of exactly that entry, recorded as pending in the store.
final class UnsubscribeLinkRoundTripTests: XCTestCase {
    let key = DigestKey(secret: Array("0123456789abcdef0123456789abcdef".utf8))
    let entryID = "5b0e" + String(repeating: "0", count: 27) + "1"
    let zone = TimeZone(identifier: "America/Chicago")!
    let now = Date(timeIntervalSince1970: 1_894_698_000)  // 2030-01-15T09:00:00Z

    let newsletter = """
    Authentication-Results: mx.example.net; dkim=pass header.d=news.example header.b=AbCd; spf=pass smtp.mailfrom=news.example
    Received: from out.news.example by mx.example.net; Tue, 15 Jan 2030 07:00:00 +0000
    DKIM-Signature: v=1; a=rsa-sha256; d=news.example; s=s1;
     h=From:To:Subject:Date:List-Unsubscribe:List-Unsubscribe-Post; bh=x; b=AbCdEf
     GhIj
    Authentication-Results: mx.example.net; dkim=pass header.d=evil.example
    From: News <letters@news.example>
    To: me@example.test
    Subject: This week
    Date: Tue, 15 Jan 2030 07:00:00 +0000
    Message-ID: <week-3@news.example>
    List-Id: Weekly <weekly.news.example>
    List-Unsubscribe: <https://news.example/unsub/abc>,
     <mailto:leave@news.example?subject=unsubscribe>
    List-Unsubscribe-Post: List-Unsubscribe=One-Click

    Hello.
    """.replacingOccurrences(of: "\n", with: "\r\n")

    func testTheParserKeepsTheFieldsInOrder() throws {
        let m = MessageParser.parse(Array(newsletter.utf8))
        let h = try XCTUnwrap(m.unsubscribeHeaders)
        XCTAssertEqual(h.authenticationResults.count, 2)
        XCTAssertTrue(h.authenticationResults[0].contains("header.d=news.example"))
        XCTAssertEqual(h.post, "List-Unsubscribe=One-Click")
        XCTAssertTrue(h.dkimSignatures[0].contains("List-Unsubscribe-Post"))
        let offer = try XCTUnwrap(UnsubscribeOffer(h, fromAddress: m.sender?.address, authservID: "mx.example.net"))
        XCTAssertTrue(offer.allowsOneClick, offer.dkim)
        // A message without List-Unsubscribe keeps nothing.
        XCTAssertNil(MessageParser.parse(Array("From: a@b.example\r\nSubject: x\r\n\r\nhi\r\n".utf8)).unsubscribeHeaders)
    }

    func entry(section: String) -> DigestEntry {
        var message = MessageParser.parse(Array(newsletter.utf8))
        message.unsubscribe = UnsubscribeOffer(message.unsubscribeHeaders!, fromAddress: message.sender?.address, authservID: "mx.example.net")
        return DigestEntry(id: entryID, section: section, created: Timestamp(now, timeZone: zone), rule: "news",
                           message: MessageSummary(message))
    }

    func view(section: String) -> DigestView {
        let plan = DigestPlanner().plan(day: CivilDate(year: 2030, month: 1, day: 15), reminders: [], queueEntries: [],
                                        digestEntries: [entry(section: section)])
        let ids = DigestShortIDs(queue: ShortIDIndex([]), reminders: ShortIDIndex([]), digest: ShortIDIndex([entryID]))
        return DigestView(plan: plan, ids: ids, timeZone: zone, links: DigestLinks(address: "me@example.test", key: key))
    }

    /// `triage: unsubscribe 5b0e TOKEN` of a `mailto:...?subject=...` link, as a mail app decodes it.
    func subject(ofLink mailto: String) throws -> String {
        let query = try XCTUnwrap(mailto.split(separator: "?", maxSplits: 1).last)
        XCTAssertTrue(mailto.hasPrefix("mailto:me@example.test?subject="))
        return try XCTUnwrap(String(query.dropFirst("subject=".count)).removingPercentEncoding)
    }

    /// The message iOS Mail sends from the link: the subject as it was, a signature in the body.
    func phoneMessage(_ subject: String) -> Message {
        let raw = "From: Me <me@example.test>\r\nTo: me@example.test\r\nSubject: \(subject)\r\n"
            + "Message-ID: <phone-1@example.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\r\nSent from my iPhone\r\n"
        return MessageParser.parse(Array(raw.utf8))
    }

    func verdict(_ message: Message, shown: [String]) -> DigestCommandReader.Verdict {
        let reader = DigestCommandReader(addresses: ["me@example.test"], key: key)
        XCTAssertTrue(reader.isCandidate(message))
        let digest = DigestShownLedger.Shown(messageID: "digest-2030-01-15.x@triage.invalid", day: "2030-01-15",
                                             sent: "2030-01-15T08:00:00Z", ids: shown)
        return reader.read(message, body: "", reminderIDs: [], queueIDs: [], digestIDs: [entryID], digests: [digest], now: now)
    }

    func testACompactSectionsLinkRoundTrips() throws {
        let v = view(section: "Newsletters")
        let line = try XCTUnwrap(v.sections.first?.groups.first?.lines.first)
        let link = try XCTUnwrap(line.unsubscribe)
        let subject = try subject(ofLink: link.mailto)
        XCTAssertTrue(subject.hasPrefix("triage: unsubscribe 5b0e "), subject)
        XCTAssertEqual(line.unsubscribeSubject, subject)
        // Both parts carry it: the HTML the link, the text the subject to send.
        let rendered = DigestRenderer(timeZone: zone, ids: DigestShortIDs(queue: ShortIDIndex([]), reminders: ShortIDIndex([]),
                                                                          digest: ShortIDIndex([entryID])),
                                      links: DigestLinks(address: "me@example.test", key: key))
            .render(DigestPlanner().plan(day: CivilDate(year: 2030, month: 1, day: 15), reminders: [], queueEntries: [],
                                         digestEntries: [entry(section: "Newsletters")]))
        XCTAssertTrue(rendered.html.contains(">Unsubscribe</a>"), rendered.html)
        XCTAssertTrue(rendered.text.contains(subject), rendered.text)
        XCTAssertEqual(verdict(phoneMessage(subject), shown: [entryID]),
                       .apply([DigestCommand(verb: .unsubscribe, kind: "digest", id: entryID)]))
    }

    func testADetailedSectionsLinkRoundTripsAndIsRecordedOnce() throws {
        let v = view(section: "Updates")
        let item = try XCTUnwrap(v.sections.first?.items.first)
        XCTAssertEqual(item.actions.map(\.label), ["Unsubscribe"])
        let subject = try subject(ofLink: item.actions[0].mailto)
        guard case .apply(let commands) = verdict(phoneMessage(subject), shown: [entryID]) else { return XCTFail("refused") }

        let folder = FileManager.default.temporaryDirectory.path + "/triage-unsub-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try Store.open(path: folder, timeZone: zone)
        try store.put(entry(section: "Updates"))
        let day = Timestamp(now, timeZone: zone).localDay
        try DigestCommand.apply(commands, to: store, now: now, today: day)
        try DigestCommand.apply(commands, to: store, now: now.addingTimeInterval(60), today: day)
        let pending = store.records(UnsubscribeRecord.self, in: ["pending"]).records
        XCTAssertEqual(pending.count, 1)
        XCTAssertEqual(pending.first?.list, "weekly.news.example")
        XCTAssertEqual(pending.first?.plan?.method, .oneClick)
        XCTAssertEqual(pending.first?.plan?.uri, "https://news.example/unsub/abc")
    }

    func testATokenForAnotherEntryOrAnUnshownEntryIsRefused() throws {
        let subject = try subject(ofLink: try XCTUnwrap(view(section: "Updates").sections.first?.items.first?.actions.first?.mailto))
        // The item was in no recent digest.
        guard case .refuse = verdict(phoneMessage(subject), shown: []) else { return XCTFail("obeyed an unshown entry") }
        // A token of Done for the same id does not unsubscribe.
        let done = key.token(verb: "done", kind: "digest", id: entryID)
        guard case .refuse = verdict(phoneMessage("triage: unsubscribe 5b0e \(done)"), shown: [entryID]) else {
            return XCTFail("obeyed another action's token")
        }
    }

    func testProblemsEntriesGetNoLink() throws {
        let v = view(section: MailboxRunner.problemsSection)
        XCTAssertEqual(v.sections.first?.items.first?.actions ?? [], [])
    }
}
