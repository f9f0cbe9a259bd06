import Foundation
import TriageCore

/// Writes an output file that may hold private data (`export ics --output`): mode
/// 0600 from the start, replaced atomically and durably by `AtomicFile` (which never
/// writes through a symlink planted at the temporary or the final name). A failure
/// is exit 73 naming the file.
enum PrivateFile {
    static func write(_ data: Data, to path: String) throws {
        try write(data, to: path, temporaryName: AtomicFile.randomName)
    }

    /// `write`, taking each temporary file name from `temporaryName` (tests plant
    /// links at a known name).
    static func write(_ data: Data, to path: String, temporaryName: () -> String) throws {
        do {
            try AtomicFile.write(path: path, data: data, mode: 0o600, durable: true, temporaryName: temporaryName)
        } catch StoreError.io(_, _, let code) {
            let hint = code == EEXIST
                ? "\(AtomicFile.attempts) temporary names in the folder were taken; check who else writes there"
                : "check the folder exists and is writable"
            throw SimpleError(.cantCreate, "\(path): cannot write the file: \(String(cString: strerror(code))); \(hint)")
        }
    }
}
