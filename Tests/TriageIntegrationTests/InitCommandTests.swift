import Foundation
import XCTest

/// `triage init` (issue 27, item 1), run as a newcomer runs it: HOME (and
/// XDG_CONFIG_HOME) in a folder of the test's own, the whole environment given,
/// standard input not a terminal (options) or a pseudo-terminal (questions).
final class InitCommandTests: XCTestCase {
    private var home = ""
    private let now = "2030-01-15T09:00:00Z"

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.path + "/triage-init-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: home + "/Mail", withIntermediateDirectories: true)
        for leaf in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: home + "/Mail/" + leaf, withIntermediateDirectories: true)
        }
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: home)
    }

    private var config: String { home + "/.config/triage/triage.conf" }
    private var environment: [String: String] { ["HOME": home, "PATH": "/usr/bin:/bin", "TZ": "UTC"] }

    private func triage(_ args: [String], environment extra: [String: String] = [:]) throws -> TriageProcess.Result {
        try TriageProcess.run(args, environment: environment.merging(extra) { $1 }, inheritEnvironment: false, directory: home)
    }

    private func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    private func deliver(_ name: String, _ text: String) throws {
        try text.write(toFile: home + "/Mail/new/" + name, atomically: true, encoding: .utf8)
    }

    /// With options and no terminal: the files, private; check --connect on the Maildir;
    /// the next steps; then `run --all` acts on the mail that was there.
    func testOptionsOnAMaildirWriteAWorkingSetup() throws {
        try deliver("1700000001.M1P1.host", "From: boss@example.test\nTo: team@example.test\nCc: me@example.test\n"
                    + "Subject: FYI numbers\nMessage-ID: <fyi1@example.test>\n\nFor your information.\n")
        let result = try triage(["init", "--me", "me@example.test", "--url", "maildir:Mail", "--hour", "8"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "")
        XCTAssertTrue(result.out.contains("Wrote \(config)\n"), result.out)
        XCTAssertTrue(result.out.contains("Wrote \(home)/.config/triage/rules/default.rules"), result.out)
        XCTAssertTrue(result.out.contains("Checking: triage check --connect\n"), result.out)
        XCTAssertTrue(result.out.contains("mail: folder \"INBOX\" is \"INBOX\" on maildir:\(home)/Mail"), result.out)
        XCTAssertTrue(result.out.contains("check: all is well\n"), result.out)
        for step in ["1. triage run --all\n", "2. crontab -e, and add the line\n", "*/10 * * * * SWIFT_BACKTRACE=enable=no ",
                     "/triage run\n", "3. triage digest --preview\n", "due daily from 8:00 to me@example.test"] {
            XCTAssertTrue(result.out.contains(step), "\(step) in:\n\(result.out)")
        }
        XCTAssertEqual(mode(config), 0o600)
        XCTAssertEqual(mode(home + "/.config/triage/rules/default.rules"), 0o600)
        XCTAssertEqual(mode(home + "/.config/triage/rules"), 0o700)
        XCTAssertEqual(FileManager.default.contents(atPath: home + "/.config/triage/rules/default.rules"),
                       FileManager.default.contents(atPath: InstalledCopy.root + "/Rules/default.rules"))
        let text = try String(contentsOfFile: config, encoding: .utf8)
        XCTAssertTrue(text.contains("url = \"maildir:\(home)/Mail\"\n"), text)
        XCTAssertTrue(text.contains("\nhour = 8 "), text)

        let run = try triage(["run", "--all", "--now", now])
        XCTAssertEqual(run.status, 0, run.err)
        // The shipped cc rule archived the message: out of INBOX, into Archive.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home + "/Mail/new").count
                       + (try FileManager.default.contentsOfDirectory(atPath: home + "/Mail/cur")).count, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home + "/Mail/.Archive/cur").count, 1)
        // The digest's default delivery works on any machine: this machine's sendmail
        // when it has one, else .eml files in the store's outbox (this run sent the day's).
        if FileManager.default.isExecutableFile(atPath: "/usr/sbin/sendmail") {
            XCTAssertTrue(text.contains("smtp = \"sendmail\""), text)
        } else {
            XCTAssertTrue(text.contains("smtp = \"file:\(home)/.local/share/triage/outbox\""), text)
            let outbox = home + "/.local/share/triage/outbox"
            let sent = try FileManager.default.contentsOfDirectory(atPath: outbox).filter { $0.hasSuffix(".eml") }
            XCTAssertEqual(sent.count, 1, "\(sent)")
            let digest = try String(contentsOfFile: outbox + "/" + sent[0], encoding: .utf8)
            XCTAssertTrue(digest.contains("FYI numbers"), digest)
        }
    }

    /// A second init changes nothing and says so (73); a rule file that exists is left.
    func testInitNeverOverwrites() throws {
        let first = try triage(["init", "--me", "me@example.test", "--url", "maildir:Mail"])
        XCTAssertEqual(first.status, 0, first.err)
        let written = try String(contentsOfFile: config, encoding: .utf8)
        let again = try triage(["init", "--me", "other@example.test", "--url", "maildir:Mail"])
        XCTAssertEqual(again.status, 73)
        XCTAssertEqual(again.err, "triage: init: \(config) already exists: left as it is, nothing written; "
                       + "'triage check' validates it (move it away to start over)\n")
        XCTAssertEqual(try String(contentsOfFile: config, encoding: .utf8), written)

        // The configuration gone, the edited rules stay.
        try FileManager.default.removeItem(atPath: config)
        let rules = home + "/.config/triage/rules/default.rules"
        try "rule \"mine\" when from:x@example.test then archive\n".write(toFile: rules, atomically: true, encoding: .utf8)
        let third = try triage(["init", "--me", "me@example.test", "--url", "maildir:Mail"])
        XCTAssertEqual(third.status, 0, third.err)
        XCTAssertTrue(third.out.contains("Left \(rules) as it is: it exists\n"), third.out)
        XCTAssertEqual(try String(contentsOfFile: rules, encoding: .utf8), "rule \"mine\" when from:x@example.test then archive\n")

        // A dangling link at the name counts as a file: never written through.
        try FileManager.default.removeItem(atPath: config)
        try FileManager.default.createSymbolicLink(atPath: config, withDestinationPath: home + "/elsewhere.conf")
        let linked = try triage(["init", "--me", "me@example.test", "--url", "maildir:Mail"])
        XCTAssertEqual(linked.status, 73, linked.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/elsewhere.conf"))
    }

    /// XDG_CONFIG_HOME and --config say where it goes, as for every command.
    func testTheConfigurationPathIsTheOneEveryCommandReads() throws {
        let xdg = try triage(["init", "--me", "me@example.test", "--url", "maildir:Mail"], environment: ["XDG_CONFIG_HOME": home + "/xdg"])
        XCTAssertEqual(xdg.status, 0, xdg.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/xdg/triage/triage.conf"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/xdg/triage/rules/default.rules"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: config))

        let own = try triage(["init", "--me", "me@example.test", "--url", "maildir:Mail", "--config", "conf/my.conf"])
        XCTAssertEqual(own.status, 0, own.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/conf/rules/default.rules"))
        XCTAssertTrue(own.out.contains("1. triage run --all --config \(home)/conf/my.conf\n"), own.out)
        let check = try triage(["check", "--config", home + "/conf/my.conf"])
        XCTAssertEqual(check.status, 0, check.err)
    }

    /// No terminal and no --me/--url: a usage error naming what is missing; nothing written.
    func testWithoutATerminalTheMissingOptionsAreNamed() throws {
        let none = try triage(["init"])
        XCTAssertEqual(none.status, 64)
        XCTAssertTrue(none.err.contains("init: --me and --url missing, and no terminal to ask on"), none.err)
        let half = try triage(["init", "--me", "me@example.test"])
        XCTAssertEqual(half.status, 64)
        XCTAssertTrue(half.err.contains("init: --url missing"), half.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/.config/triage"))
    }

    /// Every bad value is refused with what is wrong, and nothing is written.
    func testInvalidValuesAreRefusedAndNothingIsWritten() throws {
        let cases: [([String], String)] = [
            (["--me", "me", "--url", "maildir:Mail"], "--me: \"me\" is not an address"),
            (["--me", "me@example.test", "--url", "pop3://mail.example.test"], "--url: \"pop3://mail.example.test\" is not a URL triage reads mail from"),
            (["--me", "me@example.test", "--url", "imaps://me@mail.example.test"], "--url: "),
            (["--me", "me@example.test", "--url", "maildir:Mail", "--hour", "24"], "--hour \"24\" is not an hour of the day; give 0 to 23"),
            (["--me", "me@example.test", "--url", "maildir:Mail", "--digest-to", "me@example"], "--digest-to: \"me@example\" is not an address"),
            (["--me", "me@example.test", "--url", "imaps://mail.example.test", "--password-command", "echo s3cret ; true"],
             "--password-command: the command holds ' ;'"),
            (["--me", "me@example.test", "--url", "imaps://mail.example.test", "--user", "me\n[account x]"],
             "--user: the user name holds a line break"),
            (["--me", "me@example.test", "--url", "maildir:Mail", "--smtp", "smtp.example.test"], "--smtp: "),
            (["--me", "me@example.test", "--url", "maildir:Mial"], "--url: \(home)/Mial is not a Maildir (it has no cur/ folder)"),
        ]
        for (args, message) in cases {
            let result = try triage(["init"] + args)
            XCTAssertEqual(result.status, 64, "\(args): \(result.err)")
            XCTAssertTrue(result.err.contains(message), "\(message) in: \(result.err)")
            XCTAssertFalse(result.err.contains("s3cret"), result.err)
            XCTAssertFalse(FileManager.default.fileExists(atPath: config), "\(args)")
        }
    }

    /// Values with quotes and comment characters are written quoted and read back as given.
    func testAValueWithQuotesAndCommentsReadsBackAsGiven() throws {
        let user = #"me"x ;y #z\"#
        let result = try triage(["init", "--me", "me@example.test", "--url", "imaps://mail.example.test", "--user", user])
        XCTAssertEqual(result.status, 0, result.err)
        // No password command: no --connect, and the line to fill in is said.
        XCTAssertTrue(result.out.contains("Checking: triage check\n"), result.out)
        XCTAssertTrue(result.out.contains("First set password_command in \(config)"), result.out)
        let text = try String(contentsOfFile: config, encoding: .utf8)
        XCTAssertTrue(text.contains(#"user = "me\"x ;y #z\\""#), text)
        let sections = try triage(["--complete", "sections"])
        XCTAssertEqual(sections.out, "triage\naccount mail\ndigest\n", sections.err)
    }

    /// The questions on a terminal (a pseudo-terminal here): the provider's server
    /// offered by the address, its app-password note, the password command examples;
    /// a refused answer asked again; Enter takes the default.
    func testTheQuestionsOnATerminal() throws {
        let steps: [[String]] = [
            ["Your email address: ", "me@gmail.com"],
            ["  1) imaps://imap.gmail.com (Gmail)\r\n", ""],
            ["Number or URL [1]: ", ""],
            ["User name [me@gmail.com]: ", ""],
            ["Password command (Enter: set it later): ", "echo s3cret ; true"],
            ["the command holds ' ;'", ""],
            ["Password command (Enter: set it later): ", ""],
            ["Send the daily digest to [me@gmail.com]: ", "digest@example.test"],
            ["From what hour of the day (0-23) [7]: ", "25"],
            ["\"25\" is not an hour; give 0 to 23", ""],
            ["From what hour of the day (0-23) [7]: ", "6"],
            ["Send it how (smtps://HOST, smtp://HOST, sendmail or file:DIR) [", ""],
        ]
        let result = try onTerminal(["init"], steps: steps)
        XCTAssertEqual(result.status, 0, result.out + result.err)
        for said in ["Note: Gmail wants an app password", "pass show mail/personal", "secret-tool lookup service triage user me@gmail.com",
                     "op read op://Personal/Mail/password", "bw get password mail", "First set password_command in \(config)"] {
            XCTAssertTrue(result.out.contains(said), "\(said) in:\n\(result.out)")
        }
        let text = try String(contentsOfFile: config, encoding: .utf8)
        for line in ["url = \"imaps://imap.gmail.com\"\n", "user = \"me@gmail.com\"\n", "\n; password_command = ",
                     "to = \"digest@example.test\"\n", "\nhour = 6 "] {
            XCTAssertTrue(text.contains(line), "\(line) in:\n\(text)")
        }
        XCTAssertFalse(text.contains("s3cret"), text)
    }

    /// The input ending before the last answer writes nothing (64).
    func testTheInputEndingEarlyWritesNothing() throws {
        let result = try onTerminal(["init"], steps: [["Your email address: ", "me@example.test"], ["Number or URL [1]: ", "\u{4}"]])
        XCTAssertEqual(result.status, 64, result.out)
        XCTAssertTrue(result.out.contains("the input ended before every question was answered; nothing was written"), result.out)
        XCTAssertFalse(FileManager.default.fileExists(atPath: config))
    }

    /// Runs `triage ARGS` on a pseudo-terminal (python3's pty), answering each
    /// `[prompt, answer]` once the prompt has appeared; the transcript is `out`.
    private func onTerminal(_ args: [String], steps: [[String]]) throws -> TriageProcess.Result {
        let script = #"""
        import json, os, pty, select, sys, time
        argv, steps = json.loads(sys.argv[1]), json.loads(sys.argv[2])
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(argv[0], argv)
        out, pos = b"", 0
        def more(deadline):
            global out
            r, _, _ = select.select([fd], [], [], max(0, deadline - time.time()))
            if not r:
                return False
            try:
                data = os.read(fd, 4096)
            except OSError:
                data = b""
            out += data
            return bool(data)
        for prompt, answer in steps:
            deadline = time.time() + 60
            while out.find(prompt.encode(), pos) < 0:
                if not more(deadline):
                    sys.stdout.write(out.decode(errors="replace"))
                    sys.stderr.write("no %r\n" % prompt)
                    sys.exit(99)
            pos = out.find(prompt.encode(), pos) + len(prompt.encode())
            if answer == "\x04":
                os.write(fd, b"\x04")
            elif answer or prompt.endswith(": ") or prompt.endswith("["):
                os.write(fd, answer.encode() + b"\n")
        deadline = time.time() + 120
        while more(deadline):
            pass
        _, status = os.waitpid(pid, 0)
        sys.stdout.write(out.decode(errors="replace"))
        sys.exit(os.waitstatus_to_exitcode(status))
        """#
        let argv = String(decoding: try JSONSerialization.data(withJSONObject: [TriageProcess.binary.path] + args), as: UTF8.self)
        let answers = String(decoding: try JSONSerialization.data(withJSONObject: steps), as: UTF8.self)
        return try TriageProcess.run(["-c", script, argv, answers], environment: environment, inheritEnvironment: false,
                                     directory: home, executable: URL(fileURLWithPath: "/usr/bin/python3"))
    }
}
