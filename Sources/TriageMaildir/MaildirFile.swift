import Foundation
import TriageCore

/// Writes a Maildir bookkeeping file (`triage-uidlist`, `dovecot-keywords`) with
/// `AtomicFile`, durably. A failure is a `MailError` naming the file and the
/// system's reason (exit 75 for a full or read-only file system, 78 for one triage
/// may not write to), like every other account failure, so the run goes on
/// with the other accounts and the digest.
///
/// Why durable (file and folder flushed before the run goes on): both files are
/// indexes that must never go backwards after a power cut. The run state
/// (`last_uid`) is saved durably after the batch; a `triage-uidlist` that came back
/// older would hand the same UIDs to newer messages, which the state then says were
/// already processed, so they would be skipped for good. A `dovecot-keywords` that
/// came back older would leave message names carrying letters it no longer defines,
/// and the next keyword to be added would take such a letter and mislabel them.
enum MaildirFile {
    static func write(_ text: String, to path: String, server: String) throws {
        do {
            try AtomicFile.write(path: path, data: Data(text.utf8), mode: mode(of: path), durable: true)
        } catch StoreError.io(_, _, let code) {
            // A full or read-only file system passes (75, cron retries); a Maildir the
            // user may not write to does not, so it is a configuration problem (78).
            throw MailError(StoreError.isEnvironmental(code) ? .protocol : .configuration, server: server,
                            "cannot write \(path): \(String(cString: strerror(code))); nothing was changed in this mailbox. "
                            + "Check that the Maildir is writable and has free space, then run again")
        }
    }

    /// Like Dovecot's files, the folder's read and write permissions (a 0700 Maildir
    /// gets 0600 files, a group-shared 0770 one 0660); 0600 when it cannot be read.
    private static func mode(of path: String) -> mode_t {
        var info = stat()
        let folder = (path as NSString).deletingLastPathComponent
        guard stat(folder.isEmpty ? "." : folder, &info) == 0 else { return 0o600 }
        return info.st_mode & 0o666
    }
}
