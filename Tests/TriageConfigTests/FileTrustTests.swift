import Foundation
import TriageConfig
import TriageCore
import XCTest

/// Who may change the configuration and the rules (issue 11, item 8): the file a
/// symlink names is checked, not the link; group- or world-writable files and
/// folders, and files of another user, are refused with exit 78 and what to run.
final class FileTrustTests: XCTestCase {
    private var folder = ""
    private var config: String { folder + "/triage.conf" }
    private let configText = "[triage]\nme = me@example.test\nrules = Rules\n\n[account a]\nurl = imaps://h\nuser = me\npassword_command = echo pw\n"

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.path + "/triage-trust-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/Rules", withIntermediateDirectories: true)
        chmod(folder + "/Rules", 0o755)
        try configText.write(toFile: config, atomically: false, encoding: .utf8)
        chmod(config, 0o600)
        try "rule r when x then flag\n".write(toFile: folder + "/Rules/a.rules", atomically: false, encoding: .utf8)
        chmod(folder + "/Rules/a.rules", 0o644)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func refusal(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> ConfigError? {
        do {
            _ = try ConfigLoader.load(path: path)
            XCTFail("\(path) was accepted", file: file, line: line)
            return nil
        } catch let error as ConfigError {
            return error
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return nil
        }
    }

    func testASymlinkToAPrivateConfigIsAccepted() throws {
        let link = folder + "/link.conf"
        XCTAssertEqual(symlink(config, link), 0)
        // A password in the file needs it private: checked on the target, not on the link (mode 0777).
        try (configText + "password = secret\n").write(toFile: config, atomically: false, encoding: .utf8)
        let loaded = try ConfigLoader.load(path: link)
        XCTAssertEqual(loaded.accounts.first?.password, "secret")
    }

    func testAWorldWritableConfigIsRefused() throws {
        chmod(config, 0o666)
        let error = try XCTUnwrap(refusal(config))
        XCTAssertEqual(error.exitStatus, .config)
        XCTAssertEqual(error.message, "\(config): error: the configuration file is writable by group and others (mode 0666): "
                       + "whoever can change it can make triage run commands as you; run: chmod go-w \(config)")
        // Through a link too: the target is what counts.
        let link = folder + "/link.conf"
        XCTAssertEqual(symlink(config, link), 0)
        XCTAssertTrue(try XCTUnwrap(refusal(link)).message.contains("writable by group and others"))
    }

    func testAGroupWritableConfigIsRefused() throws {
        chmod(config, 0o620)
        XCTAssertTrue(try XCTUnwrap(refusal(config)).message.contains("writable by its group (mode 0620)"))
    }

    func testAConfigOfAnotherUserIsRefused() throws {
        // The suite runs as root (CI); the file is given to nobody.
        XCTAssertEqual(getuid(), 0, "this test needs root to give a file away")
        XCTAssertEqual(chown(config, 65534, 65534), 0)
        let error = try XCTUnwrap(refusal(config))
        XCTAssertEqual(error.exitStatus, .config)
        XCTAssertTrue(error.message.contains("belongs to uid 65534"), error.message)
        XCTAssertTrue(error.message.hasSuffix("copy it to a file of your own, or have root run: chown 0 \(config)"), error.message)
    }

    func testAGroupWritableRuleFileIsRefused() throws {
        chmod(folder + "/Rules/a.rules", 0o664)
        let loaded = RulesFolder.load(try ConfigLoader.load(path: config), currentDirectory: folder)
        XCTAssertNil(loaded.rules)
        XCTAssertEqual(loaded.diagnostics.map(\.path), ["Rules/a.rules"])
        XCTAssertEqual(loaded.diagnostics.first?.message, "this rule file is writable by its group (mode 0664): whoever can "
                       + "change the rules decides what happens to your mail (moves, webhooks); run: chmod go-w \(folder)/Rules/a.rules")
    }

    func testAWorldWritableRulesFolderIsRefused() throws {
        chmod(folder + "/Rules", 0o777)
        let loaded = RulesFolder.load(try ConfigLoader.load(path: config), currentDirectory: folder)
        XCTAssertNil(loaded.rules)
        XCTAssertTrue(loaded.diagnostics.first?.message.contains("the rules folder is writable by group and others (mode 0777)") ?? false,
                      "\(loaded.diagnostics)")
    }

    func testARuleFileOfAnotherUserIsRefusedAndALinkToAGoodOneAccepted() throws {
        let elsewhere = folder + "/b.rules"
        try "rule b when y then flag\n".write(toFile: elsewhere, atomically: false, encoding: .utf8)
        chmod(elsewhere, 0o644)
        XCTAssertEqual(symlink(elsewhere, folder + "/Rules/b.rules"), 0)
        XCTAssertNotNil(RulesFolder.load(try ConfigLoader.load(path: config), currentDirectory: folder).rules)

        XCTAssertEqual(chown(elsewhere, 65534, 65534), 0, "the suite runs as root")
        let loaded = RulesFolder.load(try ConfigLoader.load(path: config), currentDirectory: folder)
        XCTAssertNil(loaded.rules)
        XCTAssertEqual(loaded.diagnostics.map(\.path), ["Rules/b.rules"])
        XCTAssertTrue(loaded.diagnostics.first?.message.contains("belongs to uid 65534") ?? false, "\(loaded.diagnostics)")
    }
}
