import CEtPan
import Glibc

/// Plain TCP connections made by triage itself, to tell the user what is wrong
/// with a URL rather than what libetpan saw: a name that does not resolve versus a
/// port where nothing listens, an IMAPS port given as `imap://` (the server waits
/// for a TLS handshake while the client waits for a greeting, until the timeout),
/// and a plain IMAP port given as `imaps://`. Nothing of the user's is ever sent on
/// these connections: at most a TLS ClientHello.
enum PortProbe {
    /// Why a TCP connection could not be made.
    enum Failure: Error {
        /// The host name does not resolve (the resolver's words).
        case unresolved(String)
        /// Every address refused or could not be reached (the last error's words).
        case unreachable(String)
        /// No address answered within the time allowed.
        case timedOut
    }

    /// A connected TCP socket to `host:port` within `timeout` seconds, trying each
    /// address in turn. The caller owns (and closes) the descriptor.
    static func connect(host: String, port: UInt16, timeout: Double) throws(Failure) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let list else {
            throw .unresolved(String(cString: gai_strerror(resolved)))
        }
        defer { freeaddrinfo(list) }
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        var lastError = ECONNREFUSED
        var timedOut = false
        var next: UnsafeMutablePointer<addrinfo>? = list
        while let info = next {
            next = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
                            info.pointee.ai_protocol)
            guard fd >= 0 else { lastError = errno; continue }
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                return blocking(fd)
            }
            guard errno == EINPROGRESS else { lastError = errno; close(fd); continue }
            guard wait(fd, events: Int16(POLLOUT), until: deadline) else { timedOut = true; close(fd); continue }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            if error == 0 { return blocking(fd) }
            lastError = error
            close(fd)
        }
        if timedOut { throw .timedOut }
        throw .unreachable(String(cString: strerror(lastError)))
    }

    /// Whether `fd` has something to read (or hung up) within `seconds`.
    static func readable(_ fd: Int32, within seconds: Double) -> Bool {
        wait(fd, events: Int16(POLLIN), until: ContinuousClock.now + .milliseconds(Int(seconds * 1000)))
    }

    /// Whether `host:port` completes a TLS handshake within `timeout` seconds (no
    /// verification: the question is only whether the port speaks TLS at once).
    static func speaksTLS(host: String, port: UInt16, timeout: Double) -> Bool {
        guard let fd = try? connect(host: host, port: port, timeout: timeout) else { return false }
        guard let low = mailstream_low_tls_open_timeout(fd, time_t(max(1, timeout.rounded(.up)))) else {
            close(fd)
            return false
        }
        mailstream_low_close(low)
        mailstream_low_free(low)
        return true
    }

    /// Whether `host:port` greets in plain text like an IMAP server (`* OK`,
    /// `* PREAUTH`, `* BYE`) within `timeout` seconds.
    static func greetsInPlainText(host: String, port: UInt16, timeout: Double) -> Bool {
        guard let fd = try? connect(host: host, port: port, timeout: timeout) else { return false }
        defer { close(fd) }
        guard readable(fd, within: timeout) else { return false }
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        guard count >= 4 else { return false }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self).uppercased()
        return text.hasPrefix("* OK") || text.hasPrefix("* PREAUTH") || text.hasPrefix("* BYE")
    }

    private static func blocking(_ fd: Int32) -> Int32 {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    private static func wait(_ fd: Int32, events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let left = deadline - ContinuousClock.now
            let milliseconds = max(0, Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return true }
            if ready == 0 || errno != EINTR { return false }
        }
    }
}
