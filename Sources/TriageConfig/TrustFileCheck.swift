import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TriageCore

/// What `triage check` finds wrong with the files a configuration names, before any
/// connection needs them: a `ca_file` that does not exist, is a directory or cannot
/// be read would otherwise surface only when a run connects (exit 78 there too).
public enum TrustFileCheck {
    /// One problem per unreadable `ca_file` of an account, a `[caldav NAME]` or `[digest]`.
    public static func problems(_ configuration: Configuration) -> [ConfigProblem] {
        var found: [ConfigProblem] = []
        for account in configuration.accounts {
            if let file = account.caFile, let why = unreadable(file) {
                found.append(ConfigProblem(path: configuration.path, line: account.line,
                                           message: "[account \(account.name)] ca_file \(file) \(why); fix the path or its permissions"))
            }
        }
        for section in configuration.caldav {
            if let file = section.caFile, let why = unreadable(file) {
                found.append(ConfigProblem(path: configuration.path, line: section.line,
                                           message: "[caldav \(section.name)] ca_file \(file) \(why); fix the path or its permissions"))
            }
        }
        if let file = configuration.digest?.caFile, let why = unreadable(file) {
            found.append(ConfigProblem(path: configuration.path, line: 0,
                                       message: "[digest] ca_file \(file) \(why); fix the path or its permissions"))
        }
        return found
    }

    /// Why `path` cannot serve as a CA file, or nil when it can be opened and read.
    static func unreadable(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            return errno == ENOENT ? "does not exist" : "cannot be read (\(String(cString: strerror(errno))))"
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return "cannot be read" }
        guard info.st_mode & S_IFMT == S_IFREG else { return "is not a file" }
        return nil
    }
}
