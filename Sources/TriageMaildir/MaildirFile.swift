import Foundation
import TriageCore

/// Writes a Maildir bookkeeping file (`triage-uidlist`, `dovecot-keywords`)
/// atomically: a temporary file, then a rename. A failure is a `MailError` naming
/// the file and the system's reason (exit 75), like every other account failure,
/// so the run goes on with the other accounts and the digest.
enum MaildirFile {
    static func write(_ text: String, to path: String, server: String) throws {
        let temp = path + ".tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw failure(path, errno, server: server) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let error = errno
                close(fd)
                unlink(temp)
                throw failure(path, error, server: server)
            }
            written += n
        }
        guard close(fd) == 0 else {
            let error = errno
            unlink(temp)
            throw failure(path, error, server: server)
        }
        guard rename(temp, path) == 0 else {
            let error = errno
            unlink(temp)
            throw failure(path, error, server: server)
        }
    }

    private static func failure(_ path: String, _ error: Int32, server: String) -> MailError {
        MailError(.protocol, server: server,
                  "cannot write \(path): \(String(cString: strerror(error))); nothing was changed in this mailbox. "
                  + "Check that the Maildir is writable and has free space, then run again")
    }
}
