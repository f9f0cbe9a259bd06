import Foundation
import XCTest

/// The built binary refuses a configuration others can write before it runs
/// anything from it (issue 11, item 8), and accepts a symlink to a private one.
final class ConfigPermissionTests: XCTestCase {
    private var folder = ""
    private var config: String { folder + "/triage.conf" }
    private var marker: String { folder + "/password-command-ran" }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.path + "/triage-config-mode-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/rules", withIntermediateDirectories: true)
        chmod(folder + "/rules", 0o755)
        try "rule r when from:x then flag\n".write(toFile: folder + "/rules/r.rules", atomically: false, encoding: .utf8)
        chmod(folder + "/rules/r.rules", 0o644)
        try """
        [triage]
        me = me@example.test
        rules = rules
        store = store

        [account a]
        url = imaps://127.0.0.1:1
        user = me
        password_command = touch \(marker)
        timeout = 2

        """.write(toFile: config, atomically: false, encoding: .utf8)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func testAWorldWritableConfigIsRefusedBeforeItsPasswordCommandRuns() throws {
        chmod(config, 0o666)
        for command in [["run"], ["check"], ["queue"]] {
            let run = try TriageProcess.run(command + ["--config", config], directory: folder)
            XCTAssertEqual(run.status, 78, "\(command): \(run.err)")
            XCTAssertTrue(run.err.contains("writable by group and others (mode 0666)"), run.err)
            XCTAssertTrue(run.err.contains("run: chmod go-w \(config)"), run.err)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "the password command of a writable config ran")
    }

    func testASymlinkToAPrivateConfigIsAccepted() throws {
        // With a password in it, which needs the file private: the target's mode counts, not the link's.
        let text = try String(contentsOfFile: config, encoding: .utf8) + "\n[account b]\nurl = imaps://127.0.0.1:1\nuser = me\npassword = secret\n"
        try text.write(toFile: config, atomically: false, encoding: .utf8)
        chmod(config, 0o600)
        let link = folder + "/link.conf"
        XCTAssertEqual(symlink(config, link), 0)
        let run = try TriageProcess.run(["check", "--config", link], directory: folder)
        XCTAssertEqual(run.status, 0, run.err)
    }
}
