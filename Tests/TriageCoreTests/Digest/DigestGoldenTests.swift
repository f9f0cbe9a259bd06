import Foundation
import TriageCore
import XCTest

/// Pins the rendered digest (text, HTML, and the whole composed message) of
/// `DigestSample` with the clock and ids injected.
///
/// After an intended change of the output, regenerate the files and review the diff:
///
///     TRIAGE_UPDATE_GOLDEN=1 swift test --filter DigestGoldenTests
///     git diff Tests/TriageCoreTests/Golden/
///
/// (docs/digest.txt is the text file; docs/digest.png a screenshot of the HTML,
/// see docs/digest.md.)
final class DigestGoldenTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden")

    private func check(_ actual: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let url = Self.folder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["TRIAGE_UPDATE_GOLDEN"] == "1" {
            try Data(actual.utf8).write(to: url)
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(actual, expected, "\(name) differs; see the regeneration note in DigestGoldenTests", file: file, line: line)
    }

    private var rendered: RenderedDigest {
        DigestRenderer(timeZone: DigestSample.zone, ids: DigestSample.ids, links: DigestSample.links).render(DigestSample.plan)
    }

    func testSubject() {
        XCTAssertEqual(rendered.subject, "triage · Mon 30 Nov: 3 reminders, 3 to reconcile, 1 in reply, 2 FYI, 5 Lists, 1 Problem, 1 newsletter")
    }

    func testTextPart() throws {
        try check(rendered.text, "digest.txt")
        for line in rendered.text.split(separator: "\n") {
            XCTAssertLessThanOrEqual(line.count, DigestTextRenderer.width, "too wide: \(line)")
        }
    }

    func testHTMLPart() throws {
        try check(rendered.html, "digest.html")
        // No remote resources, no style sheets: inline styles only; the one web
        // link is Gmail's search for the Gmail account's message.
        for forbidden in ["<style", "<link", "<img", "<script", "http://", "url(", "src="] {
            XCTAssertFalse(rendered.html.contains(forbidden), forbidden)
        }
        XCTAssertEqual(rendered.html.components(separatedBy: "https://").count - 1, 1)
        XCTAssertTrue(rendered.html.contains("href=\"https://mail.google.com/mail/u/0/#search/rfc822msgid%3ACAF%3Dq1.plan%40mail.example.test\""))
        XCTAssertTrue(rendered.html.contains("href=\"message:%3Cm.jane.doe%40example.test%3E\""))
        XCTAssertTrue(rendered.html.contains("href=\"geo:38.9717,-95.2353;u=4828\""))
        XCTAssertTrue(rendered.html.contains("max-width:600px"))
    }

    func testComposedMessage() throws {
        var builder = DigestMessageBuilder(from: "triage <triage@example.test>", to: "Me <me@example.test>", timeZone: DigestSample.zone)
        builder.key = DigestSample.key
        let mail = builder.mail(rendered, day: DigestSample.day, now: DigestSample.now)
        let message = try MIMEComposer().compose(mail)
        try check(message.text.replacingOccurrences(of: "\r\n", with: "\n"), "digest.eml")
        XCTAssertTrue(message.text.contains("\r\nDate: Mon, 30 Nov 2026 07:00:00 -0600\r\n") || message.text.hasPrefix("Date: Mon, 30 Nov 2026 07:00:00 -0600\r\n"))
        XCTAssertTrue(message.messageID.hasPrefix("digest-2026-11-30."))
        XCTAssertTrue(DigestSample.key.isDigestMessageID(message.messageID), message.messageID)
        XCTAssertFalse(DigestKey(secret: Array("another secret, another store!!!".utf8)).isDigestMessageID(message.messageID))
    }

    /// Each open item says in words what to reply, and has a Done link (reminders
    /// also Tomorrow) whose subject carries that record's token.
    func testEveryOpenItemHasItsDoneLinkAndReply() {
        let text = rendered.text, html = rendered.html
        let key = DigestSample.key
        for r in DigestSample.reminders where r.due <= DigestSample.day {
            let short = DigestSample.ids.actionable.short(r.id)
            XCTAssertTrue(text.contains("reply with: done \(short)\n"), r.title)
            let done = "subject=triage%3A%20done%20\(short)%20\(key.token(verb: "done", kind: "reminders", id: r.id))"
            let later = "subject=triage%3A%20tomorrow%20\(short)%20\(key.token(verb: "tomorrow", kind: "reminders", id: r.id))"
            XCTAssertTrue(html.contains("href=\"mailto:me@example.test?" + done + "\""), r.title)
            XCTAssertTrue(html.contains("href=\"mailto:me@example.test?" + later + "\""), r.title)
        }
        for q in DigestSample.queue {
            let short = DigestSample.ids.actionable.short(q.id)
            XCTAssertTrue(text.contains("reply with: done \(short)\n"), q.id)
            XCTAssertTrue(html.contains("subject=triage%3A%20done%20\(short)%20\(key.token(verb: "done", kind: "queue", id: q.id))\""), q.id)
        }
        XCTAssertEqual(html.components(separatedBy: ">Done</a>").count - 1, 3 + 4)
        XCTAssertEqual(html.components(separatedBy: ">Tomorrow</a>").count - 1, 3)
        XCTAssertTrue(text.replacingOccurrences(of: "\n  ", with: " ")
            .contains("near Main Street Cleaners, within 3 mi, on arrival (geo:38.9717,-95.2353;u=4828)"), text)
        XCTAssertTrue(text.contains("Call the plumber about the kitchen tap — overdue 2 days"))
    }

    /// The layout the phone needs: Problems first, "due today" once per section,
    /// compact sections one line per thread with the list's count, newest first,
    /// the next day's reminders in one line.
    func testCompactLayout() {
        let text = rendered.text
        XCTAssertTrue(text.contains("Coming up tomorrow: Renew the parking permit at 09:00\n\n! Problems · 1\n"), text)
        XCTAssertEqual(text.components(separatedBy: "due today").count - 1, 3, text)  // Reminders, To reconcile, reply queue
        XCTAssertTrue(text.contains("[dev] 5 messages in 3 threads"), text)
        XCTAssertTrue(text.contains("  [d030] Ana · Re: [dev] Release 2.4 planning (3) · Sun 15:30"), text)
        let dana = text.range(of: "Dana · ")!, chen = text.range(of: "Chen · ")!
        XCTAssertLessThan(dana.lowerBound, chen.lowerBound, "newest first")
        // The FYI section is compact: no snippets there.
        XCTAssertFalse(text.contains("All checks have passed"))
        // The subject of the reminder from a message is shown once (not in the title: shown).
        XCTAssertEqual(text.components(separatedBy: "Ihr Termin am 4. Dezember").count - 1, 1)
        XCTAssertTrue(rendered.html.contains("⚠ Problems"))
    }
}