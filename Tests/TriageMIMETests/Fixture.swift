import Foundation

/// Locates test fixtures next to this source file (no bundled resources).
enum Fixture {
    /// `Tests/TriageMIMETests/Fixtures`.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// The package root (for `Examples/`).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The bytes of `Fixtures/<name>`.
    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// The demo Maildir every engineer's rules and demo use.
    static let demoMaildir = packageRoot.appendingPathComponent("Examples/demo/Maildir")

    /// Every message file in the demo Maildir's `cur/` and `new/`, sorted by path.
    static func demoMessages() throws -> [URL] {
        var files: [URL] = []
        for sub in ["cur", "new"] {
            let folder = demoMaildir.appendingPathComponent(sub)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            files += names.filter { !$0.hasPrefix(".") }.map { folder.appendingPathComponent($0) }
        }
        return files.sorted { $0.path < $1.path }
    }
}
