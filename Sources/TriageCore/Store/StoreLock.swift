import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The store's writer lock: `flock` on `STORE/lock`, which holds the owner's pid.
///
/// The kernel drops the lock when its process dies, so a crashed run never
/// leaves the store locked; the pid only tells a waiting person who holds it.
final class StoreLock {
    private var fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// Takes the lock without waiting; throws `StoreError.locked` (exit 75) when held.
    static func acquire(store: String) throws -> StoreLock {
        let path = store + "/lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StoreError.io(path: path, operation: "open the lock file", errno: errno) }
        guard fchmod(fd, 0o600) == 0 else {
            let e = errno
            close(fd)
            throw StoreError.io(path: path, operation: "set mode 0600 on", errno: e)
        }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let e = errno
            if e == EINTR { continue }
            defer { close(fd) }
            if e == EWOULDBLOCK {
                var buffer = [UInt8](repeating: 0, count: 32)
                let n = pread(fd, &buffer, buffer.count, 0)
                let text = String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self)
                throw StoreError.locked(store: store, pid: Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
            }
            throw StoreError.io(path: path, operation: "lock", errno: e)
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(fd, 0)
        _ = pid.withCString { pwrite(fd, $0, strlen($0), 0) }
        return StoreLock(fd: fd)
    }

    /// Releases the lock (also done on deinit).
    func release() {
        guard fd >= 0 else { return }
        _ = ftruncate(fd, 0)
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { release() }
}
