import Foundation
import TriageCore
import XCTest

/// Mail is hostile input: nothing from it may become markup in the HTML part
/// or a header line of the digest.
final class DigestEscapingTests: XCTestCase {
    typealias F = DigestFixtures
    static let hostileSubject = "<script>alert(1)</script>\r\nBcc: evil@example.test"

    private func hostileDraft() throws -> (RenderedDigest, ComposedMessage) {
        let day = F.day(2026, 11, 30)
        let plan = DigestPlanner().plan(day: day, reminders: [
            F.reminder(F.id("aa11"), "Pay \r\nBcc: evil@example.test", due: day, note: "<b>bold</b>"),
        ], queueEntries: [
            F.queueEntry(F.id("bb11"), due: day, subject: Self.hostileSubject,
                         from: "Eve <img src=x onerror=alert(1)>\r\nCc: evil@example.test", "eve@example.test",
                         snippet: "</td></tr></table><a href=\"javascript:alert(1)\">click</a> & more"),
        ], digestEntries: [
            F.digestEntry(F.id("cc11"), section: "<i>FYI</i>", created: F.stamp(2026, 11, 29, 5), subject: "x\r\n\r\n<html>"),
        ])
        let ids = DigestShortIDs(queue: ShortIDIndex([F.id("bb11")]), reminders: ShortIDIndex([F.id("aa11")]),
                                 digest: ShortIDIndex([F.id("cc11")]))
        let rendered = DigestRenderer(timeZone: F.chicago, ids: ids).render(plan)
        let mail = DigestMessageBuilder(from: "triage@example.test", to: "me@example.test", timeZone: F.chicago)
            .mail(rendered, day: day, now: F.instant(2026, 11, 30, 7))
        return (rendered, try MIMEComposer().compose(mail))
    }

    func testHostileTextIsEscapedInHTML() throws {
        let (rendered, _) = try hostileDraft()
        let html = rendered.html
        for markup in ["<script", "<img", "<a href=\"javascript", "<b>", "<i>", "<html>", "</table><a"] {
            XCTAssertFalse(html.contains(markup), "unescaped \(markup)")
        }
        XCTAssertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; Bcc: evil@example.test"))
        XCTAssertTrue(html.contains("Eve &lt;img src=x onerror=alert(1)&gt; Cc: evil@example.test"))
        XCTAssertTrue(html.contains("&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;a href=&quot;javascript:alert(1)&quot;&gt;click&lt;/a&gt; &amp; more"))
        XCTAssertTrue(html.contains("&lt;i&gt;FYI&lt;/i&gt;"))
        // The text part shows it as the plain text it is, on one line.
        XCTAssertTrue(rendered.text.contains("• <script>alert(1)</script> Bcc: evil@example.test\n"))
        // The only links are the items' own, to their messages.
        XCTAssertEqual(html.components(separatedBy: "<a ").count, html.components(separatedBy: "<a href=\"message:%3Cm.").count, html)
    }

    func testHostileTextCannotInjectAHeader() throws {
        let (_, message) = try hostileDraft()
        let lines = message.text.components(separatedBy: "\r\n")
        XCTAssertFalse(lines.contains { $0.lowercased().hasPrefix("bcc:") || $0.lowercased().hasPrefix("cc:") })
        XCTAssertFalse(message.text.replacingOccurrences(of: "\r\n", with: "").contains("\r"), "bare CR")
        XCTAssertFalse(message.text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "bare LF")

        // What a real parser sees: no Bcc or Cc, no defects, the script as text.
        let parsed = try PythonEmail.parse(message.text)
        XCTAssertEqual(parsed.headers.map { $0.lowercased() }.filter { $0 == "bcc" || $0 == "cc" }, [])
        XCTAssertEqual(parsed.defects, [])
        XCTAssertEqual(parsed.to.map(\.address), ["me@example.test"])
        XCTAssertEqual(parsed.subject, "triage · Mon 30 Nov: 1 reminder, 1 to reconcile, 1 <i>FYI</i>")
        XCTAssertEqual(parsed.html?.contains("<script"), false)
        XCTAssertEqual(parsed.html?.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), true)
        XCTAssertEqual(parsed.text?.contains("<script>alert(1)</script> Bcc: evil@example.test"), true)
    }

    func testARecipientWithALineBreakIsRefused() {
        let mail = DigestMessageBuilder(from: "triage@example.test", to: "me@example.test\r\nBcc: evil@example.test", timeZone: F.chicago)
            .mail(RenderedDigest(subject: "s", text: "t", html: "<p>h</p>"), day: F.day(2026, 11, 30), now: F.instant(2026, 11, 30, 7))
        XCTAssertThrowsError(try MIMEComposer().compose(mail))
    }
}
