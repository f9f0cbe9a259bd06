import TriageCore
import XCTest

final class ShortIDIndexTests: XCTestCase {
    func testShortestUniquePrefixIsAtLeastFourDigits() {
        let ids = ["0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdee", "01239999999999999999999999999999",
                   "fedcba98765432100000000000000000"]
        let index = ShortIDIndex(ids)
        XCTAssertEqual(index.short(ids[0]), "0123456789abcdef0123456789abcdef")
        XCTAssertEqual(index.short(ids[1]), "0123456789abcdef0123456789abcdee")
        XCTAssertEqual(index.short(ids[2]), "01239")
        XCTAssertEqual(index.short(ids[3]), "fedc")
        XCTAssertEqual(index.match("0123"), .many([ids[1], ids[0], ids[2]]))
        XCTAssertEqual(index.match("01239"), .one(ids[2]))
        XCTAssertEqual(index.match("FEDC"), .one(ids[3]))
        XCTAssertEqual(index.match("0124"), .none)
        XCTAssertEqual(index.match("012"), .malformed)
        XCTAssertEqual(index.match("0123g"), .malformed)
    }

    func testEveryShortIDResolvesBackToItsID() {
        let ids = (0..<2000).map { RecordID.forMessage(account: "a", messageKey: "mid:\($0)", rule: "r", actionKey: "q") }
        let index = ShortIDIndex(ids)
        for id in ids {
            let short = index.short(id)
            XCTAssertGreaterThanOrEqual(short.count, 4)
            XCTAssertEqual(index.match(short), .one(id))
            if short.count > 4 { XCTAssertNotEqual(index.match(String(short.dropLast())), .one(id)) }
        }
    }
}
