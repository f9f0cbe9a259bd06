import Foundation
import TriageCore
import TriageTestSupport
import XCTest

/// `[digest] smtp = sendmail:PATH`, through the built binary, with a fake
/// `sendmail` script that records its arguments and standard input.
final class SendmailDeliveryTests: XCTestCase {
    static let day = CivilDate(year: 2030, month: 1, day: 15)
    var dir = ""
    var store: Store!

    override func setUpWithError() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: TriageProcess.binary.path), "build first: swift build")
        dir = FileManager.default.temporaryDirectory.path + "/triage-sendmail-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        store = Store(path: dir + "/store", timeZone: TimeZone(identifier: "America/Chicago")!)
        store.synchronous = false
        let created = Timestamp(secondsSince1970: 1_577_858_400, utcOffsetSeconds: -21_600)
        try store.put(Reminder(id: String(repeating: "9b1c", count: 8), title: "Call the plumber",
                               due: CivilDate(year: 2020, month: 1, day: 14), created: created))
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// A fake sendmail: records argv (one per line) and stdin; `body` runs after that.
    private func fakeSendmail(_ body: String = "exit 0") throws -> String {
        let path = dir + "/fake-sendmail"
        let script = "#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(dir)/argv'\ncat > '\(dir)/stdin'\n\(body)\n"
        try Data(script.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
        return path
    }

    private func send(_ smtp: String, extra: [String] = []) throws -> TriageProcess.Result {
        try DigestTestConfig.write(in: dir, digest: ["smtp = \(smtp)"] + extra)
        return try TriageProcess.run(["digest", "--send", "--date", Self.day.iso, "--config", dir + "/triage.conf"],
                                     environment: ["XDG_DATA_HOME": dir + "/xdg"])
    }

    func testPipesTheDigestToSendmailDashTDashOi() throws {
        let result = try send("sendmail:" + (try fakeSendmail()))
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(try String(contentsOfFile: dir + "/argv", encoding: .utf8), "-t\n-oi\n")
        let raw = try Data(contentsOf: URL(fileURLWithPath: dir + "/stdin"))
        XCTAssertFalse(raw.contains(13), "local sendmail gets LF line ends")
        let mail = try SMTPTestMailParser.parse(URL(fileURLWithPath: dir + "/stdin"))
        XCTAssertEqual(mail.to, [.init(name: "Me", address: "me@example.test")])
        XCTAssertEqual(mail.from, [.init(name: "triage", address: "triage@example.test")])
        XCTAssertTrue(mail.headers.contains("Message-ID"), "\(mail.headers)")
        XCTAssertTrue(mail.subject?.contains("1") ?? false, mail.subject ?? "")
        XCTAssertEqual(mail.content_type, "multipart/alternative")
        XCTAssertTrue(mail.text?.contains("Call the plumber") ?? false, mail.text ?? "")
        XCTAssertTrue(mail.html?.contains("Call the plumber") ?? false, mail.html ?? "")
        XCTAssertEqual(mail.defects, [])
        XCTAssertTrue(store.digestLedger.isSent(Self.day))
    }

    func testAFailingSendmailExits75WithItsErrorSanitizedAndMarksNothing() throws {
        let fake = try fakeSendmail("printf 'sendmail: fatal: \\033[31mqueue file write error\\n' >&2\nexit 75")
        let result = try send("sendmail:" + fake)
        XCTAssertEqual(result.status, 75, result.err)
        XCTAssertTrue(result.err.contains("\(fake) -t -oi failed with exit status 75: sendmail: fatal:"), result.err)
        XCTAssertTrue(result.err.contains("queue file write error"), result.err)
        XCTAssertFalse(result.err.contains("\u{1b}"), "control characters from the program must not reach the terminal")
        XCTAssertFalse(store.digestLedger.isSent(Self.day))
    }

    func testASendmailThatReadsNothingIsAFailureNotACrash() throws {
        // No recording script: it closes its input at once and fails. The write may meet a
        // closed pipe (EPIPE): that must be exit 75, never triage killed by SIGPIPE.
        let path = dir + "/deaf-sendmail"
        try Data("#!/bin/sh\nexec 0<&-\necho 'no' >&2\nexit 1\n".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
        let result = try send("sendmail:" + path)
        XCTAssertEqual(result.status, 75, result.err)
        XCTAssertTrue(result.err.contains("failed with exit status 1: no"), result.err)
    }

    func testAMissingSendmailIsAConfigurationError() throws {
        let result = try send("sendmail:" + dir + "/no-such-sendmail")
        XCTAssertEqual(result.status, 78, result.err)
        XCTAssertTrue(result.err.contains("no-such-sendmail does not exist"), result.err)
        XCTAssertFalse(store.digestLedger.isSent(Self.day))
    }

    func testAHangingSendmailIsStoppedWithinCommandTimeout() throws {
        let fake = try fakeSendmail("sleep 30")
        let started = Date()
        let result = try send("sendmail:" + fake, extra: ["command_timeout = 1"])
        XCTAssertEqual(result.status, 75, result.err)
        XCTAssertLessThan(Date().timeIntervalSince(started), 15)
        XCTAssertTrue(result.err.contains("did not finish within 1 s"), result.err)
        XCTAssertFalse(store.digestLedger.isSent(Self.day))
    }
}
