#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TriageCore

/// `file:DIR` delivery: writes each message as one `.eml` file, atomically and
/// durably (`AtomicFile`) and readable by the owner only (0600). The folder is
/// created 0700 when missing.
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
        do {
            try AtomicFile.write(path: target, data: Data(message.bytes), mode: 0o600, durable: true)
        } catch StoreError.io(_, _, let code) {
            throw failure("cannot write \(target): \(FileSystem.errorText(code))")
        }
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
