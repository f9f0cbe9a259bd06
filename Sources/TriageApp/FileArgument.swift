import Foundation
import TriageCore

/// A file named on the command line: a message for `test` and `inspect`, the
/// `--config` file, the `--output` of `export`. One check and one wording for
/// each way it can be wrong, the same in every command, so a directory given
/// where a file is expected reads (and exits) alike everywhere: 66 for a file to
/// read, 73 for one to write.
package enum FileArgument {
    /// The contents of the file at `path`, or standard input for `-`.
    package static func read(_ path: String) throws -> Data {
        if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        try checkNotDirectory(path)
        guard FileManager.default.fileExists(atPath: path) else {
            throw SimpleError(.noInput, "cannot read \(path): no such file; check the path")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SimpleError(.noInput, "cannot read \(path): permission denied or unreadable; check its permissions")
        }
        return data
    }

    /// Refuses a directory where a file to read is expected (exit 66).
    package static func checkNotDirectory(_ path: String) throws {
        if isDirectory(path) { throw SimpleError(.noInput, directoryMessage("read", path)) }
    }

    /// Refuses a directory where a file to write is expected (exit 73, like other
    /// output files that cannot be created).
    package static func checkWritableName(_ path: String) throws {
        if isDirectory(path) { throw SimpleError(.cantCreate, directoryMessage("write", path)) }
    }

    private static func directoryMessage(_ verb: String, _ path: String) -> String {
        "cannot \(verb) \(path): it is a directory, where a file is expected; name a file"
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
