// ParseBench: parse throughput of MessageParser on 10,000 typical messages
// generated in memory (no disk I/O in the measurement).
//
//   cd bench && swift run -c release ParseBench [COUNT] [--header-only]
//
// --header-only skips the whole-message run (handy under a profiler).

import Foundation
import TriageCore
import TriageMIME

let arguments = CommandLine.arguments.dropFirst()
let count = arguments.compactMap { Int($0) }.first ?? 10_000
let headerOnlyMode = arguments.contains("--header-only")
var factory = MessageFactory(seed: 42)
let corpus = factory.messages(count)
let totalBytes = corpus.reduce(0) { $0 + $1.full.count }
let headerBytes = corpus.reduce(0) { $0 + $1.header.count }

print("ParseBench: \(count) messages, \(totalBytes / 1024) KiB total, \(headerBytes / 1024) KiB of headers")
print("(best of 3 runs each)")

/// Runs `body` three times and returns the fastest run in seconds, plus its checksum.
func measure(_ body: () -> Int) -> (seconds: Double, checksum: Int) {
    var best = Double.infinity
    var checksum = 0
    for _ in 0..<3 {
        let clock = ContinuousClock()
        var result = 0
        let elapsed = clock.measure { result = body() }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        best = min(best, seconds)
        checksum = result
    }
    return (best, checksum)
}

func report(_ label: String, _ result: (seconds: Double, checksum: Int), bytes: Int) {
    let perSecond = Double(count) / result.seconds
    let mbPerSecond = Double(bytes) / 1_048_576 / result.seconds
    let padded = label + String(repeating: " ", count: max(1, 34 - label.count))
    print(padded + String(format3(result.seconds)) + " s   "
          + "\(Int(perSecond)) msg/s   \(format1(mbPerSecond)) MiB/s   (checksum \(result.checksum))")
}

func format3(_ x: Double) -> String { String(Double(Int(x * 1000)) / 1000) }
func format1(_ x: Double) -> String { String(Double(Int(x * 10)) / 10) }

let headerOnly = measure {
    var n = 0
    for message in corpus { n &+= MessageParser.parseHeader(message.header).to.count }
    return n
}
report("header only (parseHeader)", headerOnly, bytes: headerBytes)

if headerOnlyMode { exit(0) }

let full = measure {
    var n = 0
    for message in corpus {
        let parsed = MessageParser.parse(message.full)
        n &+= parsed.attachments.count &+ parsed.snippet.count
    }
    return n
}
report("whole message (parse)", full, bytes: totalBytes)
