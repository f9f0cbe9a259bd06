import Foundation
import TriageCore
import XCTest

/// What the move journal proves about an interrupted move without MOVE.
final class CopyEvidenceTests: XCTestCase {
    private func message(_ uid: UInt32, _ header: String, size: Int = 100, arrived: Int64? = 1_000) -> FetchedMessage {
        FetchedMessage(uid: uid, size: size, internalDate: arrived, header: Array(header.utf8))
    }

    private let headerA = "Message-ID: <a@x>\r\nSubject: A\r\n\r\n"
    private let decoyA = "Message-ID: <a@x>\r\nSubject: not A\r\n\r\n"
    private let noID = "Subject: no id\r\n\r\n"

    func testCOPYUIDProvesACopyThatStillExists() {
        let attempt = CopyAttempt(folder: "F", uids: [5, 6], targetUIDValidity: 9, targetUIDNext: 40,
                                  copies: [.init(uid: 5, copy: 40), .init(uid: 6, copy: 41)])
        let evidence = CopyEvidence(uids: [5, 6], folder: "F", attempts: [attempt], targetUIDValidity: 9)
        XCTAssertEqual(evidence.provenCopies, [40, 41])
        XCTAssertNil(evidence.searchFloor, "every original has COPYUID proof: nothing to search")
        // 41 was removed from the target since: 6 must be copied again.
        let found = evidence.copies(of: [message(5, headerA), message(6, noID)], in: [FetchedMessage(uid: 40)])
        XCTAssertEqual(found, [5: 40])
    }

    func testProofsFromAnotherUIDValidityOrFolderCountForNothing() {
        let attempt = CopyAttempt(folder: "F", uids: [5], targetUIDValidity: 9, targetUIDNext: 40, copies: [.init(uid: 5, copy: 40)])
        XCTAssertTrue(CopyEvidence(uids: [5], folder: "F", attempts: [attempt], targetUIDValidity: 10).isEmpty)
        XCTAssertTrue(CopyEvidence(uids: [5], folder: "G", attempts: [attempt], targetUIDValidity: 9).isEmpty)
        XCTAssertTrue(CopyEvidence(uids: [6], folder: "F", attempts: [attempt], targetUIDValidity: 9).isEmpty)
    }

    func testAboveTheMarkOnlyTheSameMessageCounts() {
        // Killed after the COPY, before its COPYUID was journaled.
        let attempt = CopyAttempt(folder: "F", uids: [5], targetUIDValidity: 9, targetUIDNext: 40)
        let evidence = CopyEvidence(uids: [5], folder: "F", attempts: [attempt], targetUIDValidity: 9)
        XCTAssertEqual(evidence.searchFloor, 40)
        let original = message(5, headerA)
        // A decoy with the same Message-ID below the mark (already there) and above it
        // (arrived since), one with the same header but another size or arrival time:
        // none is the copy.
        let decoys = [message(12, headerA), message(40, decoyA), message(41, headerA, size: 101),
                      message(42, headerA, arrived: 1_001), message(43, headerA, arrived: nil)]
        XCTAssertEqual(evidence.copies(of: [original], in: decoys), [:])
        XCTAssertEqual(evidence.copies(of: [original], in: decoys + [message(44, headerA)]), [5: 44])
    }

    func testIdenticalOriginalsNeedACopyEach() {
        let attempt = CopyAttempt(folder: "F", uids: [5, 6], targetUIDValidity: 9, targetUIDNext: 40)
        let evidence = CopyEvidence(uids: [5, 6], folder: "F", attempts: [attempt], targetUIDValidity: 9)
        let twins = [message(5, noID), message(6, noID)]
        XCTAssertEqual(evidence.copies(of: twins, in: [message(40, noID)]), [5: 40], "one copy stands for one original")
        XCTAssertEqual(evidence.copies(of: twins, in: [message(41, noID), message(40, noID)]), [5: 40, 6: 41])
    }

    func testACopyCOPYUIDNamedForAnotherMessageIsNeverTaken() {
        // 7 was copied to 40 and is gone from here (its move finished); 5 is identical
        // to it and was in a COPY whose answer was lost.
        let attempts = [CopyAttempt(folder: "F", uids: [7], targetUIDValidity: 9, targetUIDNext: 40, copies: [.init(uid: 7, copy: 40)]),
                        CopyAttempt(folder: "F", uids: [5], targetUIDValidity: 9, targetUIDNext: 40)]
        let evidence = CopyEvidence(uids: [5], folder: "F", attempts: attempts, targetUIDValidity: 9)
        XCTAssertEqual(evidence.copies(of: [message(5, noID)], in: [message(40, noID)]), [:])
    }

    func testTheLowestMarkOfRepeatedAttemptsIsTheFloor() {
        let attempts = [CopyAttempt(folder: "F", uids: [5], targetUIDValidity: 9, targetUIDNext: 40),
                        CopyAttempt(folder: "F", uids: [5], targetUIDValidity: 9, targetUIDNext: 45),
                        CopyAttempt(folder: "F", uids: [5], targetUIDValidity: 9, targetUIDNext: 0)]
        XCTAssertEqual(CopyEvidence(uids: [5], folder: "F", attempts: attempts, targetUIDValidity: 9).searchFloor, 40)
    }

    func testAnOldJournalReadsAndProvesNothing() throws {
        let old = #"{"moves":{"Lists/dev":[3,9]},"uidvalidity":77}"#
        let journal = try JSONDecoder().decode(MoveJournal.self, from: Data(old.utf8))
        XCTAssertEqual(journal.moves, ["Lists/dev": [3, 9]])
        XCTAssertEqual(journal.attempts, [])
        XCTAssertEqual(journal.started([3, 4], to: "Lists/dev"), [3], "resumed, so a \\Deleted mark is cleared first")
        XCTAssertTrue(CopyEvidence(uids: [3], folder: "Lists/dev", attempts: journal.attempts(to: "Lists/dev"), targetUIDValidity: 1).isEmpty)
    }

    func testTheJournalRoundTripsWithItsAttempts() throws {
        var journal = MoveJournal(uidValidity: 77, moves: ["F": [5]])
        journal.attempts = [CopyAttempt(folder: "F", uids: [5], targetUIDValidity: 9, targetUIDNext: 40, copies: [.init(uid: 5, copy: 40)])]
        let data = try JSONEncoder().encode(journal)
        XCTAssertEqual(try JSONDecoder().decode(MoveJournal.self, from: data), journal)
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(text.contains("\"target_uidnext\":40") && text.contains("\"copy\":40"), text)
    }
}
