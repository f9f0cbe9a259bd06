import Foundation
import XCTest

/// A `password_command`, `oauth2_token_command` or `sendmail` that names a program
/// that is not there or cannot be run (the shell's exit 127 or 126) is a mistake in
/// the configuration (exit 78), said at once even with `quiet_failures`: as a
/// temporary failure (75) cron would hide it for an hour (issue 27, item 4). A
/// command that runs and fails stays temporary.
final class MissingProgramTests: XCTestCase {
    private var folder: TestFolder!
    private var dir: String { folder.dir }

    override func setUpWithError() throws {
        folder = try TestFolder("missing", rules: "rule \"flag boss\"\n  when from:boss@example.test\n  then flag\n")
    }

    override func tearDown() {
        folder?.remove()
    }

    /// One IMAP account that is never reached (its command comes first); `quiet_failures = 1h` when `quiet`.
    private func run(_ command: String, key: String = "password_command", quiet: Bool = false,
                     extra: [ConfigSection] = []) throws -> TriageProcess.Result {
        var triage = ConfigSection.triage(me: nil)
        if quiet { triage.lines.append(("quiet_failures", "1h")) }
        let account = ConfigSection("account home", ["url": "imaps://127.0.0.1:1", "user": "me", key: command])
        try folder.writeConfig([triage, account] + extra)
        return try folder.triage(["run", "--now", "2030-01-15T08:00:00Z"])
    }

    func testAPasswordProgramThatIsNotInstalledIsAConfigurationError() throws {
        for quiet in [false, true] {
            let run = try run("nosuch-cmd-xyz --show home", quiet: quiet)
            XCTAssertEqual(run.status, 78, "quiet \(quiet): \(run.err)")
            XCTAssertTrue(run.err.contains("password_command of [account home]: /bin/sh: "), run.err)
            XCTAssertTrue(run.err.contains("nosuch-cmd-xyz: not found (exit 127)"), run.err)
            XCTAssertTrue(run.err.contains("install the program or fix password_command in [account home]"), run.err)
        }
    }

    func testATokenProgramThatIsNotInstalledIsAConfigurationError() throws {
        let run = try run("nosuch-cmd-xyz", key: "oauth2_token_command", quiet: true)
        XCTAssertEqual(run.status, 78, run.err)
        XCTAssertTrue(run.err.contains("oauth2_token_command of [account home]: /bin/sh: "), run.err)
        XCTAssertTrue(run.err.contains("fix oauth2_token_command in [account home]"), run.err)
    }

    func testAPasswordProgramThatIsNotExecutableIsAConfigurationError() throws {
        let path = dir + "/get-password"
        try Data("#!/bin/sh\necho secret-4711\n".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        for quiet in [false, true] {
            let run = try run(path, quiet: quiet)
            XCTAssertEqual(run.status, 78, "quiet \(quiet): \(run.err)")
            XCTAssertTrue(run.err.contains("get-password: Permission denied (exit 126)"), run.err)
            XCTAssertFalse(run.err.contains("secret-4711"), run.err)
        }
    }

    func testWhatTheCommandPrintedIsNeverShown() throws {
        // It prints a would-be secret, then runs what is not there: the last word is 127.
        let run = try run("echo secret-4711; echo secret-4712 >&2; nosuch-cmd-xyz")
        XCTAssertEqual(run.status, 78, run.err)
        XCTAssertFalse(run.err.contains("secret-4711"), run.err)
    }

    func testACommandThatRunsAndFailsStaysTemporary() throws {
        let said = try run("echo 'gpg: decryption failed' >&2; exit 1")
        XCTAssertEqual(said.status, 75, said.err)
        XCTAssertTrue(said.err.contains("password_command of [account home] failed with exit status 1: gpg: decryption failed"),
                      said.err)
        let quiet = try run("exit 1", quiet: true)
        XCTAssertEqual(quiet.status, 75, quiet.err)
        XCTAssertEqual(quiet.err, "", "a fresh temporary failure is kept quiet")
    }

    func testTheDigestPasswordProgramToo() throws {
        let digest = ConfigSection("digest", ["to": "me@example.test", "from": "triage@example.test", "hour": "0",
                                              "smtp": "smtps://127.0.0.1:1", "user": "me",
                                              "password_command": "nosuch-cmd-xyz"])
        let run = try run("printf x", quiet: true, extra: [digest])
        XCTAssertEqual(run.status, 78, run.err)
        XCTAssertTrue(run.err.contains("password_command of [digest]: /bin/sh: "), run.err)
        XCTAssertTrue(run.err.contains("fix password_command in [digest]"), run.err)
    }

    /// `sendmail:PATH` that is not there was already 78 (SendmailDeliveryTests); one that is a
    /// wrapper whose program is missing (exit 127) is the same mistake, said at once in a quiet run.
    func testASendmailWhoseProgramIsMissingIsAConfigurationError() throws {
        let wrapper = dir + "/sendmail-wrapper"
        try Data("#!/bin/sh\nexec nosuch-msmtp-xyz \"$@\"\n".utf8).write(to: URL(fileURLWithPath: wrapper))
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: wrapper)
        for path in [wrapper, dir + "/nonexistent"] {
            let digest = ConfigSection("digest", ["to": "me@example.test", "from": "triage@example.test", "hour": "0",
                                                  "smtp": "sendmail:" + path, "send_empty": "yes"])
            let run = try run("printf x", quiet: true, extra: [digest])
            XCTAssertEqual(run.status, 78, "\(path): \(run.err)")
            XCTAssertTrue(run.err.contains("[digest] smtp = sendmail: \(path)"), run.err)
        }
    }
}
