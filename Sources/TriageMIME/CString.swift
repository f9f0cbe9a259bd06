#if canImport(Glibc)
import Glibc
#endif

/// Copies bytes out of C strings without assuming they are valid UTF-8
/// (header values from real mail often are not).
enum CString {
    /// The bytes of a NUL-terminated C string, or empty for NULL.
    static func bytes(_ pointer: UnsafePointer<CChar>?) -> [UInt8] {
        guard let pointer else { return [] }
        let length = strlen(pointer)
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// The bytes of a mutable C string, or empty for NULL.
    static func bytes(_ pointer: UnsafeMutablePointer<CChar>?) -> [UInt8] {
        bytes(UnsafePointer(pointer))
    }

    /// A Swift string for a C string: UTF-8 when valid, else windows-1252.
    static func text(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        return CharsetDecoder.decodeUnlabelled(bytes(pointer))
    }

    /// A Swift string for a mutable C string.
    static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        text(UnsafePointer(pointer))
    }
}
