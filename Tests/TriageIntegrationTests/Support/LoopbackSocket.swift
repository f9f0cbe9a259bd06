import Foundation

/// A TCP socket bound to a free port on 127.0.0.1 (the kernel picks it), for
/// tests that need a port where nothing answers: one that refuses connections
/// (`closedPort()`) or one that accepts them and then stays silent (`listen()`).
final class LoopbackSocket {
    /// The socket.
    let fd: Int32
    /// The bound port.
    let port: Int
    private var open = true

    /// Binds a new socket to 127.0.0.1, port 0.
    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        let named = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            Glibc.close(fd)
            throw POSIXError(code)
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: addr.sin_port))
    }

    /// Starts listening: the kernel then completes TCP handshakes, and nobody ever answers. Returns listen(2)'s result.
    func listen() -> Int32 { Glibc.listen(fd, 4) }

    /// Closes the socket.
    func close() {
        if open { Glibc.close(fd) }
        open = false
    }

    deinit { close() }

    /// A loopback port nothing listens on (bound, then closed again), so connecting is refused.
    static func closedPort() throws -> Int {
        let socket = try LoopbackSocket()
        socket.close()
        return socket.port
    }
}
