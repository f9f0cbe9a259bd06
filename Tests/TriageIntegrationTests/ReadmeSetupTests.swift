import Foundation
import XCTest

/// The README's set-up ("Install for yourself"), followed literally on a Maildir
/// account: its four lines are read from README.md, so this test breaks when they
/// change. `scripts/install` into a temporary prefix (the release build is shared
/// with InstallTests in `.build/install`), then `triage init` with no terminal (so
/// with `--me` and `--url maildir:...`), `triage run --all`, and the cron line's
/// command, each through `/bin/sh` with only the prefix and the system on PATH and
/// HOME a folder of the test's own.
final class ReadmeSetupTests: XCTestCase {
    private var work = ""
    private let now = "2030-01-15T09:00:00Z"

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.path + "/triage-readme-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: work + "/home", withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: work)
    }

    /// The indented block under "## Install for yourself", one command a line.
    static func setupLines() throws -> [String] {
        let readme = try String(contentsOfFile: InstalledCopy.root + "/README.md", encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "\n## Install for yourself\n").dropFirst().first)
        var lines: [String] = []
        for line in section.components(separatedBy: "\n") {
            if line.hasPrefix("    ") {
                lines.append(String(line.dropFirst(4)))
            } else if !lines.isEmpty {
                break
            } else if line.hasPrefix("## ") {
                break
            }
        }
        return lines
    }

    func testTheREADMESetUpWorksOnAMaildir() throws {
        let lines = try Self.setupLines()
        // The set-up the issue asks for, in this order.
        XCTAssertEqual(lines.count, 4, "\(lines)")
        guard lines.count == 4 else { return }
        XCTAssertEqual(lines[0], "scripts/install")
        XCTAssertEqual(lines[1], "triage init")
        XCTAssertEqual(lines[2], "triage run --all")
        let cron = lines[3].split(separator: " ", maxSplits: 5).map(String.init)
        XCTAssertEqual(cron.count, 6, lines[3])
        XCTAssertEqual(cron.prefix(5).joined(separator: " "), "*/10 * * * *", "a crontab line: five time fields, then the command")
        let cronCommand = cron[5]

        let prefix = work + "/prefix"
        let home = work + "/home"
        let env = ["HOME": home, "PATH": prefix + "/bin:/usr/bin:/bin", "TZ": "UTC"]
        func shell(_ line: String, _ extra: String) throws -> TriageProcess.Result {
            try InstalledCopy.run("/bin/sh", ["-c", line + extra], environment: env, directory: home)
        }

        // 1. scripts/install (with a prefix of the test's own; the README names --prefix DIR).
        let install = try InstalledCopy.run("/bin/sh", ["-c", lines[0] + " --prefix " + prefix],
                                            environment: ["HOME": home, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
                                            directory: InstalledCopy.root)
        XCTAssertEqual(install.status, 0, install.out + install.err)
        guard install.status == 0 else { return }
        XCTAssertTrue(install.out.contains("next: triage init"), install.out)
        XCTAssertTrue(FileManager.default.fileExists(atPath: prefix + "/share/triage/Rules/default.rules"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: prefix + "/share/triage/Examples/triage.conf"))

        // The mail already there when triage is set up.
        let maildir = home + "/Maildir"
        try FileManager.default.copyItem(atPath: InstalledCopy.root + "/Examples/demo/Maildir", toPath: maildir)
        let inbox = try Self.count(maildir + "/new") + Self.count(maildir + "/cur")
        XCTAssertGreaterThan(inbox, 10)

        // 2. triage init: no terminal here, so the address and the Maildir as options.
        let initResult = try shell(lines[1], " --me me@example.test --url maildir:Maildir")
        XCTAssertEqual(initResult.status, 0, initResult.out + initResult.err)
        let config = home + "/.config/triage/triage.conf"
        XCTAssertEqual(Self.mode(config), 0o600)
        XCTAssertEqual(Self.mode(home + "/.config/triage/rules/default.rules"), 0o600)
        // The rules come from the install, not from the clone.
        XCTAssertEqual(FileManager.default.contents(atPath: home + "/.config/triage/rules/default.rules"),
                       FileManager.default.contents(atPath: prefix + "/share/triage/Rules/default.rules"))
        // init's next steps are the README's: run --all, then the cron line with the installed path.
        XCTAssertTrue(initResult.out.contains("1. " + lines[2] + "\n"), initResult.out)
        XCTAssertTrue(initResult.out.contains(lines[3].replacingOccurrences(of: " triage run", with: " \(prefix)/bin/triage run") + "\n"),
                      initResult.out)

        // 3. triage run --all: the mail already there is processed.
        let run = try shell(lines[2], " --now " + now)
        XCTAssertEqual(run.status, 0, run.out + run.err)
        let status = try shell("triage status --json", "")
        XCTAssertEqual(status.status, 0, status.err)
        XCTAssertTrue(status.out.contains("\"messages\": \(inbox)\n"), "every message already there was processed: \(status.out)")
        XCTAssertGreaterThan(try Self.count(maildir + "/.Archive/cur"), 0, "the shipped cc rule archived")

        // 4. The cron line's command, on a message delivered after the set-up.
        let archived = try Self.count(maildir + "/.Archive/cur")
        try ("From: boss@example.test\nTo: team@example.test\nCc: me@example.test\nSubject: After set-up\n"
             + "Message-ID: <after-setup@example.test>\n\nFor your information.\n")
            .write(toFile: maildir + "/new/1800000000.M1P1.host", atomically: true, encoding: .utf8)
        let cronRun = try shell(cronCommand, " --now " + now)
        XCTAssertEqual(cronRun.status, 0, cronRun.out + cronRun.err)
        XCTAssertEqual(cronRun.out, "", "cron mails what a run prints; a run with nothing wrong prints nothing")
        XCTAssertEqual(try Self.count(maildir + "/.Archive/cur"), archived + 1)

        // A second init leaves everything as it is.
        let before = try String(contentsOfFile: config, encoding: .utf8)
        let again = try shell(lines[1], " --me other@example.test --url maildir:Maildir")
        XCTAssertEqual(again.status, 73, again.err)
        XCTAssertEqual(try String(contentsOfFile: config, encoding: .utf8), before)
    }

    private static func count(_ folder: String) throws -> Int {
        guard FileManager.default.fileExists(atPath: folder) else { return 0 }
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.count
    }

    private static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }
}
