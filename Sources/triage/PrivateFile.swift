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

    /// Creates `path` with `data` (mode 0600) only if nothing is there yet, and says
    /// whether it did: false, and nothing changed, when a file (or a link, even a
    /// dangling one) already has the name (`triage init` never overwrites). The file
    /// appears whole or not at all: written under a temporary name, flushed, then
    /// put in place with `link`, which, unlike `rename`, fails when the name is taken.
    static func create(_ data: Data, at path: String) throws -> Bool {
        do {
            let staged = try AtomicFile.Staged(path: path, data: data, mode: 0o600)
            defer { staged.discard() }
            try staged.flush()
            guard link(staged.temporary, path) == 0 else {
                let code = errno
                if code == EEXIST { return false }
                throw StoreError.io(path: path, operation: "create", errno: code)
            }
            try AtomicFile.syncFolder(staged.folder)
            return true
        } catch StoreError.io(_, _, let code) {
            throw SimpleError(.cantCreate, "\(path): cannot write the file: \(String(cString: strerror(code))); "
                              + "check the folder exists and is writable")
        }
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
