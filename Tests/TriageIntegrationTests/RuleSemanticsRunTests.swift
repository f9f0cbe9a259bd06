import Foundation
import XCTest

/// The rule semantics of issue 13 in a real `triage run` over a Maildir account:
/// `header:` reads fields the parser kept for it, a later rule sees the label an
/// earlier one planned and `in:` the mailbox, and `is:important` is refused where
/// the server is not Gmail.
final class RuleSemanticsRunTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "triage-rule-semantics-\(UUID().uuidString.prefix(8))"
        for leaf in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: "\(dir)/mail/\(leaf)", withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(atPath: dir + "/rules", withIntermediateDirectories: true)
        try ("From: a@x.test\r\nTo: me@example.test\r\nSubject: cheap\r\nX-Spam-Flag: YES\r\n"
            + "Message-ID: <spam@x.test>\r\n\r\nBody\r\n").write(toFile: "\(dir)/mail/new/1700000000.M1P1.host", atomically: false, encoding: .utf8)
        try ("From: b@x.test\r\nTo: me@example.test\r\nSubject: hello\r\nX-Spam-Flag: NO\r\n"
            + "Message-ID: <ham@x.test>\r\n\r\nBody\r\n").write(toFile: "\(dir)/mail/new/1700000001.M2P1.host", atomically: false, encoding: .utf8)
        try """
        [triage]
        rules = rules
        store = store
        timezone = UTC

        [account local]
        url = maildir:mail
        """.write(toFile: dir + "/triage.conf", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func rules(_ text: String) throws {
        try text.write(toFile: dir + "/rules/r.rules", atomically: true, encoding: .utf8)
    }

    /// Maildir flags of each message file, by the start of its name.
    private func flags() throws -> [String: String] {
        var result: [String: String] = [:]
        for sub in ["cur", "new"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: "\(dir)/mail/\(sub)") {
                let key = String(name.prefix(10))
                result[key] = name.components(separatedBy: ":2,").dropFirst().first ?? ""
            }
        }
        return result
    }

    func testHeaderTermsAndEarlierActionsInARun() throws {
        try rules("""
        rule "spam" when header:X-Spam-Flag:yes then label "junk"
        rule "junk read" when label:junk in:INBOX then mark read

        """)
        let run = try TriageProcess.run(["run", "--all", "--config", dir + "/triage.conf"])
        XCTAssertEqual(run.status, 0, run.err)
        let byFile = try flags()
        XCTAssertEqual(byFile["1700000000"].map { $0.contains("S") && $0.contains("a") }, true,
                       "the spam is labelled and, seen by the second rule, marked read: \(byFile)")
        XCTAssertEqual(byFile["1700000001"], "", "the other message is untouched: \(byFile)")
    }

    func testIsImportantIsRefusedOnAServerThatIsNotGmail() throws {
        try rules("rule \"vip\" when is:important then flag\n")
        let run = try TriageProcess.run(["run", "--all", "--config", dir + "/triage.conf"])
        XCTAssertEqual(run.status, 78, run.err)
        XCTAssertTrue(run.err.contains("rules/r.rules:1) uses is:important, which only Gmail's IMAP reports (X-GM-LABELS), "
                                       + "and maildir:\(dir)/mail is not Gmail; nothing was done for this account"), run.err)
        XCTAssertEqual(try flags().values.sorted(), ["", ""], "nothing was done")
    }
}
