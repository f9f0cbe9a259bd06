import Foundation
import XCTest

/// `password_command` / `oauth2_token_command` are bounded (issue 11, item 6): a
/// timeout (`command_timeout`) that kills the command's whole process group, the
/// same when triage itself is stopped, a cap on what it prints, and they run
/// before `triage run` takes the store lock.
final class SecretCommandTests: XCTestCase {
    private var folder: TestFolder!
    private var dir: String { folder.dir }

    override func setUpWithError() throws {
        folder = try TestFolder("secret", rules: "rule \"flag boss\"\n  when from:boss@example.test\n  then flag\n")
    }

    override func tearDown() {
        folder?.remove()
    }

    /// A configuration with one IMAP account that is never reached (the command comes first).
    private func writeConfig(passwordCommand: String, commandTimeout: Int?) throws {
        var account = ConfigSection("account slow", ["url": "imaps://127.0.0.1:1", "user": "me", "password_command": passwordCommand])
        if let commandTimeout { account.lines.append(("command_timeout", "\(commandTimeout)")) }
        try folder.writeConfig([.triage(me: nil), account])
    }

    /// Writes its shell's pid, starts a grandchild that sleeps (holding standard
    /// output), prints a would-be secret, and waits for ever.
    private var sleeper: String {
        "echo $$ > \(dir)/child.pid; sleep 1000 & echo $! > \(dir)/grandchild.pid; echo not-a-secret-4711; wait"
    }

    /// Whether `pid` is still a live process (a zombie waiting for its reaper is dead).
    private func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        // The state letter follows the parenthesised command name.
        guard let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z" && state != "X"
    }

    private func pids() throws -> [Int32] {
        try ["child", "grandchild"].map { name in
            let text = try String(contentsOfFile: "\(dir)/\(name).pid", encoding: .utf8)
            return try XCTUnwrap(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), "\(name).pid: \(text)")
        }
    }

    private func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    func testACommandThatNeverEndsIsStoppedWithEverythingItStarted() throws {
        try writeConfig(passwordCommand: sleeper, commandTimeout: 2)
        let start = Date()
        let run = try folder.triage(["run"])
        let took = Date().timeIntervalSince(start)
        XCTAssertEqual(run.status, 75, run.err)
        XCTAssertGreaterThanOrEqual(took, 2, "waited the whole command_timeout")
        XCTAssertLessThan(took, 6, "stopped at the timeout, not later")
        XCTAssertTrue(run.err.contains("password_command of [account slow] did not finish within 2 s"), run.err)
        XCTAssertTrue(run.err.contains("command_timeout in [account slow]"), run.err)
        XCTAssertFalse(run.err.contains("not-a-secret-4711"), "nothing the command printed is shown: \(run.err)")
        for pid in try pids() {
            XCTAssertTrue(waitUntil(2) { !isAlive(pid) }, "process \(pid) of the command is still running")
        }
    }

    func testTheDefaultTimeoutApplies() throws {
        // No command_timeout: the 30 s default. A command that ends at once is not waited for.
        try writeConfig(passwordCommand: "exit 3", commandTimeout: nil)
        let start = Date()
        let run = try folder.triage(["run"])
        XCTAssertEqual(run.status, 75, run.err)
        XCTAssertTrue(run.err.contains("failed with exit status 3"), run.err)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    func testTerminatingTriageTakesTheCommandDownToo() throws {
        try writeConfig(passwordCommand: sleeper, commandTimeout: 600)
        let process = Process()
        process.executableURL = TriageProcess.binary
        process.arguments = ["run", "--config", folder.config]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        XCTAssertTrue(waitUntil(10) { FileManager.default.fileExists(atPath: dir + "/grandchild.pid") }, "the command started")
        let pids = try pids()
        XCTAssertTrue(pids.allSatisfy(isAlive), "the control: the command runs")
        kill(process.processIdentifier, SIGTERM)
        XCTAssertTrue(waitUntil(5) { !process.isRunning }, "triage ends on SIGTERM")
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(process.terminationStatus, SIGTERM)
        for pid in pids {
            XCTAssertTrue(waitUntil(2) { !isAlive(pid) }, "process \(pid) of the command outlived triage")
        }
    }

    func testOutputOverTheCapIsRefused() throws {
        // 70,000 bytes, over the 64 KiB cap, then a normal exit.
        try writeConfig(passwordCommand: "head -c 70000 /dev/zero | tr '\\0' x", commandTimeout: 20)
        let run = try folder.triage(["run"])
        XCTAssertEqual(run.status, 78, run.err)
        XCTAssertTrue(run.err.contains("password_command of [account slow] printed more than 64 KiB"), run.err)
        XCTAssertFalse(run.err.contains("xxxxxxxx"), "the output is not shown")

        // Endless output is cut off at the cap, not at the timeout.
        try writeConfig(passwordCommand: "yes", commandTimeout: 20)
        let start = Date()
        let endless = try folder.triage(["run"])
        XCTAssertEqual(endless.status, 78, endless.err)
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)

        // The control: 60,000 bytes are under the cap and pass (the login then fails on the closed port).
        try writeConfig(passwordCommand: "head -c 60000 /dev/zero | tr '\\0' x", commandTimeout: 20)
        let under = try folder.triage(["run"])
        XCTAssertFalse(under.err.contains("64 KiB"), under.err)
        XCTAssertEqual(under.status, 75, under.err)
    }

    func testTheCommandGetsNoStandardInput() throws {
        // `read` fails at once on /dev/null; on an inherited terminal or pipe it would wait.
        try writeConfig(passwordCommand: "if read line; then echo got-input; else echo no-input > \(dir)/stdin; fi; exit 1",
                        commandTimeout: 5)
        let run = try TriageProcess.run(["run", "--config", folder.config], input: Data("typed\n".utf8))
        XCTAssertEqual(run.status, 75, run.err)
        XCTAssertEqual(try String(contentsOfFile: dir + "/stdin", encoding: .utf8), "no-input\n")
    }

    func testTheStoreIsNotLockedWhileThePasswordCommandRuns() throws {
        let box = try RunSandbox("secretlock")
        defer { box.remove() }
        try box.seed(3)
        // The password command itself runs a second triage that takes the store lock
        // (`remind add`), then prints the password.
        // (A script: a configuration line holds at most 200 bytes.)
        try """
        '\(TriageProcess.binary.path)' remind add 'written meanwhile' in 1 days --config '\(box.config)' > '\(box.dir)/second.out' 2>&1
        echo $? > '\(box.dir)/second.rc'
        cat '\(box.dir)/pw'
        """.write(toFile: box.dir + "/pw.sh", atomically: true, encoding: .utf8)
        let config = try String(contentsOfFile: box.config, encoding: .utf8).replacingOccurrences(
            of: "password_command = cat \(box.dir)/pw", with: "password_command = sh \(box.dir)/pw.sh")
        try config.write(toFile: box.config, atomically: true, encoding: .utf8)
        let run = try box.triage(["run"])
        XCTAssertEqual(run.status, 0, run.err)
        let out = (try? String(contentsOfFile: box.dir + "/second.out", encoding: .utf8)) ?? ""
        XCTAssertEqual(try String(contentsOfFile: box.dir + "/second.rc", encoding: .utf8), "0\n",
                       "the second triage got the lock while the password command ran: \(out)")
        let list = try box.triage(["remind", "list"])
        XCTAssertTrue(list.out.contains("written meanwhile"), list.out + list.err)
    }

    func testTheDigestPasswordCommandIsBoundedAndRunsBeforeTheLock() throws {
        let smtp = try SMTPTestServer.shared()
        try """
        '\(TriageProcess.binary.path)' remind add 'digest meanwhile' in 1 days --config '\(folder.config)' > '\(dir)/second.out' 2>&1
        echo $? > '\(dir)/second.rc'
        exec sleep 1000
        """.write(toFile: dir + "/pw.sh", atomically: true, encoding: .utf8)
        try folder.writeConfig([.triage(me: nil), ConfigSection("digest", [
            "to": "me@example.test", "from": "triage@example.test", "hour": "0", "send_empty": "yes",
            "smtp": "smtp://localhost:\(smtp.starttlsPort)", "ca_file": smtp.caFile, "user": SMTPTestServer.user,
            "password_command": "sh \(dir)/pw.sh", "command_timeout": "2",
        ])])
        let start = Date()
        let run = try folder.triage(["run"])
        XCTAssertLessThan(Date().timeIntervalSince(start), 8)
        XCTAssertEqual(run.status, 75, run.err)
        XCTAssertTrue(run.err.contains("password_command of [digest] did not finish within 2 s"), run.err)
        XCTAssertTrue(run.err.contains("command_timeout in [digest]"), run.err)
        let out = (try? String(contentsOfFile: dir + "/second.out", encoding: .utf8)) ?? ""
        XCTAssertEqual(try String(contentsOfFile: dir + "/second.rc", encoding: .utf8), "0\n", out)
    }
}
