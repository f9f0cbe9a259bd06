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
final class StreamGuard {
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
            guard_.record(logType: logType, bytes: bytes.map { UnsafeRawBufferPointer(start: $0, count: size) })
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

    private func record(logType: Int32, bytes: UnsafeRawBufferPointer?) {
        switch Int(logType) {
        case MAILSTREAM_LOG_TYPE_DATA_SENT, MAILSTREAM_LOG_TYPE_DATA_SENT_PRIVATE:
            // A new command: its answer starts now.
            received = 0
            started = ContinuousClock.now
        case MAILSTREAM_LOG_TYPE_DATA_RECEIVED:
            received += bytes?.count ?? 0
            check()
        case MAILSTREAM_LOG_TYPE_ERROR_RECEIVED, MAILSTREAM_LOG_TYPE_ERROR_SENT:
            // A read timed out or the socket failed. libetpan's parser may try to read
            // again and wait out a second timeout: make every further read fail at once.
            if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
        default:
            break
        }
        if let tracer, let bytes { tracer.record(logType: logType, bytes: bytes) }
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
