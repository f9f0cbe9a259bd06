import TriageCore
import XCTest

final class SHA256Tests: XCTestCase {
    func testKnownVectors() {
        XCTAssertEqual(SHA256.hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(SHA256.hex(String(repeating: "a", count: 1000)),
                       "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    /// The lengths where the padding changes shape: up to 55 bytes the 0x80 and the
    /// 8-byte length fit in the last block; from 56 they need a second one; at 64 the
    /// message fills a block exactly. Values from coreutils' `sha256sum`
    /// (`head -c N /dev/zero | tr '\0' a | sha256sum`), an independent implementation.
    func testPaddingBoundaries() {
        let expected: [(Int, String)] = [
            (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
            (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
            (57, "f13b2d724659eb3bf47f2dd6af1accc87b81f09f59f2b75e5c0bed6589dfe8c6"),
            (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
            (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
            (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
            (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
            (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
            (128, "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e"),
        ]
        for (length, digest) in expected {
            XCTAssertEqual(SHA256.hex(String(repeating: "a", count: length)), digest, "\(length) bytes")
        }
    }

    /// Bytes 0, 1, 2, ... (not all one value, so a byte-order slip shows), through
    /// both entry points. Values from Python's `hashlib.sha256(bytes(range(N)))`.
    func testPaddingBoundariesWithVaryingBytes() {
        let expected: [(Int, String)] = [
            (55, "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59"),
            (56, "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562"),
            (64, "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108"),
        ]
        for (length, digest) in expected {
            let bytes = (0..<length).map { UInt8($0) }
            XCTAssertEqual(hex(SHA256.hash(bytes)), digest, "\(length) bytes, contiguous")
            // A lazy sequence has no contiguous storage: the copying path.
            XCTAssertEqual(hex(SHA256.hash((0..<length).lazy.map { UInt8($0) })), digest, "\(length) bytes, sequence")
        }
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
