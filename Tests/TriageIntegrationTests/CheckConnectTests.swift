import Foundation
import XCTest

/// `triage check --connect` and `triage run --dry-run` against Dovecot: the account's
/// folders are listed, every `move` target and `mailboxes =` folder that does not exist
/// is reported with a close match, and a dry run warns about a missing move target
/// instead of printing "would move" to it.
final class CheckConnectTests: XCTestCase {
    private var dovecot: DovecotServer!
    private var dir = ""

    override func setUpWithError() throws {
        dovecot = try DovecotServer.shared()
        dir = NSTemporaryDirectory() + "triage-check-connect-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir + "/rules", withIntermediateDirectories: true)
        try DovecotServer.password.write(toFile: dir + "/pw", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func configure(user: String, mailboxes: String, rules: String) throws {
        try rules.write(toFile: dir + "/rules/test.rules", atomically: true, encoding: .utf8)
        try """
        [triage]
        me = me@example.test
        rules = rules
        store = store
        timezone = UTC

        [account test]
        url = imaps://localhost:\(dovecot.imapsPort)
        user = \(user)
        password_command = cat \(dir)/pw
        ca_file = \(dovecot.caFile)
        mailboxes = \(mailboxes)

        """.write(toFile: dir + "/triage.conf", atomically: true, encoding: .utf8)
    }

    func testMissingFoldersAreNamedWithACloseMatch() throws {
        let user = try dovecot.makeUser("check-connect")
        try dovecot.createFolders(user: user, ["Receipts", "Lists/dev"])
        try configure(user: user, mailboxes: "INBOX, Lists/Dev", rules: """
        rule "receipts" when subject:receipt then move "Reciepts"
        rule "lists" when list:dev.lists.example then move "Lists/dev"
        rule "old" when older_than:5y then move "Archive/2020"

        """)
        let check = try TriageProcess.run(["check", "--connect", "--config", dir + "/triage.conf"])
        XCTAssertEqual(check.status, 78, check.err)
        let server = "localhost:\(dovecot.imapsPort)"
        XCTAssertTrue(check.out.contains("test: folders on \(server): "), check.out)
        XCTAssertTrue(check.out.contains("\"Receipts\"") && check.out.contains("\"Lists/dev\"") && check.out.contains("\"INBOX\""), check.out)
        let problems = check.err.split(separator: "\n").map(String.init)
        XCTAssertEqual(problems, [
            "triage: account test: folder \"Lists/Dev\" does not exist on \(server); did you mean \"Lists/dev\"?; create it or fix the rule",
            "triage: account test: folder \"Reciepts\" does not exist on \(server); did you mean \"Receipts\"?; create it or fix the rule",
            "triage: account test: folder \"Archive/2020\" does not exist on \(server); create it or fix the rule",
        ])

        // All there: nothing to report, exit 0.
        try configure(user: user, mailboxes: "INBOX, Lists/dev", rules: "rule \"receipts\" when subject:receipt then move \"Receipts\"\n")
        let fixed = try TriageProcess.run(["check", "--connect", "--config", dir + "/triage.conf"])
        XCTAssertEqual(fixed.status, 0, fixed.err)
        XCTAssertEqual(fixed.err, "")
    }

    func testADryRunWarnsAboutAMissingMoveTargetInsteadOfWouldMove() throws {
        let user = try dovecot.makeUser("dry-missing")
        try dovecot.createFolders(user: user, ["Receipts"])
        try dovecot.seed(user: user, "From: Shop <shop@x.test>\nTo: me@example.test\nSubject: Your receipt\nMessage-ID: <r1@x.test>\n\nThanks\n")
        try configure(user: user, mailboxes: "INBOX", rules: """
        rule "receipts" when subject:receipt then move "Reciepts", flag

        """)
        let dry = try TriageProcess.run(["run", "--dry-run", "--all", "--config", dir + "/triage.conf"])
        XCTAssertEqual(dry.status, 0, dry.err)
        XCTAssertTrue(dry.err.contains("triage: account test: folder \"Reciepts\" does not exist on localhost:\(dovecot.imapsPort); "
                                       + "did you mean \"Receipts\"?; a run would leave the messages where they are"), dry.err)
        XCTAssertFalse(dry.out.contains("move \"Reciepts\""), dry.out)
        XCTAssertTrue(dry.out.contains("would: no move: folder \"Reciepts\" does not exist [receipts], flag [receipts]"), dry.out)
        XCTAssertEqual(dovecot.files(user: user).count, 1, "nothing moved")
    }
}
