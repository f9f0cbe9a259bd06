import Foundation
import TriageCore
import XCTest

/// Compact sections: one line per thread, lists with more than one message under
/// their own heading, newest first; sections not named in `compact` keep detail.
final class DigestCompactTests: XCTestCase {
    typealias F = DigestFixtures

    private func entry(_ n: Int, _ subject: String, list: String?, hour: Int, section: String = "FYI") -> DigestEntry {
        var e = F.digestEntry(F.id("c\(n)00"), section: section, created: F.stamp(2026, 11, 29, hour), subject: subject,
                              from: "P\(n)", "p\(n)@example.test", date: "2026-11-29T\(10 + hour):00:00-06:00",
                              snippet: "snippet \(n)")
        e.message.list = list
        return e
    }

    private func view(_ entries: [DigestEntry], compact: [String] = DigestSection.defaultCompact) -> DigestView {
        let plan = DigestPlanner().plan(day: F.day(2026, 11, 30), reminders: [], queueEntries: [], digestEntries: entries)
        return DigestView(plan: plan, ids: DigestShortIDs(queue: ShortIDIndex([]), reminders: ShortIDIndex([]),
                                                           digest: ShortIDIndex(entries.map(\.id))),
                          timeZone: F.chicago, compact: compact)
    }

    func testListsGroupThreadsAndSingleMessagesStandAlone() throws {
        let v = view([
            entry(1, "[dev] Plan", list: "dev.lists.example", hour: 1),
            entry(2, "Re: [dev] Plan", list: "dev.lists.example", hour: 3),
            entry(3, "[dev] Other", list: "dev.lists.example", hour: 2),
            entry(4, "Lone post", list: "ops.lists.example", hour: 4),
            entry(5, "Hello", list: nil, hour: 5),
        ])
        let section = try XCTUnwrap(v.sections.first)
        XCTAssertTrue(section.compact)
        XCTAssertEqual(section.count, 5)
        XCTAssertEqual(section.groups.map(\.heading), [nil, "[dev] 3 messages in 2 threads"])
        XCTAssertEqual(section.groups[0].lines.map(\.subject), ["Hello", "Lone post"], "newest first")
        XCTAssertEqual(section.groups[1].lines.map(\.subject), ["Re: [dev] Plan", "[dev] Other"])
        XCTAssertEqual(section.groups[1].lines.map(\.count), [2, 1])
        XCTAssertEqual(section.groups[1].lines[0].sender, "P2", "the thread's latest sender")
    }

    func testOnlyTheConfiguredSectionsAreCompact() {
        let entries = [entry(1, "A", list: nil, hour: 1, section: "Receipts"), entry(2, "B", list: nil, hour: 2, section: "fyi")]
        let v = view(entries, compact: ["Receipts"])
        XCTAssertEqual(v.sections.map(\.heading), ["Receipts", "fyi"])
        XCTAssertTrue(v.sections[0].compact)
        XCTAssertFalse(v.sections[1].compact)
        XCTAssertEqual(v.sections[1].items.map(\.snippet), ["snippet 2"])
        XCTAssertTrue(view(entries).sections[1].compact, "compared without case: fyi is FYI")
        XCTAssertFalse(view(entries, compact: []).sections.contains { $0.compact })
    }
}
