@testable import TriageIMAP
import XCTest

/// The stream guard's last-line memory (what tells a tagged BAD from a stream out of
/// step): the same as going byte by byte, however the answer is cut into reads.
final class StreamGuardLinesTests: XCTestCase {
    /// The byte-by-byte reading it replaces: (last whole line, open line), each at most 64 bytes.
    private func reference(_ chunks: [[UInt8]]) -> ([UInt8], [UInt8]) {
        var last: [UInt8] = [], current: [UInt8] = []
        for byte in chunks.joined() {
            if byte == UInt8(ascii: "\n") {
                last = current
                current.removeAll()
            } else if current.count < 64 {
                current.append(byte)
            }
        }
        return (last, current)
    }

    func testLinesMatchAByteByByteReadingWhateverTheChunks() {
        var generator = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [Array("* 1 FETCH (UID 4 BODY[TEXT] {300}\r\n".utf8), Array(repeating: UInt8(ascii: "a"), count: 150),
                                 Array("\r\n".utf8), Array("\n\n".utf8), Array("12 BAD Unrecognized flag\r\n".utf8),
                                 Array("x".utf8), Array(repeating: UInt8(ascii: "b"), count: 70)]
        for _ in 0..<2000 {
            let stream = (0..<Int.random(in: 1...8, using: &generator)).flatMap { _ in pieces.randomElement(using: &generator)! }
            var chunks: [[UInt8]] = []
            var start = 0
            while start < stream.count {
                let end = min(stream.count, start + Int.random(in: 1...90, using: &generator))
                chunks.append(Array(stream[start..<end]))
                start = end
            }
            let streamGuard = StreamGuard(tracer: nil, maxBytes: 1 << 20, deadline: .seconds(60))
            for chunk in chunks { chunk.withUnsafeBytes { streamGuard.noteLines($0) } }
            let (last, current) = reference(chunks)
            XCTAssertEqual(streamGuard.lastLine, last, "\(chunks)")
            XCTAssertEqual(streamGuard.currentLine, current, "\(chunks)")
        }
    }
}
