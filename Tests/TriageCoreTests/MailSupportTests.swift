import TriageCore
import XCTest

/// UID sets, trace redaction, error exit codes and secret-free descriptions.
final class MailSupportTests: XCTestCase {
    func testUIDRanges() {
        XCTAssertEqual(UIDRanges.ranges([5, 1, 2, 3, 7, 8, 3]), [1...3, 5...5, 7...8])
        XCTAssertEqual(UIDRanges.sequenceSet([10, 11, 12, 20]), "10:12,20")
        XCTAssertEqual(UIDRanges.sequenceSet([UInt32.max, UInt32.max - 1]), "4294967294:4294967295")
        XCTAssertEqual(UIDRanges.ranges([]), [])
    }

    func testTraceRedaction() {
        XCTAssertEqual(TraceRedactor.redact("a1 LOGIN me@example.test hunter2"), "a1 LOGIN me@example.test ***")
        XCTAssertEqual(TraceRedactor.redact("a1 login me \"pass word\""), "a1 LOGIN me ***")
        XCTAssertEqual(TraceRedactor.redact("a2 AUTHENTICATE XOAUTH2 dXNlcj1tZQFhdXRoPUJlYXJlciB0b2tlbgEB"),
                       "a2 AUTHENTICATE XOAUTH2 ***")
        XCTAssertEqual(TraceRedactor.redact("a3 UID FETCH 1:5 (FLAGS)"), "a3 UID FETCH 1:5 (FLAGS)")
        XCTAssertEqual(TraceRedactor.redact("* CAPABILITY IMAP4rev1 AUTH=LOGIN"), "* CAPABILITY IMAP4rev1 AUTH=LOGIN")
    }

    func testMailErrorExitStatusesAndMessages() {
        XCTAssertEqual(MailError(.connect, server: "s:993", "x").exitStatus, .tempFail)
        XCTAssertEqual(MailError(.tls, server: "s:993", "x").exitStatus, .tempFail)
        XCTAssertEqual(MailError(.timeout, server: "s:993", "x").exitStatus, .tempFail)
        XCTAssertEqual(MailError(.protocol, server: "s:993", "x").exitStatus, .tempFail)
        XCTAssertEqual(MailError(.authentication, server: "s:993", "x").exitStatus, .noPermission)
        XCTAssertEqual(MailError(.missingFolder, server: "s:993", "x").exitStatus, .config)
        XCTAssertEqual(MailError(.tls, server: "imap.example.test:993", "untrusted").message,
                       "imap.example.test:993: untrusted")
    }

    func testCredentialsNeverShowTheSecret() {
        let password = MailCredential.password(user: "me", "hunter2")
        let token = MailCredential(user: "me", method: .oauth2(token: "ya29.secret"))
        for credential in [password, token] {
            var dumped = ""
            dump(credential, to: &dumped)
            for text in [String(describing: credential), String(reflecting: credential), "\(credential)", dumped] {
                XCTAssertFalse(text.contains("hunter2") || text.contains("ya29"), text)
                XCTAssertTrue(text.contains("me"), text)
            }
        }
    }

    func testFetchedMessageHelpers() {
        let message = FetchedMessage(uid: 7, flags: ["\\Seen"], labels: ["no push"], size: 10, internalDate: 5,
                                     header: Array("A: b\r\n\r\n".utf8), bodyPrefix: Array("xy".utf8))
        XCTAssertEqual(message.bytes, Array("A: b\r\n\r\nxy".utf8))
        XCTAssertTrue(message.isComplete)
        let facts = message.serverFacts(account: "personal", mailbox: "INBOX")
        XCTAssertEqual(facts.uid, 7)
        XCTAssertTrue(facts.isSeen)
        XCTAssertEqual(facts.labels, ["no push"])
        XCTAssertEqual(facts.mailbox, "INBOX")
        XCTAssertEqual(facts.internalDate, 5)
    }
}
