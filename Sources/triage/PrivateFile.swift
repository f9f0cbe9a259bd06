import Foundation
import TriageCore
#if canImport(Glibc)
import Glibc
#endif

/// Writes an output file that may hold private data: mode 0600 from the start,
/// replaced atomically (temp file in the same folder, fsync, rename).
enum PrivateFile {
    static func write(_ data: Data, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let temp = (folder.isEmpty ? "." : folder) + "/.tmp-" + (path as NSString).lastPathComponent + "." + String(getpid())
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(path, "create", errno) }
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

    private static func failure(_ path: String, _ what: String, _ code: Int32) -> SimpleError {
        SimpleError(.cantCreate, "\(path): cannot \(what) the file: \(String(cString: strerror(code))); check the folder exists and is writable")
    }
}
