import Foundation
import TriageConfig
import TriageCore
import XCTest

/// Reading the rules folder named by the configuration.
final class RulesFolderTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rules-folder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Rules"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    func configuration(_ text: String = "[triage]\nme = me@example.test\nrules = Rules\ntimezone = Europe/Berlin\n") throws -> Configuration {
        try ConfigLoader.parse(text, path: folder.appendingPathComponent("triage.conf").path)
    }

    func testReadsRuleFilesInNameOrderAndIgnoresOthers() throws {
        try write("Rules/b.rules", "rule second when y then flag")
        try write("Rules/a.rules", "rule first when x then flag")
        try write("Rules/notes.txt", "rule ignored when")
        let loaded = RulesFolder.load(try configuration(), currentDirectory: folder.path)
        XCTAssertEqual(loaded.diagnostics, [])
        XCTAssertEqual(loaded.rules?.rules.map(\.name), ["first", "second"])
        XCTAssertEqual(loaded.rules?.rules.map(\.path), ["Rules/a.rules", "Rules/b.rules"])
        XCTAssertEqual(loaded.rules?.timeZone.identifier, "Europe/Berlin")
        XCTAssertEqual(loaded.rules?.environment.identities, ["me@example.test"])
    }

    func testProblemsRenderWithPathsRelativeToTheCurrentFolder() throws {
        try write("Rules/x.rules", "rule r\n  when form:boss@example.test\n  then flag\n")
        let loaded = RulesFolder.load(try configuration(), currentDirectory: folder.path)
        XCTAssertNil(loaded.rules)
        XCTAssertEqual(loaded.rendered, """
        Rules/x.rules:2:8: error: unknown operator 'form:'; did you mean 'from:'?
            2 |   when form:boss@example.test
              |        ^~~~~

        """)
    }

    func testEmptyAndMissingFolders() throws {
        let empty = RulesFolder.load(try configuration(), currentDirectory: "/elsewhere")
        XCTAssertEqual(empty.diagnostics.map(\.message), ["no rule files in this folder; add a file whose name ends in .rules (Rules/default.rules is a start)"])
        XCTAssertEqual(empty.diagnostics.first?.path, folder.appendingPathComponent("Rules").path)

        let config = try configuration("[triage]\n\nrules = Missing\n")
        XCTAssertEqual(config.triage.rulesLine, 3)
        let missing = RulesFolder.load(config, currentDirectory: folder.path)
        XCTAssertEqual(missing.rendered, "\(config.path):3: error: the rules folder \(folder.path)/Missing does not exist; create it or set 'rules = FOLDER' in [triage]\n")
    }
}
