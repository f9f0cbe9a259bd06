#if canImport(Glibc)
import Glibc
#endif

/// Copies bytes out of libetpan's C strings. Shared by the libetpan adapters
/// (TriageMIME, TriageIMAP).
package enum CString {
    /// The bytes of a NUL-terminated C string, or empty for NULL, without assuming
    /// they are valid UTF-8 (header values from real mail often are not).
    package static func bytes(_ pointer: UnsafePointer<CChar>?) -> [UInt8] {
        guard let pointer else { return [] }
        let length = strlen(pointer)
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// The bytes of a mutable C string, or empty for NULL.
    package static func bytes(_ pointer: UnsafeMutablePointer<CChar>?) -> [UInt8] {
        bytes(UnsafePointer(pointer))
    }

    /// A Swift string for a C string from mail: UTF-8 when valid, else windows-1252.
    package static func text(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        return CharsetDecoder.decodeUnlabelled(bytes(pointer))
    }

    /// A Swift string for a mutable C string from mail.
    package static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        text(UnsafePointer(pointer))
    }

    /// A Swift string for protocol text (IMAP flags, names, answers): UTF-8, an
    /// invalid byte replaced by U+FFFD; nil stays nil.
    package static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    /// A Swift string for mutable protocol text; nil stays nil.
    package static func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        string(UnsafePointer(pointer))
    }
}
