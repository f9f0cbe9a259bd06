import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one way triage replaces a file: a temporary file in the same folder, then
/// `rename`, so a reader (or a crash) sees the old file or the new one, never half
/// of one. Used for the store's records, the run state and move journal, output
/// files (`export ics --output`), `file:` deliveries and Maildir's bookkeeping.
///
/// Every temporary file is `.tmp-NAME.RANDOM` (128 bits from the system's secure
/// generator) and is created with `O_CREAT|O_EXCL|O_NOFOLLOW`: whoever can write to
/// the folder cannot plant a symlink there in advance to make triage write through
/// it, and two writers never share one. A symlink already at the final name is
/// replaced (rename never follows it), never written through. The mode is set with
/// `fchmod`, whatever the umask.
///
/// Durable means: the file's data is flushed before the rename, and the folder
/// after it, so once `write` returns the new file survives a power cut too. A
/// non-durable write is still atomic against crashes of triage itself.
///
/// Failures are `StoreError.io` naming the path, the operation and errno; callers
/// outside the store turn them into their own error kinds.
public enum AtomicFile {
    /// Prefix of every temporary file. Store listings only see `<32 hex>.json`, and
    /// Maildir scans skip dot files, so these never show.
    public static let tempPrefix = ".tmp-"

    /// Names tried before giving up when each one is taken (only an attacker or a
    /// broken random source makes even the second one collide).
    public static let attempts = 8

    /// Replaces `path` with `data` (mode `mode`), atomically; flushed to disk when `durable`.
    public static func write(path: String, data: Data, mode: mode_t = 0o600, durable: Bool = true) throws {
        try write(path: path, data: data, mode: mode, durable: durable, temporaryName: randomName)
    }

    /// `write`, taking each temporary name's random part from `temporaryName` (tests
    /// plant links at a known name).
    public static func write(path: String, data: Data, mode: mode_t = 0o600, durable: Bool = true,
                             temporaryName: () -> String) throws {
        let staged = try Staged(path: path, data: data, mode: mode, temporaryName: temporaryName)
        if durable {
            do { try staged.flush() } catch { staged.discard(); throw error }
        }
        try staged.rename()
        if durable { try syncFolder(staged.folder) }
    }

    /// A new file written under a temporary name, not yet in place: the batch form.
    /// The store writes all of a batch's files, then flushes them all (the first
    /// fsync commits the file system's journal with every file in it, see
    /// docs/BENCHMARKS.md), then renames each, then syncs each folder once.
    public struct Staged: Sendable {
        /// The temporary file.
        public let temporary: String
        /// Where `rename` puts it.
        public let path: String
        /// The folder of both.
        public let folder: String

        /// Writes `data` to a fresh temporary file beside `path` (not flushed).
        public init(path: String, data: Data, mode: mode_t = 0o600,
                    temporaryName: () -> String = AtomicFile.randomName) throws {
            let folder = (path as NSString).deletingLastPathComponent
            self.path = path
            self.folder = folder.isEmpty ? "." : folder
            let prefix = self.folder + "/" + AtomicFile.tempPrefix + (path as NSString).lastPathComponent + "."
            var temp = ""
            var fd: Int32 = -1
            for _ in 0..<AtomicFile.attempts {
                temp = prefix + temporaryName()
                fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                if fd >= 0 || errno != EEXIST { break }
            }
            guard fd >= 0 else {
                let e = errno
                let what = e == EEXIST
                    ? "write (all \(AtomicFile.attempts) temporary names tried in its folder were taken)"
                    : "create a temporary file to write"
                throw StoreError.io(path: path, operation: what, errno: e)
            }
            temporary = temp
            var ok = false
            defer {
                close(fd)
                if !ok { unlink(temp) }
            }
            guard fchmod(fd, mode) == 0 else { throw StoreError.io(path: temp, operation: "set mode on", errno: errno) }
            var written = 0
            while written < data.count {
                let n = data.withUnsafeBytes { buf in Glibc.write(fd, buf.baseAddress! + written, buf.count - written) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw StoreError.io(path: temp, operation: "write", errno: errno)
                }
                written += n
            }
            ok = true
        }

        /// Flushes the temporary file's data to disk.
        public func flush() throws {
            let fd = open(temporary, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { throw StoreError.io(path: temporary, operation: "open", errno: errno) }
            defer { close(fd) }
            guard fsync(fd) == 0 else { throw StoreError.io(path: temporary, operation: "flush to disk", errno: errno) }
        }

        /// Puts the file in place (removing the temporary file when that fails).
        public func rename() throws {
            guard Glibc.rename(temporary, path) == 0 else {
                let e = errno
                unlink(temporary)
                throw StoreError.io(path: path, operation: "rename \(temporary) to", errno: e)
            }
        }

        /// Removes the temporary file (a batch that failed before its renames).
        public func discard() {
            unlink(temporary)
        }
    }

    /// Flushes a folder's entries (creations, renames, removals) to disk.
    public static func syncFolder(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.io(path: path, operation: "open", errno: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw StoreError.io(path: path, operation: "flush to disk", errno: errno) }
    }

    /// Flushes everything written to the file system that holds `path` (`syncfs`):
    /// one journal commit for a whole batch of new files, where an fsync of each
    /// costs one commit per file (on ext4 under load, 3 to 5 ms each).
    public static func syncFileSystem(of path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.io(path: path, operation: "open", errno: errno) }
        defer { close(fd) }
        guard systemSyncfs(fd) == 0 else { throw StoreError.io(path: path, operation: "flush to disk (syncfs)", errno: errno) }
    }

    /// 128 random bits in hex, from the system's secure generator (getrandom).
    public static func randomName() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}

/// `syncfs(2)` from the C library (Linux since 2.6.39): Swift's Glibc module leaves
/// out this GNU extension, so it is bound by its symbol name.
@_silgen_name("syncfs")
private func systemSyncfs(_ fd: Int32) -> Int32
