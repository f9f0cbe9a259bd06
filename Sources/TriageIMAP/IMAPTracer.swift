import CEtPan
import TriageCore

/// Turns libetpan's stream log into trace lines (`C: ...` sent, `S: ...` received).
///
/// Bytes libetpan marks private (the whole LOGIN or AUTHENTICATE command) are never
/// shown: they become one line the connection describes in advance (`LOGIN me ***`).
/// Long server answers (message bodies) are cut short.
final class IMAPTracer {
    private let sink: @Sendable (String) -> Void
    /// What to print instead of the next private bytes, e.g. `LOGIN me ***`.
    var privateDescription = "***"
    private var inPrivate = false
    private var partial: [Character: [UInt8]] = [:]
    private static let maxLineLength = 200
    private static let maxLinesPerChunk = 12

    init(sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    /// A line from the connection itself (`* TLS verified for localhost`).
    func note(_ text: String) {
        sink("-- \(text)")
    }

    /// Takes what `StreamGuard` saw on the stream.
    func record(logType: Int32, bytes: UnsafeRawBufferPointer) {
        switch Int(logType) {
        case MAILSTREAM_LOG_TYPE_DATA_SENT_PRIVATE:
            if !inPrivate {
                // The tag is the first word; show it so the answer can be matched.
                let tag = bytes.prefix(while: { $0 != 0x20 }).prefix(12)
                let tagText = String(decoding: tag, as: UTF8.self)
                let safeTag = tagText.allSatisfy { $0.isLetter || $0.isNumber } ? tagText + " " : ""
                sink("C: \(safeTag)\(privateDescription)")
            }
            inPrivate = true
        case MAILSTREAM_LOG_TYPE_DATA_SENT:
            inPrivate = false
            emit("C", bytes)
        case MAILSTREAM_LOG_TYPE_DATA_RECEIVED:
            inPrivate = false
            emit("S", bytes)
        default:
            break
        }
    }

    private func emit(_ direction: Character, _ bytes: UnsafeRawBufferPointer) {
        var buffer = partial[direction, default: []]
        buffer.append(contentsOf: bytes)
        var lines = 0
        var start = 0
        var index = 0
        var skipped = 0
        while index < buffer.count {
            if buffer[index] == 0x0A {
                var end = index
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                if lines < Self.maxLinesPerChunk {
                    show(direction, buffer[start..<end])
                    lines += 1
                } else {
                    skipped += index + 1 - start
                }
                start = index + 1
            }
            index += 1
        }
        if skipped > 0 { sink("\(direction): ... (\(skipped) more bytes)") }
        let rest = Array(buffer[start...])
        // A huge partial line is a literal being received: do not keep it all.
        partial[direction] = rest.count > 4096 ? Array(rest.prefix(Self.maxLineLength)) : rest
    }

    private func show(_ direction: Character, _ line: ArraySlice<UInt8>) {
        var text = String(decoding: line.prefix(Self.maxLineLength), as: UTF8.self)
        if line.count > Self.maxLineLength { text += "... (\(line.count) bytes)" }
        sink("\(direction): \(TraceRedactor.redact(text))")
    }
}
