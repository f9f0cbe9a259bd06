import Foundation
import TriageCore
import XCTest

/// `DigestLedger`: the sent files, written as ordered JSON and read back with the
/// same keys, and the finishing of a digest whose entries a crash left pending.
final class DigestLedgerTests: XCTestCase {
    private var folder = ""
    private var store: Store!
    private let day = CivilDate(year: 2026, month: 3, day: 2)

    override func setUp() {
        folder = StoreFixtures.freshFolder()
        store = Store(path: folder + "/store", timeZone: StoreFixtures.zone)
    }

    override func tearDown() {
        store = nil
        try? FileManager.default.removeItem(atPath: folder)
    }

    private var sentFile: String { store.root + "/digest/sent/2026-03-02.json" }

    func testTheSentFileListsTheDayTheTimeAndTheEntriesSorted() throws {
        XCTAssertTrue(try store.digestLedger.markSent(day, now: StoreFixtures.now, entries: ["bb", "aa"]))
        XCTAssertEqual(try String(contentsOfFile: sentFile, encoding: .utf8), """
            {
              "day": "2026-03-02",
              "sent": "2026-03-02T09:15:00+01:00",
              "entries": [
                "aa",
                "bb"
              ]
            }
            """ + "\n")
        XCTAssertEqual(StoreFixtures.mode(sentFile), 0o600)
    }

    func testEntriesACrashLeftPendingAreMarkedReportedInTheLastDigestSent() throws {
        let reported = StoreFixtures.digestEntry(1)
        let pending = StoreFixtures.digestEntry(2)
        let later = StoreFixtures.digestEntry(3)
        for entry in [reported, pending, later] { try store.put(entry) }
        try store.markReported([reported.id], day: day)
        // The digest was recorded as sent with both entries, then the run died.
        try store.digestLedger.markSent(day, now: StoreFixtures.now, entries: [reported.id, pending.id])
        try store.digestLedger.finishReporting()
        XCTAssertEqual(Set(store.unreportedDigestEntries().records.map(\.id)), [later.id])
        XCTAssertEqual(try store.record(DigestEntry.self, id: pending.id)?.reported, day)
    }

    func testASentFileThatCannotBeReadProvesNothingAndChangesNothing() throws {
        let entry = StoreFixtures.digestEntry(1)
        try store.put(entry)
        try store.digestLedger.markSent(day, now: StoreFixtures.now, entries: [entry.id])
        try Data("{\"day\": \"2026-03-02\", \"entries\": 7}".utf8).write(to: URL(fileURLWithPath: sentFile))
        XCTAssertNoThrow(try store.digestLedger.finishReporting())
        XCTAssertEqual(store.unreportedDigestEntries().records, [entry])
        XCTAssertTrue(store.digestLedger.isSent(day))
    }
}
