#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX file operations the delivery code needs.
enum FileSystem {
    static func isReadableFile(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG && access(path, R_OK) == 0
    }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// The text of `errno`, e.g. "Permission denied".
    static func errorText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }
}
