import Foundation
import XCTest

/// The server-facing scenarios every test server runs (DovecotMatrixTests,
/// CyrusMatrixTests, CourierMatrixTests): exact `--all` triage of a corpus, an
/// idempotent rerun that sends no write command, first run then cron run, a crash
/// sweep (kill at every step, rerun, compare), and TLS and STARTTLS with `ca_file`.
struct ServerMatrix {
    let server: any IMAPTestServer
    /// IMAP commands that change something on the server.
    static let writeCommands = ["STORE", "MOVE", "COPY", "EXPUNGE", "APPEND", "CREATE", "DELETE", "RENAME"]

    /// The commands among `commands` (`UID STORE 1 ...`) whose verb writes.
    private func writes(_ commands: [String]) -> [String] {
        commands.filter { command in
            let words = command.uppercased().split(separator: " ")
            let verb = words.first == "UID" ? words.dropFirst().first : words.first
            return verb.map { Self.writeCommands.contains(String($0)) } ?? false
        }
    }

    /// `run --all` does exactly what the rules say; a second `--all` changes nothing and
    /// sends no write command; a plain run after it sends no SEARCH either.
    func exactAllThenIdempotentRerun(file: StaticString = #filePath, line: UInt = #line) throws {
        let box = try MatrixSandbox("all", server: server)
        defer { box.remove() }
        try box.seed(14)
        let run = try box.triage(["run", "--all"])
        XCTAssertEqual(run.status, 0, "\(server.name): \(run.err)", file: file, line: line)
        let state = try box.snapshot()
        check(state, messages: 14, file: file, line: line)

        let (again, commands) = try box.traced(["run", "--all"])
        XCTAssertEqual(again.status, 0, "\(server.name): \(again.err)", file: file, line: line)
        XCTAssertEqual(writes(commands), [], "\(server.name): a rerun with nothing to do writes nothing", file: file, line: line)
        XCTAssertTrue(commands.contains { $0.hasPrefix("UID FETCH") }, "\(server.name): the trace shows the commands: \(commands)", file: file, line: line)
        XCTAssertEqual(try box.snapshot(), state, "\(server.name)", file: file, line: line)
    }

    /// The first run leaves old mail alone and remembers where INBOX ends; the cron
    /// run after new mail arrives processes just that; the next cron run sends neither
    /// SEARCH nor any write.
    func firstRunThenCronRun(file: StaticString = #filePath, line: UInt = #line) throws {
        let box = try MatrixSandbox("cron", server: server)
        defer { box.remove() }
        try box.seed(7, prefix: "old")
        let untouched = try box.snapshot()
        let first = try box.triage(["run", "--verbose"])
        XCTAssertEqual(first.status, 0, "\(server.name): \(first.err)", file: file, line: line)
        XCTAssertTrue(first.out.contains("first run: remembering UID 7;"), "\(server.name): where INBOX ends: \(first.out)", file: file, line: line)
        XCTAssertEqual(try box.snapshot(), untouched, "\(server.name): old mail is left alone", file: file, line: line)

        try box.seed(7, prefix: "new")
        let cron = try box.triage(["run"])
        XCTAssertEqual(cron.status, 0, "\(server.name): \(cron.err)", file: file, line: line)
        let state = try box.snapshot()
        XCTAssertEqual(state.filter { $0.contains(" old") }, untouched, "\(server.name): old mail still untouched", file: file, line: line)
        XCTAssertTrue(state.contains { $0.hasPrefix("Lists/dev new3@") }, "\(server.name): new mail processed: \(state)", file: file, line: line)
        XCTAssertTrue(state.contains { $0.hasPrefix("INBOX new0@") && ($0.contains("no_push") || $0.contains("no push")) }, "\(server.name): \(state)", file: file, line: line)

        let (quiet, commands) = try box.traced(["run"])
        XCTAssertEqual(quiet.status, 0, "\(server.name): \(quiet.err)", file: file, line: line)
        XCTAssertEqual(commands.filter { $0.contains("SEARCH") || $0.contains("FETCH") }, [],
                       "\(server.name): nothing new, so no SEARCH or FETCH", file: file, line: line)
        XCTAssertEqual(writes(commands), [], "\(server.name)", file: file, line: line)
        XCTAssertTrue(commands.contains { $0.hasPrefix("SELECT") || $0.hasPrefix("EXAMINE") }, "\(server.name): \(commands)", file: file, line: line)
        XCTAssertEqual(try box.snapshot(), state, "\(server.name)", file: file, line: line)
    }

    /// Killed at every step (`TRIAGE_TEST_KILL_AT`) and rerun: each rerun ends where an
    /// uninterrupted run ends. With MOVE or, where the server lacks it, COPY + STORE
    /// \Deleted + UID EXPUNGE.
    func crashSweep(messages: Int = 7, file: StaticString = #filePath, line: UInt = #line) throws {
        let box = try MatrixSandbox("sweep", server: server)
        defer { box.remove() }
        let first = try box.triage(["run"])
        XCTAssertEqual(first.status, 0, "\(server.name): \(first.err)", file: file, line: line)
        let corpus = MatrixSandbox.corpus(messages)
        try box.server.append(user: box.user, corpus)
        try box.saveStart(corpus)
        let run = ["run", "--batch-size", "4"]
        let uninterrupted = try box.triage(run)
        XCTAssertEqual(uninterrupted.status, 0, "\(server.name): \(uninterrupted.err)", file: file, line: line)
        let reference = try box.snapshot()
        check(reference, messages: messages, file: file, line: line)

        var steps: [String] = []
        var k = 1
        var failures = 0
        while failures < 3 {
            try box.restoreStart()
            let killed = try box.triage(run, environment: ["TRIAGE_TEST_KILL_AT": String(k)])
            if killed.status != -9 {
                XCTAssertEqual(killed.status, 0, "\(server.name): \(killed.err)", file: file, line: line)
                XCTAssertEqual(try box.snapshot(), reference, "\(server.name): armed but not fired", file: file, line: line)
                break
            }
            let step = CrashSweepTests.stepName(killed.err) ?? "?"
            steps.append(step)
            let rerun = try box.triage(run)
            XCTAssertEqual(rerun.status, 0, "\(server.name): killed at step \(k) (\(step)); rerun: \(rerun.err)", file: file, line: line)
            let state = try box.snapshot()
            if rerun.status != 0 || state != reference {
                failures += 1
                XCTFail("\(server.name): killed at step \(k) (\(step)): the rerun did not converge\n"
                        + CrashSweepTests.difference(reference, state), file: file, line: line)
            }
            k += 1
        }
        XCTAssertGreaterThan(steps.count, messages, "\(server.name): \(steps)", file: file, line: line)
        let moveStep = server.offersMove ? "UID MOVE" : "UID COPY"
        XCTAssertTrue(steps.contains(moveStep), "\(server.name): a kill at \(moveStep): \(steps)", file: file, line: line)
        if !server.offersMove {
            XCTAssertTrue(steps.contains("UID EXPUNGE"), "\(server.name): \(steps)", file: file, line: line)
        }
    }

    /// Implicit TLS and STARTTLS both verify the server against `ca_file`: with the test
    /// CA the run works, with the system's CAs (which never signed the test certificate)
    /// it stops before login with exit 75.
    func tlsAndStartTLSWithCAFile(file: StaticString = #filePath, line: UInt = #line) throws {
        let box = try MatrixSandbox("tls", server: server)
        defer { box.remove() }
        // The boss's message: flagged (and a reminder), nothing a keyword-less server refuses.
        try box.server.append(user: box.user, [MatrixSandbox.corpus(3)[2]])
        for scheme in ["imaps", "imap"] {
            try box.writeConfig(scheme: scheme, caFile: "/etc/ssl/certs/ca-certificates.crt")
            let refused = try box.triage(["run", "--all"])
            XCTAssertEqual(refused.status, 75, "\(server.name) \(scheme): \(refused.err)", file: file, line: line)
            XCTAssertTrue(refused.err.lowercased().contains("certificate"), "\(server.name) \(scheme): \(refused.err)", file: file, line: line)
            XCTAssertFalse(try box.snapshot().contains { $0.contains("\\Flagged") }, "\(server.name) \(scheme): nothing done", file: file, line: line)
        }
        for scheme in ["imap", "imaps"] {
            try box.writeConfig(scheme: scheme)
            let (run, commands) = try box.traced(["run", "--all"])
            XCTAssertEqual(run.status, 0, "\(server.name) \(scheme): \(run.err)", file: file, line: line)
            if scheme == "imap" {
                let login = commands.firstIndex { $0.hasPrefix("LOGIN") || $0.hasPrefix("AUTHENTICATE") }
                XCTAssertNotNil(login, "\(server.name): \(commands)", file: file, line: line)
                XCTAssertLessThan(commands.firstIndex(of: "STARTTLS") ?? Int.max, login ?? 0,
                                  "\(server.name): STARTTLS before the login: \(commands)", file: file, line: line)
            }
            // Logged in and read the mailbox over this scheme (the flag is set by the first).
            XCTAssertTrue(commands.contains { $0.hasPrefix("LOGIN") || $0.hasPrefix("AUTHENTICATE") } && commands.contains { $0.hasPrefix("UID FETCH") },
                          "\(server.name) \(scheme): \(commands)", file: file, line: line)
            XCTAssertTrue(try box.snapshot().contains { $0.hasPrefix("INBOX m2@") && $0.contains("flags(\\Flagged)") }, "\(server.name) \(scheme)", file: file, line: line)
        }
    }

    /// What the rules of RunSandbox do to the corpus `m0`... (kinds cycle mod 7).
    private func check(_ state: [String], messages: Int, file: StaticString, line: UInt) {
        let kinds = (0..<messages).map { $0 % 7 }
        func count(_ prefix: String) -> Int { state.filter { $0.hasPrefix(prefix) }.count }
        let name = server.name
        XCTAssertEqual(count("Lists/dev "), kinds.filter { $0 == 3 }.count, "\(name): lists moved: \(state)", file: file, line: line)
        XCTAssertEqual(count("Archive "), kinds.filter { $0 == 5 }.count, "\(name): newsletters archived", file: file, line: line)
        XCTAssertEqual(count("INBOX "), kinds.filter { $0 != 3 && $0 != 5 }.count, "\(name): the rest stays", file: file, line: line)
        XCTAssertEqual(count("store queue/open/"), kinds.filter { $0 == 1 }.count, "\(name): receipts queued", file: file, line: line)
        XCTAssertEqual(count("store reminders/open/"), kinds.filter { $0 == 2 }.count, "\(name): boss reminders", file: file, line: line)
        XCTAssertEqual(count("outbox "), 1, "\(name): one digest", file: file, line: line)
        for i in 0..<messages {
            let line_ = state.first { $0.contains(" m\(i)@") } ?? "(missing m\(i))"
            switch i % 7 {
            case 0: XCTAssertTrue(line_.hasPrefix("INBOX ") && (line_.contains("labels(no_push)") || line_.contains("labels(no push)")) && line_.contains("flags()"), "\(name): \(line_)", file: file, line: line)
            case 1: XCTAssertTrue(line_.contains("labels(money)") && line_.contains("flags(\\Seen)"), "\(name): \(line_)", file: file, line: line)
            case 2: XCTAssertTrue(line_.contains("flags(\\Flagged)") && line_.contains("labels()"), "\(name): \(line_)", file: file, line: line)
            case 3: XCTAssertTrue(line_.hasPrefix("Lists/dev ") && line_.contains("flags(\\Seen)") && line_.contains("labels()"), "\(name): \(line_)", file: file, line: line)
            case 4: XCTAssertTrue(line_.contains("flags()") && line_.contains("labels()"), "\(name): unlabel and mark unread: \(line_)", file: file, line: line)
            case 5: XCTAssertTrue(line_.hasPrefix("Archive ") && line_.contains("flags(\\Seen)") && line_.contains("labels(news)"), "\(name): \(line_)", file: file, line: line)
            default: XCTAssertTrue(line_.contains("flags(\\Seen)") && line_.contains("labels()"), "\(name): no rule, no change: \(line_)", file: file, line: line)
            }
        }
    }
}
