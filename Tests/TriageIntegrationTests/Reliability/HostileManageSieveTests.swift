import Foundation
import XCTest

/// `triage deploy sieve` against a scripted ManageSieve server
/// (Tests/Servers/fake-managesieve.py) whose plain-text greeting, before STARTTLS
/// (where anyone on the path can write), holds a malformed literal: a negative
/// length (`{-5}`, which crashed triage with exit 132), a signed one, a client-only
/// one, one past any integer, letters, nothing, one cut mid-line, a quoted string cut
/// by the line end, a 4 GiB literal and a line without end. Each time: exit 75
/// naming the server, quickly, memory bounded, no login. The well-behaved mode is
/// the control (literals in capabilities and LISTSCRIPTS read right).
final class HostileManageSieveTests: XCTestCase {
    private var dovecot: DovecotServer!
    private var folder: TestFolder!

    override func setUpWithError() throws {
        dovecot = try DovecotServer.shared()  // the IMAP side of deploy, and the test CA
        let user = try dovecot.makeUser("hostile-sieve")
        folder = try TestFolder("hostile-sieve", rules: "rule \"lists\" when list:* then label \"lists\"\n")
        try writeConfig(user: user, sievePort: 1)
    }

    override func tearDownWithError() throws {
        folder.remove()
    }

    private var user = ""

    private func writeConfig(user: String, sievePort: Int) throws {
        self.user = user
        try folder.writeConfig(url: "imaps://localhost:\(dovecot.imapsPort)", user: user, caFile: dovecot.caFile,
                               accountLines: ["sieve_port": String(sievePort), "timeout": "5"])
    }

    private func server(_ mode: String) throws -> PythonTestServerProcess {
        try PythonTestServerProcess(script: "fake-managesieve.py", arguments: [
            mode, dovecot.directory + "/ssl/server.pem", dovecot.directory + "/ssl/server.key",
        ])
    }

    private func commands(_ server: PythonTestServerProcess) -> String {
        (try? String(contentsOf: server.workDirectory.appendingPathComponent("commands"), encoding: .utf8)) ?? ""
    }

    func testAWellBehavedServerWithLiteralsIsDeployedTo() throws {
        let server = try server("good")
        defer { server.stop() }
        try writeConfig(user: user, sievePort: server.int("port"))
        let deploy = try folder.triage(["deploy", "sieve", "--activate"])
        XCTAssertEqual(deploy.status, 0, deploy.err)
        // LISTSCRIPTS named the script as a literal followed by ACTIVE.
        XCTAssertTrue(deploy.out.contains("script \"triage\" uploaded to localhost:\(server.int("port")) and active"), deploy.out)
        let log = commands(server)
        XCTAssertTrue(log.contains("STARTTLS\nAUTHENTICATE ***\nPUTSCRIPT \"triage\" {"), log)
        XCTAssertTrue(log.contains("SETACTIVE \"triage\"\nLISTSCRIPTS\nLOGOUT"), log)
    }

    /// The mode, and what the message says besides naming the server.
    private let hostile: KeyValuePairs<String, String> = [
        "negative": "a literal length {-5} that is not a number", "plus": "{+5} that is not a number",
        "client": "{5+} that is not a number", "overflow": "a literal of more than 9999999999 bytes",
        "letters": "{5a} that is not a number", "empty": "{} that is not a number", "midline": "not at the end of its line",
        "unquoted": "quoted string that does not end on its line",
        "huge": "a literal of 4294967295 bytes (at most 1048576", "endless": "an answer longer than 1048576 bytes",
    ]

    func testMalformedLiteralsInTheGreetingAreAProtocolErrorNamingTheServer() throws {
        for (mode, says) in hostile {
            let server = try server(mode)
            defer { server.stop() }
            let port = server.int("port")
            try writeConfig(user: user, sievePort: port)
            let started = Date()
            let (deploy, kilobytes) = try TriageProcess.measured(["deploy", "sieve", "--config", folder.config])
            let seconds = Date().timeIntervalSince(started)
            print("hostile sieve \(mode): exit \(deploy.status) in \(String(format: "%.1f", seconds)) s, peak \(kilobytes / 1024) MiB: "
                  + "\(deploy.err.split(separator: "\n").last ?? "")")
            XCTAssertEqual(deploy.status, 75, "\(mode): \(deploy.err)")
            XCTAssertTrue(deploy.err.contains("localhost:\(port)"), "\(mode): names the server: \(deploy.err)")
            XCTAssertTrue(deploy.err.contains(says), "\(mode): says what: \(deploy.err)")
            XCTAssertFalse(deploy.err.contains("Fatal error"), "\(mode): \(deploy.err)")
            // Not the 5 s timeout, nor a LOGOUT waited for: the answer is given up at once.
            XCTAssertLessThan(seconds, 4, "\(mode)")
            XCTAssertLessThan(kilobytes / 1024, 150, "\(mode): memory bounded")
            XCTAssertEqual(commands(server), "", "\(mode): nothing sent after the greeting (no STARTTLS, no LOGOUT)")
        }
    }
}
