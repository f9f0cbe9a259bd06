import CEtPan
import Glibc

/// Sees every byte libetpan reads or writes on a connection: passes it on to the
/// trace (when there is one) and drops the connection when the answer to one command
/// grows past a byte limit or goes on past a deadline.
///
/// libetpan's own timeout only limits each read, and it keeps every untagged answer
/// and literal in memory until the tagged one: a server that floods untagged lines,
/// announces a literal that never ends, or drips a byte a second would otherwise
/// keep the run busy forever or exhaust memory. Dropping the socket (`shutdown`)
/// makes libetpan's next read fail, which the connection reports as exit 75. After a
/// read that failed (a timeout) it drops the socket too, so that one stall costs one
/// timeout, never two.
///
/// It also follows the parenthesis depth of each answer (`NestingScanner`):
/// libetpan's parser recurses once per level and a server nesting 20,000 levels
/// deep overflows the stack (SIGSEGV). Past `maxNesting` levels the guard drops
/// the connection and blanks every byte from there on before libetpan's parser
/// sees it (bytes already queued on the socket would otherwise still complete the
/// line), so the parser meets at most `maxNesting` levels and the run ends with
/// exit 75 naming the server.
final class StreamGuard {
    /// The deepest parenthesis nesting accepted in an answer. A real BODYSTRUCTURE
    /// nests about one level per MIME level plus three, and servers stop at around
    /// 100 MIME levels (Dovecot); libetpan 1.9.4 survives 5,000 and crashes at 20,000.
    static let maxNesting = 256

    /// Receives the trace, or nil.
    let tracer: IMAPTracer?
    /// Why the guard dropped the connection, once it did.
    private(set) var tripped: String?

    private let maxBytes: Int
    private let deadline: Duration
    private var allowance = 0
    private var received = 0
    private var started = ContinuousClock.now
    private var fd: Int32 = -1
    private var nesting = NestingScanner(limit: StreamGuard.maxNesting)
    /// Set once the nesting limit was passed: every byte received from then on is blanked.
    private var blanking = false
    /// The start of the last whole line received (at most 64 bytes), e.g. `12 BAD
    /// Unrecognized flag`: libetpan reports a tagged BAD and a tag that does not match
    /// alike, and only this tells a refusal from a stream out of step.
    private(set) var lastLine: [UInt8] = []
    private(set) var currentLine: [UInt8] = []

    /// Set on a connection that asked for NOTIFY (RFC 5465): the untagged `STATUS`
    /// lines received (during any command or IDLE), and the `EXISTS` lines received
    /// while `selectedMailbox` is open (not SELECT's own), are kept for
    /// `IMAPConnection.takeMailboxNews`.
    /// libetpan keeps only the last STATUS it parsed, and answers to commands carry
    /// them too, so they are taken here, where every byte passes. (A line inside a
    /// message's literal that looks like one costs at most a needless pass.)
    var collectsNotices = false
    /// The mailbox open on the connection, set once SELECT's answer is read (its own
    /// EXISTS is no news): an EXISTS later is new mail there, during IDLE or a pass.
    var selectedMailbox: String?
    /// The notice lines kept (at most `maxNotices`, without the line end), each with
    /// the mailbox open when it came.
    private(set) var notices: [(line: [UInt8], selected: String?)] = []
    /// More notices came than are kept: any mailbox may have news.
    private(set) var noticesOverflowed = false
    /// The notice line being received (from its `*`), or nil.
    private var noticeLine: [UInt8]?
    private var atLineStart = true
    static let maxNotices = 256

    /// Takes the notices kept so far and whether some were not kept.
    func takeNotices() -> (lines: [(line: [UInt8], selected: String?)], overflowed: Bool) {
        defer { notices = []; noticesOverflowed = false }
        return (notices, noticesOverflowed)
    }

    /// A guard allowing `maxBytes` per answer and `deadline` from sending a command to
    /// the last byte of its answer.
    init(tracer: IMAPTracer?, maxBytes: Int, deadline: Duration) {
        self.tracer = tracer
        self.maxBytes = maxBytes
        self.deadline = deadline
    }

    /// Installs the guard on a libetpan stream; the stream must not outlive it.
    func attach(to stream: UnsafeMutablePointer<mailstream>) {
        fd = mailstream_low_get_fd(mailstream_get_low(stream))
        let context = Unmanaged.passUnretained(self).toOpaque()
        mailstream_set_logger(stream, { _, logType, bytes, size, context in
            guard let context else { return }
            let guard_ = Unmanaged<StreamGuard>.fromOpaque(context).takeUnretainedValue()
            // The bytes are in libetpan's own (writable) read buffer, just read and
            // not yet parsed: the guard may blank them (see `blank`).
            guard_.record(logType: logType, bytes: bytes.map { UnsafeMutableRawBufferPointer(start: UnsafeMutableRawPointer(mutating: $0), count: size) })
        }, context)
    }

    /// Detaches from a stream (before the guard goes away).
    static func detach(from stream: UnsafeMutablePointer<mailstream>) {
        mailstream_set_logger(stream, nil, nil)
    }

    /// Allows the answer to the next command `bytes` more than the limit (a FETCH of
    /// many messages is rightly bigger than any other answer).
    func expect(extra bytes: Int) {
        allowance = max(0, bytes)
    }

    private func record(logType: Int32, bytes: UnsafeMutableRawBufferPointer?) {
        switch Int(logType) {
        case MAILSTREAM_LOG_TYPE_DATA_SENT, MAILSTREAM_LOG_TYPE_DATA_SENT_PRIVATE:
            // A new command: its answer starts now.
            received = 0
            started = ContinuousClock.now
        case MAILSTREAM_LOG_TYPE_DATA_RECEIVED:
            received += bytes?.count ?? 0
            check()
            if let bytes {
                noteLines(UnsafeRawBufferPointer(bytes))
                if collectsNotices { collectNotices(UnsafeRawBufferPointer(bytes)) }
                limitNesting(bytes)
            }
        case MAILSTREAM_LOG_TYPE_ERROR_RECEIVED, MAILSTREAM_LOG_TYPE_ERROR_SENT:
            // A read timed out or the socket failed. libetpan's parser may try to read
            // again and wait out a second timeout: make every further read fail at once.
            if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
        default:
            break
        }
        if let tracer, let bytes { tracer.record(logType: logType, bytes: UnsafeRawBufferPointer(bytes)) }
    }

    /// Drops the connection at the first level past `maxNesting`, and blanks that
    /// byte and every later one: with no line end and no parenthesis left, the
    /// parser only ever sees the shallow start, and the read that follows fails.
    private func limitNesting(_ bytes: UnsafeMutableRawBufferPointer) {
        if blanking {
            blank(bytes, from: 0)
        } else if let offset = nesting.scan(UnsafeRawBufferPointer(bytes)) {
            blanking = true
            blank(bytes, from: offset)
            let reason = "the server nested its answer more than \(Self.maxNesting) levels deep (a broken or hostile answer "
                + "that would crash the parser); the connection was dropped"
            if tripped == nil { drop(reason) } else if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    /// Keeps the start of the last whole line and of the line still open. Only the
    /// chunk's last two line ends matter, so it looks for those from the end instead
    /// of visiting every byte of a large FETCH answer (a fifth of the client's time
    /// in a run that fetches texts, when it went byte by byte).
    func noteLines(_ bytes: UnsafeRawBufferPointer) {
        let newline = UInt8(ascii: "\n")
        let count = bytes.count
        var last = count - 1
        while last >= 0 && bytes[last] != newline { last -= 1 }
        guard last >= 0 else {
            // No line end: the open line goes on.
            let room = 64 - currentLine.count
            if room > 0 { currentLine.append(contentsOf: bytes[0..<min(count, room)]) }
            return
        }
        var previous = last - 1
        while previous >= 0 && bytes[previous] != newline { previous -= 1 }
        if previous >= 0 {
            // The last whole line lies within this chunk.
            lastLine = Array(bytes[(previous + 1)..<min(last, previous + 1 + 64)])
        } else {
            // It began in an earlier chunk: the open line, continued up to here.
            var line = currentLine
            let room = 64 - line.count
            if room > 0 { line.append(contentsOf: bytes[0..<min(last, room)]) }
            lastLine = line
        }
        currentLine = Array(bytes[(last + 1)..<min(count, last + 1 + 64)])
    }

    /// Keeps the lines starting `* ` that are notices (see `collectsNotices`), each at
    /// most 1,024 bytes.
    func collectNotices(_ bytes: UnsafeRawBufferPointer) {
        let newline = UInt8(ascii: "\n"), star = UInt8(ascii: "*")
        for byte in bytes {
            if noticeLine != nil {
                if byte == newline {
                    keepNotice(noticeLine!)
                    noticeLine = nil
                } else if noticeLine!.count < 1024 {
                    noticeLine!.append(byte)
                }
            } else if atLineStart && byte == star {
                noticeLine = [byte]
            }
            atLineStart = byte == newline
        }
    }

    private func keepNotice(_ raw: [UInt8]) {
        var line = raw
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        let text = String(decoding: line.prefix(64), as: UTF8.self).uppercased()
        let words = text.split(separator: " ")
        let isStatus = text.hasPrefix("* STATUS ")
        let isNew = selectedMailbox != nil && words.count >= 3 && words[1].allSatisfy(\.isNumber) && words[2] == "EXISTS"
        guard isStatus || isNew else { return }
        if notices.count < Self.maxNotices { notices.append((line, selectedMailbox)) } else { noticesOverflowed = true }
    }

    private func blank(_ bytes: UnsafeMutableRawBufferPointer, from offset: Int) {
        guard offset < bytes.count else { return }
        for index in offset..<bytes.count { bytes[index] = UInt8(ascii: "x") }
    }

    private func check() {
        guard tripped == nil else { return }
        let limit = maxBytes + allowance
        if received > limit {
            drop("the server sent more than \(Self.megabytes(limit)) in answer to one command (an endless or "
                 + "oversized answer); the connection was dropped")
        } else if ContinuousClock.now - started > deadline {
            drop("the server's answer to one command went on for more than \(deadline.components.seconds) s; "
                 + "the connection was dropped")
        }
    }

    private func drop(_ reason: String) {
        tripped = reason
        tracer?.note(reason)
        if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private static func megabytes(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
