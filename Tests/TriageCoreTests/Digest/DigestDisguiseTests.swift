import Foundation
import TriageCore
import XCTest

/// A sender whose display name shows another domain than its address
/// (`is:impersonating`) is called out in the digest and never listed by that name.
final class DigestDisguiseTests: XCTestCase {
    typealias F = DigestFixtures

    private func rendered() -> RenderedDigest {
        let day = F.day(2026, 11, 30)
        let plan = DigestPlanner().plan(day: day, reminders: [], queueEntries: [
            F.queueEntry(F.id("aa11"), due: day, subject: "Your statement", from: "statements@bank.example", "secure-9@evil.example"),
            F.queueEntry(F.id("bb11"), due: day, subject: "Your receipt", from: "statements@bank.example", "noreply@bank.example"),
        ], digestEntries: [
            F.digestEntry(F.id("cc11"), section: "FYI", created: F.stamp(2026, 11, 29, 5), from: "Bank (bank.example)", "x@evil.example"),
        ])
        let ids = DigestShortIDs(queue: ShortIDIndex([F.id("aa11"), F.id("bb11")]), reminders: ShortIDIndex([]),
                                 digest: ShortIDIndex([F.id("cc11")]))
        return DigestRenderer(timeZone: F.chicago, ids: ids).render(plan)
    }

    func testAnImpersonatingSenderIsCalledOutInBothParts() {
        let digest = rendered()
        // The text part wraps at 72 columns: read it with its continuation lines joined.
        let text = digest.text.replacingOccurrences(of: "\n  ", with: " ")
        let warning = "warning: the sender's name shows bank.example, but the address is secure-9@evil.example"
        XCTAssertTrue(text.contains("• Your statement " + warning + " "), digest.text)
        XCTAssertTrue(text.contains("warning: the sender's name shows bank.example, but the address is x@evil.example"),
                      digest.text)
        XCTAssertTrue(digest.html.contains(warning.replacingOccurrences(of: "'", with: "&#39;")), "the HTML part says it too")
        // The genuine sender, whose name shows its own domain, gets no warning.
        XCTAssertEqual(text.components(separatedBy: "warning:").count - 1, 2, digest.text)
    }

    func testTheListColumnShowsTheAddressNotTheDisguise() {
        XCTAssertEqual(F.summary(from: "statements@bank.example", "secure-9@evil.example", subject: nil, date: nil, snippet: "")
            .senderLabel, "secure-9@evil.example")
        XCTAssertEqual(F.summary(from: "statements@bank.example", "noreply@bank.example", subject: nil, date: nil, snippet: "")
            .senderLabel, "statements@bank.example")
        XCTAssertEqual(F.summary(from: "Bank", "noreply@bank.example", subject: nil, date: nil, snippet: "").senderLabel, "Bank")
    }
}
