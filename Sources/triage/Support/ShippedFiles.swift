import Foundation

/// Where the files shipped with triage (the rule files of `Rules/`, the annotated
/// examples of `Examples/`) are, found from the running executable: installed,
/// `PREFIX/share/triage/` beside `PREFIX/bin/triage` (what `scripts/install`
/// installs); run from a build, the source tree the build folder is in (the folder
/// above it that holds `Package.swift` and `Rules/`).
enum ShippedFiles {
    /// The running executable's real path (links resolved), from `/proc/self/exe`.
    static func executable() -> String? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return path
    }

    /// The folder that holds `Rules/` and `Examples/` for `executable`: the first
    /// folder, from the executable's own upwards, that has `share/triage/Rules`
    /// (an install prefix) or `Package.swift` and `Rules/` (the source tree).
    static func root(executable: String) -> String? {
        var folder = (executable as NSString).deletingLastPathComponent
        let fm = FileManager.default
        while !folder.isEmpty {
            var isFolder: ObjCBool = false
            if fm.fileExists(atPath: folder + "/share/triage/Rules", isDirectory: &isFolder), isFolder.boolValue {
                return folder + "/share/triage"
            }
            if fm.fileExists(atPath: folder + "/Package.swift"), fm.fileExists(atPath: folder + "/Rules", isDirectory: &isFolder),
               isFolder.boolValue {
                return folder
            }
            if folder == "/" { break }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return nil
    }

    /// Where to read about a section: the installed annotated example
    /// (`PREFIX/share/triage/Examples/triage.conf`) when there is one, and the man page.
    static var exampleHint: String {
        if let executable = executable(), let root = root(executable: executable),
           FileManager.default.fileExists(atPath: root + "/Examples/triage.conf") {
            return "see \(root)/Examples/triage.conf and man triage.conf"
        }
        return "see man triage.conf"
    }

    /// The shipped rule files (`NAME.rules`) of `root`'s `Rules/`, sorted by name.
    static func rules(in root: String) -> [String] {
        let folder = root + "/Rules"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".rules") && !$0.hasPrefix(".") }.sorted().map { folder + "/" + $0 }
    }
}
