import Foundation
import TriageCore
#if canImport(Glibc)
import Glibc
#endif

/// Whether a file that decides what triage does may be trusted: the
/// configuration (it names commands triage runs as the user, `password_command`)
/// and the rule files and their folders (they move mail and post it to webhooks).
///
/// Such a file must belong to the user running triage (or to root) and must not
/// be writable by group or others; otherwise whoever can write it acts as the
/// user. The check is on what a path names, symlinks followed: a link to a
/// private file is fine (the link's own mode means nothing), a link to a
/// world-writable one is not. Files are opened once and checked with `fstat`, so
/// the file checked is the file read.
public enum FileTrust {
    /// A file's bytes and what `fstat` said about it.
    public struct Opened {
        /// The whole content.
        public var data: Data
        /// Owner and mode, of the file read (links followed).
        public var info: stat
    }

    /// Opens and reads the file `path` names; nil when it cannot (errno tells why).
    public static func read(_ path: String) -> Opened? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT != S_IFDIR else { errno = EISDIR; return nil }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        return Opened(data: data, info: info)
    }

    /// Why a folder (`stat`, links followed) may not be trusted, or nil.
    public static func folderProblem(_ path: String, what: String, consequence: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }  // a missing folder is reported elsewhere
        return problem(info, path: path, what: what, consequence: consequence)
    }

    /// Why the file or folder described by `info` may not be trusted, or nil:
    /// `what` names it ("the configuration file"), `consequence` says what a
    /// stranger could do through it.
    public static func problem(_ info: stat, path: String, what: String, consequence: String) -> String? {
        let user = getuid()
        if info.st_uid != user && info.st_uid != 0 {
            let folder = info.st_mode & S_IFMT == S_IFDIR
            return "\(what) belongs to \(name(of: info.st_uid)), but triage runs as \(name(of: user)) and trusts only "
                + "its own files and root's: \(consequence); copy it to a \(folder ? "folder" : "file") of your own, "
                + "or have root run: chown \(folder ? "-R " : "")\(user) \(path)"
        }
        let writable = info.st_mode & 0o022
        if writable != 0 {
            let who = writable == 0o022 ? "group and others" : writable == 0o020 ? "its group" : "others"
            return "\(what) is writable by \(who) (mode 0\(String(info.st_mode & 0o7777, radix: 8))): "
                + "\(consequence); run: chmod go-w \(path)"
        }
        return nil
    }

    /// Why the store may not be trusted, or nil: the first of its folders
    /// (`Store.trustedFolders`, links followed; missing ones are skipped, triage
    /// makes them 0700) that belongs to another user or that group or others may
    /// write. The store holds the digest's command secret and what triage acts on.
    public static func storeProblem(_ store: Store) -> String? {
        for folder in store.trustedFolders {
            let what = folder == store.root ? "the store folder \(folder)" : "the store's folder \(folder)"
            if let problem = folderProblem(folder, what: what, consequence: strangerStore) {
                return problem
            }
        }
        return nil
    }

    static let strangerStore = "whoever can write there can replace the digest's command secret (and so forge Done links "
        + "and reply commands) or the records and run state triage acts on"

    /// `uid N (NAME)`, or `uid N` when the user has no name.
    private static func name(of uid: uid_t) -> String {
        if let entry = getpwuid(uid), let name = entry.pointee.pw_name {
            return "uid \(uid) (\(String(cString: name)))"
        }
        return "uid \(uid)"
    }
}
