import Foundation
import XCTest

/// `triage check` and `triage test`, run as the built binary.
final class RuleCommandTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rule-commands-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Rules"), withIntermediateDirectories: true)
        try write("triage.conf", "[triage]\nme = me@example.test\nrules = Rules\ntimezone = America/Chicago\n")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// Runs `triage ARGS` in the test folder, with only HOME, XDG_CONFIG_HOME
    /// (both the test folder) and PATH in its environment.
    func run(_ args: [String], stdin: String = "") throws -> TriageProcess.Result {
        try TriageProcess.run(args, environment: ["HOME": folder.path, "XDG_CONFIG_HOME": folder.path, "PATH": "/usr/bin:/bin"],
                              inheritEnvironment: false, directory: folder.path, input: Data(stdin.utf8))
    }

    func testCheckIsSilentWhenAllIsWell() throws {
        try write("Rules/a.rules", "rule \"cc\" when cc:me -to:me then label \"no push\", digest \"FYI\"\n")
        let result = try run(["check", "--config", "triage.conf"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.out, "")
        XCTAssertEqual(result.err, "")
    }

    /// A reminder due on a fixed day already past is a warning (exit 0); a named place
    /// must be a `[place NAME]` section (else 78).
    func testCheckWarnsAboutAPastDueDayAndKnowsNamedPlaces() throws {
        try write("triage.conf", "[triage]\nme = me@example.test\nrules = Rules\ntimezone = America/Chicago\n\n"
                  + "[place Office]\nat = 38.97,-95.23\nradius = 200 m\n")
        try write("Rules/a.rules", "rule \"old\" when a then remind \"x\" on 2020-01-01 near \"Office\"\n")
        let result = try run(["check", "--config", "triage.conf"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.err.contains("Rules/a.rules:1:38: warning: the reminder is due on 2020-01-01, which is past"), result.err)
        try write("Rules/a.rules", "rule \"new\" when a then remind \"x\" tomorrow near \"Home\"\n")
        let unknown = try run(["check", "--config", "triage.conf"])
        XCTAssertEqual(unknown.status, 78)
        XCTAssertTrue(unknown.err.contains("unknown place \"Home\""), unknown.err)
    }

    /// Plain `check` (no network) catches a URL with a path and a ca_file that cannot be
    /// read (missing, or a directory), each with its line.
    func testCheckCatchesAURLWithAPathAndAnUnreadableCAFile() throws {
        try write("Rules/a.rules", "rule \"x\" when a then flag\n")
        let base = "[triage]\nme = me@example.test\nrules = Rules\n"
        try write("triage.conf", base + "[account a]\nurl = imaps://mail.example.test/INBOX\nuser = u\npassword_command = true\n")
        let url = try run(["check", "--config", "triage.conf"])
        XCTAssertEqual(url.status, 78)
        XCTAssertTrue(url.err.contains("triage.conf:5: error: url imaps://mail.example.test/INBOX: a user name, path or query does not belong in the URL"),
                      url.err)
        try write("triage.conf", base + "[account a]\nurl = imaps://mail.example.test\nuser = u\npassword_command = true\nca_file = missing.pem\n"
                  + "[account b]\nurl = imaps://mail.example.test\nuser = u\npassword_command = true\nca_file = Rules\n"
                  + "[digest]\nto = me@example.test\nfrom = b@x.test\nsmtp = smtps://smtp.example.test\nca_file = /nonexistent/ca.pem\n")
        let ca = try run(["check", "--config", "triage.conf"])
        XCTAssertEqual(ca.status, 78)
        XCTAssertEqual(ca.err, """
            triage.conf:4: error: [account a] ca_file \(folder.path)/missing.pem does not exist; fix the path or its permissions
            triage.conf:9: error: [account b] ca_file \(folder.path)/Rules is not a file; fix the path or its permissions
            triage.conf: error: [digest] ca_file /nonexistent/ca.pem does not exist; fix the path or its permissions

            """)
    }

    func testCheckPrintsEveryDiagnosticAndExits78() throws {
        try write("Rules/a.rules", "rule \"typo\"\n  when form:boss@example.test\n  then flag\n")
        try write("Rules/b.rules", "rule \"x\" when a then lable \"y\"\n")
        let result = try run(["check", "--config", "triage.conf"])
        XCTAssertEqual(result.status, 78)
        XCTAssertEqual(result.out, "")
        XCTAssertEqual(result.err, """
        Rules/a.rules:2:8: error: unknown operator 'form:'; did you mean 'from:'?
            2 |   when form:boss@example.test
              |        ^~~~~
        Rules/b.rules:1:22: error: unknown action 'lable'; did you mean 'label'?
            1 | rule "x" when a then lable "y"
              |                      ^~~~~

        """)
    }

    func testCheckWarnsAboutOrBesideTermsAndLowerCaseOrButExits0() throws {
        try write("Rules/a.rules", """
        rule "dinner"
          when from:amy OR from:david subject:dinner
          then flag
        rule "either" when from:a or from:b then flag

        """)
        let result = try run(["check", "--config", "triage.conf"])
        XCTAssertEqual(result.status, 0, "warnings alone do not fail check")
        XCTAssertEqual(result.out, "")
        XCTAssertEqual(result.err, """
        Rules/a.rules:2:8: warning: 'OR' binds tighter than terms side by side, as in Gmail: this reads as (from:amy OR from:david) subject:dinner (earlier versions of triage read it the other way); write the parentheses to say which you mean
            2 |   when from:amy OR from:david subject:dinner
              |        ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
        Rules/a.rules:4:27: warning: 'or' between terms is a word to search for, so the message must contain it; did you mean 'OR' (either term)? Write "or" in quotes to search for the word
            4 | rule "either" when from:a or from:b then flag
              |                           ^~

        """)
        // With an error as well, check fails as before and shows both.
        try write("Rules/b.rules", "rule \"x\" when form:a then flag\n")
        let failing = try run(["check", "--config", "triage.conf"])
        XCTAssertEqual(failing.status, 78)
        XCTAssertTrue(failing.err.contains("warning: 'OR' binds tighter") && failing.err.contains("error: unknown operator 'form:'"), failing.err)
    }

    func testTestCommandShowsEarlierActionsHeadersAndTheMailbox() throws {
        try write("Rules/a.rules", """
        rule "tag" when header:X-Spam-Flag:yes then label "junk", move "Junk"
        rule "junk seen" when label:junk in:Junk then mark read
        rule "from the inbox" when in:INBOX then flag

        """)
        try write("m.eml", "From: a@x.test\r\nX-Spam-Flag: YES\r\nSubject: s\r\n\r\nhi\r\n")
        let result = try run(["test", "--config", "triage.conf", "--mailbox", "INBOX", "--json", "m.eml"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "")
        XCTAssertTrue(result.out.hasSuffix(#""matched":[{"rule":"tag","actions":[{"type":"label","name":"junk"},{"type":"move","folder":"Junk"}]},"#
                                           + #"{"rule":"junk seen","actions":[{"type":"mark","state":"read"}]}]}"# + "\n"), result.out)
    }

    func testCcMeSeesTheSecondCcField() throws {
        // The fixture's first Cc names Ann; me@example.test is in the second Cc field.
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TriageMIMETests/Fixtures/messages/repeated-address-fields.eml")
        try write("Rules/a.rules", "rule \"cc\" when cc:me -to:me then label \"no push\"\nrule \"to bob\" when to:bob then flag\n")
        let result = try run(["test", "--config", "triage.conf", fixture.path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("  rule \"cc\" (Rules/a.rules:1) matched on cc:me, -to:me\n    label \"no push\"\n"), result.out)
        XCTAssertTrue(result.out.contains("  rule \"to bob\" (Rules/a.rules:2) matched on to:bob\n"), result.out)
    }

    func testTestCommandWarnsAboutAFromNameThatShowsAnotherDomain() throws {
        try write("Rules/a.rules", """
        rule "receipts" when from:bank.example then queue rec
        rule "warn" when is:impersonating then digest "Suspicious"

        """)
        try write("m.eml", "From: \"statements@bank.example\" <secure-9@evil.example>\r\nSubject: Statement\r\n\r\nhi\r\n")
        let result = try run(["test", "--config", "triage.conf", "m.eml"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out, """
            m.eml
              warning: the sender's name "statements@bank.example" shows bank.example, but the address is secure-9@evil.example (is:impersonating)
              rule "warn" (Rules/a.rules:2) matched on is:impersonating
                digest "Suspicious"

            """)
    }

    func testCheckReportsConfigurationProblemsAndAnEmptyFolder() throws {
        try write("bad.conf", "[triage]\ncolour = blue\n")
        let bad = try run(["check", "--config", "bad.conf"])
        XCTAssertEqual(bad.status, 78)
        XCTAssertTrue(bad.err.hasPrefix("bad.conf:2: error: unknown key 'colour' in [triage]"), bad.err)

        let empty = try run(["check", "--config", "triage.conf"])
        XCTAssertEqual(empty.status, 78)
        XCTAssertEqual(empty.err, "Rules: error: no rule files in this folder; add a file whose name ends in .rules (Rules/default.rules is a start)\n")
    }

    func testCheckReportsMalformedServerURLsWithTheirLines() throws {
        // Parsed when the configuration is read, so `check` sees them, not only the run that connects.
        try write("Rules/a.rules", "rule \"x\" when larger:1 then flag\n")
        try write("urls.conf", """
        [triage]
        rules = Rules
        [account a]
        url = imaps://
        [digest]
        to = me@example.test
        from = t@example.test
        smtp = smtp://relay.example.test:99999
        """)
        let result = try run(["check", "--config", "urls.conf"])
        XCTAssertEqual(result.status, 78)
        XCTAssertEqual(result.err, """
            urls.conf:4: error: url imaps://: no host; write imaps://HOST[:PORT] or imap://HOST[:PORT]
            urls.conf:8: error: smtp = smtp://relay.example.test:99999: '99999' is not a port number

            """)
    }

    func testTestCommandPrintsOneJSONLinePerMessage() throws {
        // Only the size is asserted on, so this holds whatever the MIME parser reads.
        try write("Rules/size.rules", """
        rule "big" when larger:100 then label "big", stop
        rule "small" when smaller:100 then queue rec in 2 days
        """)
        try write("big.eml", "Subject: big\r\n\r\n" + String(repeating: "x", count: 300) + "\r\n")
        let result = try run(["test", "--config", "triage.conf", "--now", "2026-03-02T23:30:00-06:00", "--json", "big.eml", "-"],
                             stdin: "Subject: s\r\n\r\nhi\r\n")
        XCTAssertEqual(result.err, "")
        XCTAssertEqual(result.status, 0)
        let lines = result.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].hasPrefix(#"{"file":"big.eml","message_id":"#), lines[0])
        XCTAssertTrue(lines[0].hasSuffix(#","matched":[{"rule":"big","actions":[{"type":"label","name":"big"},{"type":"stop"}]}]}"#), lines[0])
        XCTAssertTrue(lines[1].hasSuffix(#","matched":[{"rule":"small","actions":[{"type":"queue","queue":"rec","due":"2026-03-04"}]}]}"#), lines[1])

        let human = try run(["test", "--config", "triage.conf", "big.eml"])
        XCTAssertTrue(human.out.contains("  rule \"big\" (Rules/size.rules:1) matched on larger:100\n    label \"big\"\n    stop\n"), human.out)
    }

    func testTestCommandUsageAndMissingFiles() throws {
        try write("Rules/a.rules", "rule a when larger:1 then flag\n")
        let badNow = try run(["test", "--config", "triage.conf", "--now", "yesterday", "x.eml"])
        XCTAssertEqual(badNow.status, 64)
        XCTAssertTrue(badNow.err.contains("RFC 3339"), badNow.err)

        try write("m.eml", "Subject: m\r\n\r\nbody\r\n")
        let missing = try run(["test", "--config", "triage.conf", "--json", "nope.eml", "m.eml"])
        XCTAssertEqual(missing.status, 66)
        XCTAssertEqual(missing.err, "triage: cannot read nope.eml: no such file; check the path\n")
        XCTAssertTrue(missing.out.hasPrefix(#"{"file":"m.eml""#), missing.out)

        try write("Rules/b.rules", "rule b when form:x then flag\n")
        let broken = try run(["test", "--config", "triage.conf", "m.eml"])
        XCTAssertEqual(broken.status, 78)
        XCTAssertTrue(broken.err.hasPrefix("Rules/b.rules:1:13: error: unknown operator 'form:'"), broken.err)
        XCTAssertEqual(broken.out, "")
    }
}
