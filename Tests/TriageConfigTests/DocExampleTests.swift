@testable import TriageConfig
import TriageCore
import XCTest

/// Every triage.conf example in the documentation (a ``` block of docs/*.md or
/// README.md with a `[triage]`, `[account …]`, `[digest]` or `[caldav …]` header),
/// pasted into a file as a user would, reads with no problem and means what it
/// looks like: no comment is left in a value (issue 27, item 3: docs/caldav.md's
/// `# comments` ended up in `url` and `create_lists`).
final class DocExampleTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// An example: where it is and its text.
    struct Example {
        var file: String
        var line: Int
        var text: String
    }

    /// Every fenced block that looks like triage.conf.
    static func examples() throws -> [Example] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.path + "/docs")
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 } + ["README.md"]
        var found: [Example] = []
        for file in docs {
            let lines = try String(contentsOfFile: root.path + "/" + file, encoding: .utf8).components(separatedBy: "\n")
            var block: [String]?
            var start = 0
            for (i, line) in lines.enumerated() {
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                    if let inside = block {
                        if inside.contains(where: isSectionHeader) {
                            found.append(Example(file: file, line: start, text: inside.joined(separator: "\n") + "\n"))
                        }
                        block = nil
                    } else {
                        block = []
                        start = i + 2
                    }
                } else {
                    block?.append(line)
                }
            }
        }
        return found
    }

    static func isSectionHeader(_ line: String) -> Bool {
        let t = line.trimmingCharacters(in: .whitespaces)
        guard t.hasPrefix("["), t.hasSuffix("]") else { return false }
        let words = t.dropFirst().dropLast().split(separator: " ")
        switch (words.first, words.count) {
        case ("triage"?, 1), ("digest"?, 1), ("account"?, 2), ("caldav"?, 2): return true
        default: return false
        }
    }

    func testTheExamplesAreFound() throws {
        let files = Set(try Self.examples().map(\.file))
        // The control: the search finds the examples this test was written for.
        for file in ["docs/caldav.md", "docs/digest.md", "docs/run.md", "docs/watch.md"] {
            XCTAssertTrue(files.contains(file), "no example found in \(file): \(files.sorted())")
        }
    }

    func testEveryExampleReadsWithNoProblemAndNoCommentInAValue() throws {
        let dir = NSTemporaryDirectory() + "triage-doc-examples-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for example in try Self.examples() {
            let name = "\(example.file):\(example.line)"
            // A fragment (one section) is pasted into a file that has the rest.
            var text = example.text
            if !example.text.components(separatedBy: "\n").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "[triage]" }) {
                text = "[triage]\nrules = rules\n\n" + text
            }
            let path = dir + "/triage.conf"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            do {
                _ = try ConfigLoader.load(path: path)
            } catch let error as ConfigError {
                XCTFail("\(name) does not read: \(error.problems.map(\.message))")
            }
            for entry in INIReader.read(text).entries where !entry.key.hasSuffix("_command") {
                for mark in [" #", "\t#", " ;", "\t;"] {
                    XCTAssertFalse(entry.value.contains(mark), "\(name): a comment left in \(entry.key) = \(entry.value)")
                }
            }
        }
    }

    /// docs/caldav.md's example, as pasted: the values without their comments.
    func testTheCalDAVExampleMeansWhatItSays() throws {
        let example = try XCTUnwrap(try Self.examples().first { $0.file == "docs/caldav.md" })
        let config = try ConfigLoader.parse("[triage]\n" + example.text, path: "/tmp/triage.conf")
        let caldav = try XCTUnwrap(config.caldav.first)
        XCTAssertEqual(caldav.url, "https://caldav.fastmail.com/")
        XCTAssertEqual(caldav.user, "me@fastmail.com")
        XCTAssertEqual(caldav.remindersList, "Reminders")
        XCTAssertEqual(caldav.queueLists, ["rec": "rec", "invitations": "invitations", "reply": "To answer"])
        XCTAssertTrue(caldav.createLists)
    }
}
