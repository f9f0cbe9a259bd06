import Foundation
import XCTest

/// `triage run --all` against a scripted hostile IMAP server (Tests/Servers/fake-imap.py):
/// malformed answers, literals that lie about their size, a huge literal, an answer
/// nested 20,000 levels deep, an unexpected BYE, an endless untagged flood, a drip,
/// plaintext injected after STARTTLS. Each time: no crash, no hang, memory bounded, exit 75 with a message
/// naming the server.
final class HostileServerTests: XCTestCase {
    private var dovecot: DovecotServer!
    private var dir = ""
    private let timeout = 2

    override func setUpWithError() throws {
        dovecot = try DovecotServer.shared()  // its test CA signed the fake server's certificate
        dir = NSTemporaryDirectory() + "triage-hostile-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir + "/rules", withIntermediateDirectories: true)
        try "rule \"all\" when from:example.test then label \"seen it\"\n"
            .write(toFile: dir + "/rules/a.rules", atomically: true, encoding: .utf8)
        try "secret-pw".write(toFile: dir + "/pw", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private struct Outcome {
        var status: Int32
        var err: String
        var seconds: Double
        var megabytes: Int
        var commands: [String]
    }

    private func run(_ mode: FakeIMAPServer.Mode, scheme: String = "imaps") throws -> Outcome {
        let server = try FakeIMAPServer(mode, dovecot: dovecot)
        defer { server.stop() }
        let config = """
        [triage]
        me = me@example.test
        rules = rules
        store = store
        timezone = UTC

        [account hostile]
        url = \(scheme)://localhost:\(server.port)
        user = me@example.test
        password_command = cat \(dir)/pw
        ca_file = \(dovecot.caFile)
        timeout = \(timeout)
        """
        try config.write(toFile: dir + "/triage.conf", atomically: true, encoding: .utf8)
        let started = Date()
        let (result, kilobytes) = try TriageProcess.measured(["run", "--all", "--config", dir + "/triage.conf"])
        let outcome = Outcome(status: result.status, err: result.err, seconds: Date().timeIntervalSince(started),
                              megabytes: kilobytes / 1024, commands: server.commands)
        print("hostile \(mode.rawValue): exit \(outcome.status) in \(String(format: "%.1f", outcome.seconds)) s, "
              + "peak \(outcome.megabytes) MiB: \(outcome.err.split(separator: "\n").last ?? "")")
        XCTAssertEqual(outcome.status, 75, "\(mode): \(outcome.err)")
        XCTAssertTrue(outcome.err.contains("localhost:\(server.port)"), "\(mode): names the server: \(outcome.err)")
        XCTAssertFalse(outcome.err.contains("secret-pw"))
        XCTAssertLessThan(outcome.megabytes, 200, "\(mode): memory stays bounded")
        return outcome
    }

    func testMalformedAnswerIsAProtocolError() throws {
        let outcome = try run(.malformed)
        XCTAssertTrue(outcome.err.contains("could not read the server's answer to SELECT INBOX"), outcome.err)
        XCTAssertLessThan(outcome.seconds, 5, "a parse error ends the session at once, no LOGOUT wait")
    }

    func testUnexpectedBYE() throws {
        let outcome = try run(.bye)
        XCTAssertTrue(outcome.err.contains("SELECT INBOX"), outcome.err)
        XCTAssertLessThan(outcome.seconds, 5)
    }

    func testLiteralShorterThanAnnouncedTimesOut() throws {
        let outcome = try run(.shortLiteral)
        XCTAssertTrue(outcome.err.contains("no answer to UID FETCH within \(timeout) s"), outcome.err)
        XCTAssertLessThan(outcome.seconds, Double(timeout) + 2)
    }

    func testLiteralLongerThanAnnouncedIsAProtocolError() throws {
        let outcome = try run(.longLiteral)
        XCTAssertTrue(outcome.err.contains("UID FETCH"), outcome.err)
        XCTAssertLessThan(outcome.seconds, Double(timeout) + 2)
    }

    func testHugeLiteralIsCutOffAtTheAnswerLimit() throws {
        let outcome = try run(.hugeLiteral)
        XCTAssertTrue(outcome.err.contains("more than 16 MiB in answer to one command"), outcome.err)
        XCTAssertTrue(outcome.err.contains("UID FETCH"), outcome.err)
        XCTAssertLessThan(outcome.seconds, 20)
    }

    func testEndlessUntaggedFloodIsCutOff() throws {
        let outcome = try run(.flood)
        XCTAssertTrue(outcome.err.contains("in answer to one command"), outcome.err)
        XCTAssertLessThan(outcome.seconds, 30)
    }

    func testDripFeedHitsTheAnswerDeadline() throws {
        // A byte every 0.3 s never trips the 2 s read timeout; the answer deadline
        // (5 timeouts) ends it.
        let outcome = try run(.drip)
        XCTAssertTrue(outcome.err.contains("went on for more than \(timeout * 5) s"), outcome.err)
        XCTAssertLessThan(outcome.seconds, Double(timeout * 5) + 3)
    }

    func testDeeplyNestedAnswerIsCutOffBeforeTheParserOverflows() throws {
        // 20,000 levels overflow libetpan's recursive parser (SIGSEGV, exit 139 before
        // the limit existed); the guard stops at 256.
        let outcome = try run(.deepNest)
        XCTAssertTrue(outcome.err.contains("nested its answer more than 256 levels deep"), outcome.err)
        XCTAssertTrue(outcome.err.contains("SELECT INBOX"), outcome.err)
        XCTAssertLessThan(outcome.seconds, Double(timeout) + 3)
    }

    func testShippedSchedulesKeepCrashDumpsOutOfMail() throws {
        // A crash's Swift backtrace (registers, memory) must not reach cron mail or the journal.
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples").path
        let crontab = try String(contentsOfFile: examples + "/cron/crontab", encoding: .utf8)
        let jobs = crontab.split(separator: "\n").filter { !$0.hasPrefix("#") && $0.contains("triage run") }
        XCTAssertFalse(jobs.isEmpty)
        for job in jobs { XCTAssertTrue(job.contains("SWIFT_BACKTRACE=enable=no triage run"), String(job)) }
        let unit = try String(contentsOfFile: examples + "/systemd/triage.service", encoding: .utf8)
        XCTAssertTrue(unit.split(separator: "\n").contains("Environment=SWIFT_BACKTRACE=enable=no"), unit)
    }

    func testPlaintextInjectedAfterSTARTTLSIsRefusedBeforeLogin() throws {
        let outcome = try run(.inject, scheme: "imap")
        XCTAssertTrue(outcome.err.contains("CVE-2020-15953"), outcome.err)
        XCTAssertFalse(outcome.commands.contains { $0.contains("LOGIN") }, "\(outcome.commands)")
    }
}
