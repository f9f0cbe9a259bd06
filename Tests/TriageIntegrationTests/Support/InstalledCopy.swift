import Foundation

/// The repository, and a copy of its demo (configuration, Maildir, rules) in a
/// folder of its own, for the tests of what `scripts/install` installs.
enum InstalledCopy {
    /// The repository's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// Copies `Examples/demo` and `Rules/` into `folder` (as `Examples/demo` and
    /// `Rules`, so the demo's `rules = ../../Rules` holds), private as triage
    /// wants them, and returns the copied configuration's path.
    static func demo(in folder: String) throws -> String {
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder + "/Examples", withIntermediateDirectories: true)
        try fm.copyItem(atPath: root + "/Examples/demo", toPath: folder + "/Examples/demo")
        try fm.copyItem(atPath: root + "/Rules", toPath: folder + "/Rules")
        try Spawn.run(["/bin/chmod", "-R", "go-w", folder])
        return folder + "/Examples/demo/triage.conf"
    }

    /// Runs `path args` with `environment` as the whole environment, in `directory`.
    static func run(_ path: String, _ args: [String], environment: [String: String], directory: String) throws
        -> TriageProcess.Result {
        try TriageProcess.run(args, environment: environment, inheritEnvironment: false, directory: directory,
                              executable: URL(fileURLWithPath: path))
    }
}
