import Foundation
import XCTest

/// `[digest] user`, `password_command`, `password`, `ca_file` and `tls` are for an SMTP
/// server: with `smtp = sendmail` or `file:` they are ignored, and `triage check` warns
/// (issue 27, item 8), exit 0.
final class DigestIgnoredKeysTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "triage-ignored-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func check(_ digest: [String]) throws -> TriageProcess.Result {
        try DigestTestConfig.write(in: dir, me: "me@example.test", digest: digest)
        return try TriageProcess.run(["check", "--config", dir + "/triage.conf"])
    }

    func testSMTPKeysWithSendmailAreAWarning() throws {
        let result = try check(["smtp = sendmail", "user = me@example.test", "password_command = pass show smtp"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.err.contains("warning: [digest] user, password_command are ignored with smtp = sendmail "
                                          + "(/usr/sbin/sendmail sends the digest with its own settings); remove them"), result.err)
    }

    func testACAFileWithAFolderIsAWarning() throws {
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/ca.pem"))
        let result = try check(["smtp = file:outbox", "ca_file = ca.pem"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.err.contains("warning: [digest] ca_file is ignored with smtp = file: (the digest is written to a folder); remove it"),
                      result.err)
    }

    func testNoWarningWhenTheKeysAreUsed() throws {
        let used = try check(["smtp = smtps://smtp.example.test", "user = me@example.test", "password_command = pass show smtp"])
        XCTAssertEqual(used.status, 0, used.err)
        XCTAssertFalse(used.err.contains("ignored"), used.err)
        let bare = try check(["smtp = sendmail", "command_timeout = 60"])
        XCTAssertEqual(bare.status, 0, bare.err)
        XCTAssertEqual(bare.err, "", "command_timeout bounds sendmail: used")
    }
}
