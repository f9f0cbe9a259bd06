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

    private func read(_ m: Message, body: String = "") -> DigestCommandReader.Verdict {
        XCTAssertTrue(reader.isCandidate(m), "\(m.subject ?? "")")
        return reader.read(m, body: body, reminderIDs: reminderIDs, queueIDs: queueIDs)
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
        XCTAssertTrue(refused(read(message(subject: "triage: done zz;rm \(otherToken)"))).contains("is not a record id"))
    }

    func testOnlyMailFromAndToTheUserIsACandidate() {
        let token = key.token(verb: "done", kind: "reminders", id: reminder)
        XCTAssertFalse(reader.isCandidate(message(subject: "triage: done 0162 \(token)", from: "eve@example.test")))
        XCTAssertFalse(reader.isCandidate(message(subject: "triage: done 0162 \(token)", to: "eve@example.test")))
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
        for (body, says) in [("snooze 21c1", "snooze wants"), ("done", "wants one or more ids"), ("done 9999", "no reminder or queue entry"),
                             ("thanks!", "holds no command"), ("done 0162 snooze", "is not a record id")] {
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
}
