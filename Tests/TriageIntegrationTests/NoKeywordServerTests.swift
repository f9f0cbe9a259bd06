import Foundation
import TriageCore
import TriageIMAP
import XCTest

/// GNU Mailutils' imap4d (Tests/Servers/imap4d.py), a real server without custom
/// keywords, as Exchange and Office 365 are: its PERMANENTFLAGS lack `\*` and a
/// keyword STORE gets `BAD Unrecognized flag`. triage reads that at SELECT (so the
/// run skips labels there; see RefusedStoreTests for the run), and a keyword STORE
/// that is sent anyway is a refusal (exit 78, the run goes on), not a temporary
/// failure (75, which failed every run forever).
final class NoKeywordServerTests: XCTestCase {
    private var server: PythonTestServerProcess!

    override func setUpWithError() throws {
        server = try PythonTestServerProcess(script: "imap4d.py")
        let mbox = """
        From a@x.test Mon Jan  1 00:00:00 2024
        From: Ann <a@x.test>
        Subject: one
        Message-ID: <mu1@x.test>

        Hello

        From a@x.test Mon Jan  1 00:00:00 2024
        From: Ann <a@x.test>
        Subject: two
        Message-ID: <mu2@x.test>

        Hello again


        """
        try mbox.write(toFile: server.workDirectory.path + "/inbox", atomically: false, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        server?.stop()
    }

    private func connect() throws -> IMAPConnection {
        var settings = IMAPSettings(url: MailServerURL(scheme: .imap, host: "127.0.0.1", port: UInt16(server.int("port"))),
                                    credential: .password(user: "nobody", "unused"), caFile: nil, tlsOff: true)
        settings.connectTimeout = 5
        settings.commandTimeout = 10
        return try IMAPConnection.connect(settings)
    }

    func testPermanentFlagsWithoutNewKeywordsAreRead() throws {
        let connection = try connect()
        defer { connection.close() }
        let status = try connection.open("INBOX", readOnly: false)
        XCTAssertEqual(status.exists, 2)
        XCTAssertEqual(status.allowedKeywords, [], "PERMANENTFLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft): no keyword at all")
    }

    func testAKeywordStoreIsARefusalAndFlagsStillWork() throws {
        let connection = try connect()
        defer { connection.close() }
        _ = try connection.open("INBOX", readOnly: false)
        XCTAssertThrowsError(try connection.store(FlagChange(.add, labels: ["no push"]), uids: [1, 2])) { error in
            let failure = error as? MailError
            XCTAssertEqual(failure?.kind, .refused, "\(error)")
            XCTAssertEqual(failure?.exitStatus, .config)
            XCTAssertTrue(failure?.message.contains("Unrecognized flag") == true, "\(error)")
        }
        // The session goes on: the other actions of the batch are still sent.
        try connection.store(FlagChange(.add, flags: ["\\Seen"]), uids: [1, 2])
        let fetched = try connection.fetch([1, 2])
        XCTAssertEqual(fetched.map { $0.flags.contains("\\Seen") }, [true, true])
    }

    func testDovecotAllowsNewKeywords() throws {
        let dovecot = try DovecotServer.shared()
        let connection = try dovecot.connect(user: try dovecot.makeUser("permanentflags"))
        defer { connection.close() }
        XCTAssertNil(try connection.open("INBOX", readOnly: false).allowedKeywords, "PERMANENTFLAGS has \\*")
        XCTAssertNil(try connection.open("INBOX", readOnly: true).allowedKeywords, "EXAMINE's PERMANENTFLAGS () says nothing")
    }
}
