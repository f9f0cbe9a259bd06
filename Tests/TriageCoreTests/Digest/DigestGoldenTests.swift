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
        DigestRenderer(timeZone: DigestSample.zone, ids: DigestSample.ids).render(DigestSample.plan)
    }

    func testSubject() {
        XCTAssertEqual(rendered.subject, "triage · Mon 30 Nov: 3 reminders, 3 to reconcile, 1 in reply, 2 FYI, 1 newsletters")
    }

    func testTextPart() throws {
        try check(rendered.text, "digest.txt")
        for line in rendered.text.split(separator: "\n") {
            XCTAssertLessThanOrEqual(line.count, DigestTextRenderer.width, "too wide: \(line)")
        }
    }

    func testHTMLPart() throws {
        try check(rendered.html, "digest.html")
        // No remote resources, no style sheets: inline styles only.
        for forbidden in ["<style", "<link", "<img", "<script", "http://", "https://", "url("] {
            XCTAssertFalse(rendered.html.contains(forbidden), forbidden)
        }
        XCTAssertTrue(rendered.html.contains("max-width:600px"))
    }

    func testComposedMessage() throws {
        let mail = DigestMessageBuilder(from: "triage <triage@example.test>", to: "Me <me@example.test>", timeZone: DigestSample.zone)
            .mail(rendered, day: DigestSample.day, now: DigestSample.now)
        let message = try MIMEComposer().compose(mail)
        try check(message.text.replacingOccurrences(of: "\r\n", with: "\n"), "digest.eml")
        XCTAssertTrue(message.text.contains("\r\nDate: Mon, 30 Nov 2026 07:00:00 -0600\r\n") || message.text.hasPrefix("Date: Mon, 30 Nov 2026 07:00:00 -0600\r\n"))
        XCTAssertTrue(message.messageID.hasPrefix("digest-2026-11-30."))
    }

    /// Each item carries the command that closes it, with a short id that
    /// names exactly that record.
    func testEveryOpenItemNamesItsCloseCommand() {
        let text = rendered.text
        for r in DigestSample.reminders { XCTAssertTrue(text.contains("triage remind done \(r.id.prefix(4))\n"), r.title) }
        for q in DigestSample.queue { XCTAssertTrue(text.contains("triage queue done \(q.id.prefix(4))\n"), q.id) }
        XCTAssertTrue(text.contains("within 3 mi of 38.9717,-95.2353, on arrival"))
        XCTAssertTrue(text.contains("Call the plumber about the kitchen tap — overdue 2 days"))
    }
}
