import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The few POSIX file operations the store needs besides replacing a file
/// (`AtomicFile`), with explicit modes (never the umask's) and errors that name the path.
enum StoreFiles {
    /// Creates `path` (and missing parents) as a 0700 folder; returns whether it was created.
    @discardableResult
    static func makeFolder(_ path: String) throws -> Bool {
        if mkdir(path, 0o700) == 0 {
            guard chmod(path, 0o700) == 0 else { throw StoreError.io(path: path, operation: "set mode 0700 on", errno: errno) }
            return true
        }
        let e = errno
        if e == EEXIST {
            var st = stat()
            guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
                throw StoreError.io(path: path, operation: "use as a folder (something else has this name)", errno: ENOTDIR)
            }
            return false
        }
        if e == ENOENT {
            let parent = (path as NSString).deletingLastPathComponent
            guard !parent.isEmpty, parent != path else { throw StoreError.io(path: path, operation: "create", errno: e) }
            try makeFolder(parent)
            return try makeFolder(path)
        }
        throw StoreError.io(path: path, operation: "create", errno: e)
    }

    /// Writes a small state file (a mailbox's state, the move journal, the run record,
    /// ...) as JSON with sorted keys, replacing it atomically (`AtomicFile`) after
    /// creating its folder: the one way every such file is written.
    static func writeJSON<T: Encodable>(_ value: T, to path: String, durable: Bool) throws {
        try makeFolder((path as NSString).deletingLastPathComponent)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(path: path, data: try encoder.encode(value), durable: durable)
    }

    /// The `<id>.json` names in a folder, as ids; nil when the folder does not exist.
    static func recordIDs(in folder: String) throws -> [String]? {
        var ids: [String] = []
        let found = try forEachRecordName(in: folder) { ids.append(String(decoding: $0, as: UTF8.self)) }
        return found ? ids : nil
    }

    /// Calls `body` with the id bytes of each `<32 lower-case hex>.json` name in a
    /// folder (other names, such as temp files, are skipped). Returns false when
    /// the folder does not exist.
    static func forEachRecordName(in folder: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws -> Bool {
        guard let dir = opendir(folder) else {
            if errno == ENOENT { return false }
            throw StoreError.io(path: folder, operation: "list", errno: errno)
        }
        defer { closedir(dir) }
        let length = RecordID.length
        while let entry = readdir(dir) {
            withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                // `<32 hex>.json` and a NUL.
                guard bytes.count > length + 5, bytes[length + 5] == 0,
                      bytes[length] == 46, bytes[length + 1] == 106, bytes[length + 2] == 115,
                      bytes[length + 3] == 111, bytes[length + 4] == 110 else { return }
                for i in 0..<length where !RecordID.isHexDigit(bytes[i]) { return }
                body(UnsafeBufferPointer(rebasing: bytes[0..<length]))
            }
        }
        return true
    }

    /// Every name in a folder (for temp-file cleanup); empty when it does not exist.
    static func names(in folder: String) -> [String] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The whole file, or nil when it does not exist.
    static func read(_ path: String) throws -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw StoreError.io(path: path, operation: "open", errno: errno)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw StoreError.io(path: path, operation: "read", errno: errno) }
        var data = Data(count: max(Int(st.st_size), 0))
        var filled = 0
        while true {
            if filled == data.count { data.count += 4096 }
            let n = data.withUnsafeMutableBytes { buf in
                Glibc.read(fd, buf.baseAddress! + filled, buf.count - filled)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw StoreError.io(path: path, operation: "read", errno: errno)
            }
            if n == 0 { break }
            filled += n
        }
        data.count = filled
        return data
    }

    /// Removes a file; a missing file is fine.
    static func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw StoreError.io(path: path, operation: "remove", errno: errno) }
    }

    /// The modification time in nanoseconds, or nil when the file does not exist.
    static func modificationTime(_ path: String) -> Int64? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
    }

    /// Whether a file exists.
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }
}
