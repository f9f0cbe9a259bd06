import Foundation
import TriageCore
import XCTest

/// Which messages are digest commands, and which of those are obeyed: only a
/// token made with the store's key for exactly that action and record, or a
/// reply to a digest whose Message-ID carries the key's MAC.
final class DigestCommandReaderTests: XCTestCase {
    typealias F = DigestFixtures
    let key = DigestKey(secret: Array("0123456789abcdef0123456789abcdef".utf8))
    let reminder = F.id("0162"), queueEntry = F.id("6aa8"), other = F.id("ae6b"), snoozed = F.id("21c1")
    var reader: DigestCommandReader { DigestCommandReader(addresses: ["Me@Example.test"], key: key) }
    var reminderIDs: [String] { [reminder, snoozed] }
    var queueIDs: [String] { [queueEntry, other] }

    private func message(subject: String, from: String = "me@example.test", to: String = "me@example.test",
                         inReplyTo: String? = nil, messageID: String? = "x@phone.example") -> Message {
        var m = Message()
        m.from = [Address(address: from)]
        m.to = [Address(address: to)]
        m.subject = subject
        m.inReplyTo = inReplyTo
        m.messageID = messageID
        return m
    }

    /// Sent 30 Nov 07:00 Chicago; replies are read an hour later unless said.
    let sent = F.instant(2026, 11, 30, 7)
    var now: Date { F.instant(2026, 11, 30, 8) }

    /// The record of the digest `digestID`, showing `ids` (default: all four records).
    func shown(_ ids: [String]? = nil, id: String? = nil, sent: Date? = nil) -> DigestShownLedger.Shown {
        DigestShownLedger.Shown(messageID: id ?? digestID, day: "2026-11-30",
                                sent: Timestamp(sent ?? self.sent, timeZone: F.chicago).rfc3339,
                                ids: ids ?? [reminder, snoozed, queueEntry, other])
    }

    private func read(_ m: Message, body: String = "", digests: [DigestShownLedger.Shown]? = nil,
                      at: Date? = nil) -> DigestCommandReader.Verdict {
        XCTAssertTrue(reader.isCandidate(m), "\(m.subject ?? "")")
        return reader.read(m, body: body, reminderIDs: reminderIDs, queueIDs: queueIDs, digests: digests ?? [shown()],
                           now: at ?? now)
    }

    private func refused(_ verdict: DigestCommandReader.Verdict, file: StaticString = #filePath, line: UInt = #line) -> String {
        guard case .refuse(let reason) = verdict else { XCTFail("obeyed: \(verdict)", file: file, line: line); return "" }
        return reason
    }

    var digestID: String {
        var builder = DigestMessageBuilder(from: "triage@example.test", to: "me@example.test", timeZone: F.chicago)
        builder.key = key
        return builder.messageID(day: F.day(2026, 11, 30))
    }

    func testADoneLinkWithItsTokenIsObeyed() {
        let token = key.token(verb: "done", kind: "reminders", id: reminder)
        XCTAssertEqual(read(message(subject: "triage: done 0162 \(token)")),
                       .apply([DigestCommand(verb: .done, kind: "reminders", id: reminder)]))
        let later = key.token(verb: "tomorrow", kind: "queue", id: queueEntry)
        XCTAssertEqual(read(message(subject: "triage: tomorrow 6aa8 \(later)")),
                       .apply([DigestCommand(verb: .snooze(days: 1), kind: "queue", id: queueEntry)]))
    }

    func testForgedTokensAndTokensOfAnotherItemOrActionAreRefused() {
        XCTAssertTrue(refused(read(message(subject: "triage: done 0162 aaaaaaaa"))).contains("token does not fit"))
        // The token of another record, under the right key.
        let otherToken = key.token(verb: "done", kind: "queue", id: other)
        XCTAssertTrue(refused(read(message(subject: "triage: done 0162 \(otherToken)"))).contains("token does not fit"))
        // The Tomorrow token does not close it.
        let later = key.token(verb: "tomorrow", kind: "reminders", id: reminder)
        XCTAssertTrue(refused(read(message(subject: "triage: done 0162 \(later)"))).contains("token does not fit"))
        // A token made with another store's key.
        let foreign = DigestKey(secret: Array("another store, another secret!!!".utf8)).token(verb: "done", kind: "reminders", id: reminder)
        XCTAssertTrue(refused(read(message(subject: "triage: done 0162 \(foreign)"))).contains("token does not fit"))
        XCTAssertTrue(refused(read(message(subject: "triage: done 0162"))).contains("not a Done or Tomorrow link"))
        XCTAssertTrue(refused(read(message(subject: "triage: done zz;rm \(otherToken)"))).contains("names no record id"))
    }

    func testOnlyMailFromAndToTheUserIsACandidate() {
        let token = key.token(verb: "done", kind: "reminders", id: reminder)
        XCTAssertFalse(reader.isCandidate(message(subject: "triage: done 0162 \(token)", from: "eve@example.test")))
        XCTAssertFalse(reader.isCandidate(message(subject: "triage: done 0162 \(token)", to: "eve@example.test")))
        // A reply goes where the mail app sends it (the digest's From or Reply-To): any To.
        XCTAssertTrue(reader.isCandidate(message(subject: "Re: triage · Mon 30 Nov", to: "triage@example.test", inReplyTo: digestID)))
        XCTAssertFalse(reader.isCandidate(message(subject: "Re: triage · Mon 30 Nov", from: "eve@example.test", inReplyTo: digestID)))
        XCTAssertFalse(reader.isCandidate(message(subject: "Lunch?")))
        // The digest itself, when it is sent from the user to the user.
        XCTAssertFalse(reader.isCandidate(message(subject: "triage · Mon 30 Nov: 2 reminders", messageID: digestID)))
    }

    func testAReplyToTheDigestAppliesEveryCommandAboveTheQuote() {
        let body = """
        done 0162
        done 6aa8 ae6b

        snooze 21c1 3 days
        Sent from my phone

        On Mon, 30 Nov 2026 at 07:00, triage <triage@example.test> wrote:
        > reopen 0162
        """
        XCTAssertEqual(read(message(subject: "Re: triage · Mon 30 Nov: 2 reminders", inReplyTo: digestID), body: body), .apply([
            DigestCommand(verb: .done, kind: "reminders", id: reminder),
            DigestCommand(verb: .done, kind: "queue", id: queueEntry),
            DigestCommand(verb: .done, kind: "queue", id: other),
            DigestCommand(verb: .snooze(days: 3), kind: "reminders", id: snoozed),
        ]))
        XCTAssertEqual(read(message(subject: "Re: x", inReplyTo: digestID), body: "reopen 0162\nsnooze 6aa8 2 weeks"), .apply([
            DigestCommand(verb: .reopen, kind: "reminders", id: reminder),
            DigestCommand(verb: .snooze(days: 14), kind: "queue", id: queueEntry),
        ]))
    }

    /// Outlook includes the digest unquoted below its own header block; the digest's
    /// footer ("done a39c [more ids]   it is done") must not be read as commands.
    func testAnUnquotedCopyOfTheDigestEndsTheCommands() {
        for marker in ["-----Original Message-----", "________________________________", "From: triage <triage@example.test>",
                       "triage · Monday 30 November 2026"] {
            let body = "done 0162\r\n\r\n\(marker)\r\n  done 0162 [more ids]   it is done\r\n  snooze 0162 3 days     due again\r\n"
            XCTAssertEqual(read(message(subject: "RE: triage", inReplyTo: digestID), body: body),
                           .apply([DigestCommand(verb: .done, kind: "reminders", id: reminder)]), marker)
        }
    }

    func testRepliesThatProveNothingOrSayNothingAreRefused() {
        // A digest-looking Message-ID without the right MAC.
        let forged = digestID.replacingOccurrences(of: "digest-2026-11-30.", with: "digest-2026-12-01.")
        XCTAssertTrue(refused(read(message(subject: "Re: triage · Tue", inReplyTo: forged), body: "done 0162"))
            .contains("MAC does not verify"))
        // The digest's subject, but an answer to another message.
        XCTAssertTrue(refused(read(message(subject: "Re: triage · Mon 30 Nov: 1 reminder", inReplyTo: "other@example.test"),
                                   body: "done 0162")).contains("names none"))
        for (body, says) in [("snooze 21c1", "snooze wants"), ("done", "wants one or more ids"), ("done 9999", "names an item that digest did not show"),
                             ("thanks!", "holds no command"), ("done 0162 snooze", "an id is 4 or more hex digits")] {
            XCTAssertTrue(refused(read(message(subject: "Re: triage", inReplyTo: digestID), body: body)).contains(says), body)
        }
    }

    /// A snooze's number is the sender's text: one beyond any limit is refused, never
    /// multiplied (`2000000000000000000 weeks` trapped on `n * 7` and crashed every run).
    func testAHugeSnoozeIsRefusedNotOverflowed() {
        for time in ["2000000000000000000 weeks", "9223372036854775807 days", "1317624576693539402 weeks",
                     "99999999999999999999999 days", "53 weeks", "367 days", "-1 days", "+3 days", "0 days", "3 fortnights"] {
            let reason = refused(read(message(subject: "Re: triage", inReplyTo: digestID), body: "snooze 21c1 \(time)"))
            XCTAssertTrue(reason.contains("snooze wants an id and a time of at most 366 days"), "\(time): \(reason)")
        }
        for (time, days) in [("52 weeks", 364), ("366 days", 366), ("a week", 7), ("007 days", 7), ("tomorrow", 1)] {
            XCTAssertEqual(read(message(subject: "Re: triage", inReplyTo: digestID), body: "snooze 21c1 \(time)"),
                           .apply([DigestCommand(verb: .snooze(days: days), kind: "reminders", id: snoozed)]), time)
        }
    }

    func testApplyingIsIdempotent() throws {
        let store = Store(path: F.freshFolder(), timeZone: F.chicago)
        store.synchronous = false
        let day = F.day(2026, 11, 30)
        try store.put(F.reminder(reminder, "Call", due: day))
        try store.put(F.queueEntry(queueEntry, due: day))
        let now = F.instant(2026, 11, 30, 8)
        let commands = [DigestCommand(verb: .done, kind: "reminders", id: reminder),
                        DigestCommand(verb: .snooze(days: 3), kind: "queue", id: queueEntry)]
        for _ in 0..<2 { try DigestCommand.apply(commands, to: store, now: now, today: day) }
        XCTAssertEqual(try store.record(Reminder.self, id: reminder)?.status, .done)
        let entry = try store.record(QueueEntry.self, id: queueEntry)!
        XCTAssertEqual(entry.status, .open)
        XCTAssertEqual(entry.due, F.day(2026, 12, 3))
        try DigestCommand.apply([DigestCommand(verb: .reopen, kind: "reminders", id: reminder)], to: store, now: now, today: day)
        XCTAssertEqual(try store.record(Reminder.self, id: reminder)?.status, .open)
    }

    func testTheSecretIsMadeOncePrivateAndKept() throws {
        let store = Store(path: F.freshFolder(), timeZone: F.chicago)
        store.synchronous = false
        var calls = 0
        let first = try store.commandSecret { calls += 1; return [UInt8](repeating: 7, count: 32) }
        let second = try store.commandSecret { calls += 1; return [UInt8](repeating: 9, count: 32) }
        XCTAssertEqual(calls, 1)
        XCTAssertEqual(first.token(verb: "done", kind: "queue", id: other), second.token(verb: "done", kind: "queue", id: other))
        let mode = try FileManager.default.attributesOfItem(atPath: store.commandSecretPath)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
    }

    // MARK: - Which digest, which records, how long (issue 25)

    func testAReplyActsOnlyOnTheRecordsTheAnsweredDigestShowed() {
        let digest = shown([reminder, queueEntry])
        let reply = message(subject: "Re: triage · Mon 30 Nov", inReplyTo: digestID)
        XCTAssertEqual(read(reply, body: "done 6aa8", digests: [digest]),
                       .apply([DigestCommand(verb: .done, kind: "queue", id: queueEntry)]))
        // ae6b exists in the store, but that digest did not show it: the whole reply is refused.
        let reason = refused(read(reply, body: "done 6aa8\ndone ae6b", digests: [digest]))
        XCTAssertEqual(reason, "line 2 names an item that digest did not show")
    }

    func testARefusalNeverRepeatsWhatTheReplySaid() {
        let reply = message(subject: "Re: triage · Mon 30 Nov", inReplyTo: digestID)
        for body in ["done ae6b", "done 9999", "reopen 21c1xyz", "done 0162 6aa8 ae6b", "snooze ae6b 2 days"] {
            let reason = refused(read(reply, body: body, digests: [shown([reminder, queueEntry])]))
            for word in body.split(separator: " ") where word.count >= 4 && !["done", "snooze", "reopen"].contains(String(word)) {
                XCTAssertFalse(reason.contains(word) && word != "0162", "\(reason) repeats \(word)")
            }
            XCTAssertFalse(reason.contains(body), reason)
        }
    }

    func testHintsUseTheIDsOfTheDigestAnswered() {
        let seven = F.id("7a3f")
        let reader = self.reader
        let reply = message(subject: "Re: triage · Mon 30 Nov", inReplyTo: digestID)
        let digests = [shown([seven])]
        for (body, says) in [("done", "as in done 7a3f"), ("snooze 7a3f", "as in snooze 7a3f 3 days"), ("thanks", "done 7a3f")] {
            guard case .refuse(let reason) = reader.read(reply, body: body, reminderIDs: reminderIDs + [seven], queueIDs: queueIDs,
                                                         digests: digests, now: now) else { return XCTFail(body) }
            XCTAssertTrue(reason.contains(says), reason)
            XCTAssertFalse(reason.contains("0162") || reason.contains("21c1"), reason)
        }
    }

    func testAReplyCountsForReplyDaysAfterTheDigestWasSent() {
        let reply = message(subject: "Re: triage · Mon 30 Nov", inReplyTo: digestID)
        let thirty = Date(timeInterval: 30 * 86_400, since: sent)
        XCTAssertEqual(read(reply, body: "done 0162", at: thirty), .apply([DigestCommand(verb: .done, kind: "reminders", id: reminder)]))
        let reason = refused(read(reply, body: "done 0162", at: thirty.addingTimeInterval(60)))
        XCTAssertEqual(reason, "the digest of Mon 30 Nov is older than 30 days: reply to today's digest")
        var short = self.reader
        short.replyDays = 2
        guard case .refuse(let stale) = short.read(reply, body: "done 0162", reminderIDs: reminderIDs, queueIDs: queueIDs,
                                                   digests: [shown()], now: F.instant(2026, 12, 3, 8)) else { return XCTFail() }
        XCTAssertTrue(stale.contains("older than 2 days"), stale)
        short.replyDays = 1
        guard case .refuse(let day) = short.read(reply, body: "done 0162", reminderIDs: reminderIDs, queueIDs: queueIDs,
                                                 digests: [shown()], now: F.instant(2026, 12, 3, 8)) else { return XCTFail() }
        XCTAssertTrue(day.contains("older than 1 day:"), day)
        // Pruned (or never recorded): refused, saying why.
        XCTAssertTrue(refused(read(reply, body: "done 0162", digests: [], at: F.instant(2027, 2, 1, 8))).contains("older than 30 days"))
        XCTAssertTrue(refused(read(reply, body: "done 0162", digests: [])).contains("is not on record"))
    }

    func testInReplyToDecidesAndReferencesFallBackToTheNewestDigestOnRecord() {
        var builder = DigestMessageBuilder(from: "triage@example.test", to: "me@example.test", timeZone: F.chicago)
        builder.key = key
        let older = builder.messageID(day: F.day(2026, 11, 29)), newer = digestID
        let olderShown = DigestShownLedger.Shown(messageID: older, day: "2026-11-29",
                                                 sent: Timestamp(F.instant(2026, 11, 29, 7), timeZone: F.chicago).rfc3339, ids: [other])
        let newerShown = shown([reminder])
        // A reply to the user's own earlier reply: In-Reply-To names no digest; References hold both.
        var threaded = message(subject: "Re: Re: triage · Mon 30 Nov", inReplyTo: "earlier@phone.example")
        threaded.references = [older, "earlier@phone.example", newer]
        XCTAssertEqual(read(threaded, body: "done 0162", digests: [olderShown, newerShown]),
                       .apply([DigestCommand(verb: .done, kind: "reminders", id: reminder)]))
        XCTAssertTrue(refused(read(threaded, body: "done ae6b", digests: [olderShown, newerShown])).contains("did not show"))
        // A direct reply to the older digest acts on what that one showed, not the newer one's.
        var direct = message(subject: "Re: triage · Sun 29 Nov", inReplyTo: older)
        direct.references = [newer, older]
        XCTAssertEqual(read(direct, body: "done ae6b", digests: [olderShown, newerShown]),
                       .apply([DigestCommand(verb: .done, kind: "queue", id: other)]))
        XCTAssertTrue(refused(read(direct, body: "done 0162", digests: [olderShown, newerShown])).contains("did not show"))
    }

    func testALinkCountsWhileADigestOfTheLastReplyDaysShowedItsItem() {
        let token = key.token(verb: "done", kind: "reminders", id: reminder)
        let link = message(subject: "triage: done 0162 \(token)")
        XCTAssertEqual(read(link, digests: [shown([reminder])]), .apply([DigestCommand(verb: .done, kind: "reminders", id: reminder)]))
        XCTAssertTrue(refused(read(link, digests: [shown([queueEntry])])).contains("in no digest of the last 30 days"))
        XCTAssertTrue(refused(read(link, digests: [shown([reminder])], at: Date(timeInterval: 31 * 86_400, since: sent)))
            .contains("in no digest of the last 30 days"))
    }
}
