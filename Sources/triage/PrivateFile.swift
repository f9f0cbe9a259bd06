import Foundation
import TriageCore
#if canImport(Glibc)
import Glibc
#endif

/// Writes an output file that may hold private data: mode 0600 from the start,
/// replaced atomically (temp file in the same folder, fsync, rename).
///
/// The temporary file gets an unpredictable name and is created with
/// `O_CREAT|O_EXCL|O_NOFOLLOW`: whoever can write to the folder cannot plant a
/// symlink there in advance to make triage write through it. A symlink already
/// at the final name is replaced by the file (rename never follows it), never
/// written through.
enum PrivateFile {
    /// Names tried before giving up when each one is taken (only an attacker or a
    /// broken random source makes even the second one collide).
    static let attempts = 8

    static func write(_ data: Data, to path: String) throws {
        try write(data, to: path, temporaryName: randomName)
    }

    /// `write`, taking each temporary file name from `temporaryName` (tests plant
    /// links at a known name).
    static func write(_ data: Data, to path: String, temporaryName: () -> String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let prefix = (folder.isEmpty ? "." : folder) + "/.tmp-" + (path as NSString).lastPathComponent + "."
        var temp = ""
        var fd: Int32 = -1
        for _ in 0..<attempts {
            temp = prefix + temporaryName()
            fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else {
            throw failure(path, "create", errno, hint: errno == EEXIST
                ? "\(attempts) temporary names in the folder were taken; check who else writes there"
                : "check the folder exists and is writable")
        }
        var ok = false
        defer { if !ok { unlink(temp) } }
        var done = 0
        while done < data.count {
            let n = data.withUnsafeBytes { buf in Glibc.write(fd, buf.baseAddress! + done, buf.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                let e = errno
                close(fd)
                throw failure(path, "write", e)
            }
            done += n
        }
        guard fchmod(fd, 0o600) == 0, fsync(fd) == 0 else {
            let e = errno
            close(fd)
            throw failure(path, "write", e)
        }
        close(fd)
        guard rename(temp, path) == 0 else { throw failure(path, "replace", errno) }
        ok = true
    }

    /// 128 random bits in hex, from the system's secure generator (getrandom).
    static func randomName() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    private static func failure(_ path: String, _ what: String, _ code: Int32,
                                hint: String = "check the folder exists and is writable") -> SimpleError {
        SimpleError(.cantCreate, "\(path): cannot \(what) the file: \(String(cString: strerror(code))); \(hint)")
    }
}
