import TriageCore
import XCTest

/// HMAC-SHA-256 against the test vectors of RFC 4231 section 4 (an independent source).
final class HMACSHA256Tests: XCTestCase {
    private func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 2)
            out.append(UInt8(hex[i..<j], radix: 16)!)
            i = j
        }
        return out
    }

    private func check(key: [UInt8], data: [UInt8], _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(SHA256.hex(bytes: HMACSHA256.mac(key: key, message: data)), expected, file: file, line: line)
    }

    func testRFC4231Vectors() {
        // 4.2 Test Case 1
        check(key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8),
              "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        // 4.3 Test Case 2: a key shorter than the output
        check(key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8),
              "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // 4.4 Test Case 3
        check(key: [UInt8](repeating: 0xaa, count: 20), data: [UInt8](repeating: 0xdd, count: 50),
              "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe")
        // 4.5 Test Case 4
        check(key: bytes("0102030405060708090a0b0c0d0e0f10111213141516171819"), data: [UInt8](repeating: 0xcd, count: 50),
              "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b")
        // 4.7 Test Case 6: a key longer than a block is hashed first
        check(key: [UInt8](repeating: 0xaa, count: 131),
              data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
              "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        // 4.8 Test Case 7
        check(key: [UInt8](repeating: 0xaa, count: 131),
              data: Array("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".utf8),
              "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2")
    }

    /// Test Case 5 truncates the output to 128 bits, as the digest's tokens truncate theirs.
    func testRFC4231TruncatedVector() {
        let mac = HMACSHA256.mac(key: [UInt8](repeating: 0x0c, count: 20), message: Array("Test With Truncation".utf8))
        XCTAssertEqual(SHA256.hex(bytes: Array(mac.prefix(16))), "a3b6167473100ee06e0c796c2955552b")
    }

    func testEqualComparesWholeValues() {
        XCTAssertTrue(HMACSHA256.equal([1, 2, 3], [1, 2, 3]))
        XCTAssertFalse(HMACSHA256.equal([1, 2, 3], [1, 2, 4]))
        XCTAssertFalse(HMACSHA256.equal([1, 2], [1, 2, 3]))
    }
}
