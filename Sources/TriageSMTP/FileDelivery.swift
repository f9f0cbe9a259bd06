#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TriageCore

/// `file:DIR` delivery: writes each message as one `.eml` file, atomically
/// (a private temporary file, flushed, then renamed into place) and readable
/// by the owner only (0600). The folder is created 0700 when missing.
///
/// The file is named after the Message-ID, so delivering the same message
/// again (a retried digest) replaces it rather than adding a second copy.
public struct FileDelivery: MailDelivery {
    /// The folder the `.eml` files go to.
    public var directory: String

    /// Creates a delivery into `directory`.
    public init(directory: String) {
        self.directory = directory
    }

    /// The file name for a message: its Message-ID with anything but
    /// `[A-Za-z0-9._@+-]` replaced by `_`, plus `.eml`.
    public static func fileName(for message: ComposedMessage) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._@+-".utf8)
        var name = String(decoding: message.messageID.utf8.map { allowed.contains($0) ? $0 : UInt8(ascii: "_") }, as: UTF8.self)
        if name.isEmpty || name.hasPrefix(".") { name = "m" + name }
        return String(name.prefix(200)) + ".eml"
    }

    /// The path the message is written to.
    public func path(for message: ComposedMessage) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + Self.fileName(for: message)
    }

    public func deliver(_ message: ComposedMessage) throws {
        try makeDirectory(directory)
        let target = path(for: message)
        let temporary = (directory.hasSuffix("/") ? directory : directory + "/")
            + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).eml"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("cannot create \(temporary): \(FileSystem.errorText())") }
        var ok = fchmod(fd, 0o600) == 0
        let bytes = message.bytes
        var written = 0
        while ok, written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { ok = false; break }
            written += n
        }
        let problem = ok ? nil : FileSystem.errorText()
        ok = ok && fsync(fd) == 0
        close(fd)
        guard ok, rename(temporary, target) == 0 else {
            let why = problem ?? FileSystem.errorText()
            unlink(temporary)
            throw failure("cannot write \(target): \(why)")
        }
        // Make the rename itself durable.
        let dirFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 { fsync(dirFD); close(dirFD) }
    }

    private func makeDirectory(_ path: String) throws {
        if FileSystem.isDirectory(path) { return }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component + "/"
            if FileSystem.isDirectory(prefix) { continue }
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                throw failure("cannot create the folder \(prefix): \(FileSystem.errorText())")
            }
        }
    }

    private func failure(_ what: String) -> MailDeliveryError {
        MailDeliveryError(step: .write, server: directory,
            message: "\(what). Check [digest] smtp = file:\(directory) and the folder's permissions; the next run retries.")
    }
}
