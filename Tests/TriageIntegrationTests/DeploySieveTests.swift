import Foundation
import TriageCore
import TriageIMAP
import XCTest

/// `triage deploy sieve` against Dovecot's ManageSieve (STARTTLS, verified with the
/// test CA), then delivery through Dovecot's LMTP with Pigeonhole running the
/// script, then `triage run` over the folder the script filed into: the server
/// state and the store.
final class DeploySieveTests: XCTestCase {
    private var dovecot: DovecotServer!
    private var folder: TestFolder!
    private var user = ""
    private let rules = """
    rule "cc is for information only"
      when cc:me -to:me -list:*
      then label "no push", archive, digest "FYI"

    """

    override func setUpWithError() throws {
        dovecot = try DovecotServer.shared()
        user = try dovecot.makeUser("deploy-sieve")
        try dovecot.createFolders(user: user, ["Archive"])
        folder = try TestFolder("deploy-sieve", rules: rules)
        try folder.writeConfig(url: "imaps://localhost:\(dovecot.imapsPort)", user: user, caFile: dovecot.caFile,
                               mailboxes: "INBOX", accountLines: ["sieve_port": String(dovecot.sievePort)], digest: true)
    }

    override func tearDownWithError() throws {
        folder.remove()
    }

    private var home: String { dovecot.directory + "/home/" + user }

    /// Delivers `message` to the user through Dovecot's LMTP socket.
    private func deliver(_ message: String) throws {
        let script = """
        import smtplib, sys
        with smtplib.LMTP(sys.argv[1]) as lmtp:
            lmtp.sendmail("sender@x.test", [sys.argv[2]], sys.stdin.buffer.read())
        """
        let file = folder.dir + "/message.eml"
        try message.write(toFile: file, atomically: true, encoding: .utf8)
        try Spawn.run(["/bin/sh", "-c", "/usr/bin/python3 -c '\(script)' \(dovecot.directory)/run/lmtp \(user) < \(file)"])
    }

    func testDeployUploadsActivatesAndDeliveryFilesWhileTriageStillDoesTheDigest() throws {
        // No script yet: uploaded, not active, and triage says how to activate it.
        let first = try folder.triage(["deploy", "sieve"])
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertTrue(first.out.contains("script \"triage\" uploaded to localhost:\(dovecot.sievePort); no script is active"), first.out)
        let export = try folder.triage(["export", "sieve"])
        XCTAssertEqual(try String(contentsOfFile: home + "/sieve/triage.sieve", encoding: .utf8), export.out, "the exported script, as is")

        let activate = try folder.triage(["deploy", "sieve", "--activate"])
        XCTAssertEqual(activate.status, 0, activate.err)
        XCTAssertTrue(activate.out.contains("and active"), activate.out)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: home + "/.dovecot.sieve"), "sieve/triage.sieve")

        // The mailboxes' first run only remembers where they end.
        XCTAssertEqual(try folder.triage(["run"]).status, 0)
        try deliver("From: Ann <ann@x.test>\r\nTo: team@x.test\r\nCc: me@example.test\r\nSubject: FYI only\r\n"
                    + "Message-ID: <lmtp-cc1@x.test>\r\n\r\nFor your information.\r\n")
        try deliver("From: Bob <bob@x.test>\r\nTo: me@example.test\r\nSubject: For you\r\nMessage-ID: <lmtp-to1@x.test>\r\n\r\nHi\r\n")
        // Filed at delivery: never in the inbox, the label already set.
        XCTAssertEqual(dovecot.files(user: user).count, 1, "only the direct message in INBOX")
        XCTAssertEqual(dovecot.files(user: user, mailbox: "Archive").count, 1)
        XCTAssertTrue(dovecot.keywordFile(user: user, mailbox: "Archive").contains("no_push"))

        // triage run reads Archive too (not in mailboxes =: the script files there): the
        // digest entry is made, once.
        let run = try folder.triage(["run"])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(folder.storeLines().filter { $0.contains("\"FYI\"") && $0.contains("lmtp-cc1@x.test") }.count, 1)
        XCTAssertEqual(dovecot.files(user: user, mailbox: "Archive").count, 1, "nothing moved twice")
        let again = try folder.triage(["run", "--all"])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual(folder.storeLines().filter { $0.contains("\"FYI\"") }.count, 1, "the record stays single")
    }

    /// The first run of a folder the script files into starts where the folder ended at the
    /// deployment, not at its end then: mail Sieve filed there since the deployment gets its
    /// digest entry; mail that was there before is left alone, as on any first run.
    func testTheFirstRunOfASieveFolderStartsAtTheDeployment() throws {
        let old = "From: Old <old@x.test>\r\nTo: team@x.test\r\nCc: me@example.test\r\nSubject: Before\r\n"
            + "Message-ID: <before-deploy@x.test>\r\n\r\nFiled before.\r\n"
        try dovecot.seed(user: user, mailbox: "Archive", old)
        let deploy = try folder.triage(["deploy", "sieve", "--activate"])
        XCTAssertEqual(deploy.status, 0, deploy.err)
        try deliver("From: Ann <ann@x.test>\r\nTo: team@x.test\r\nCc: me@example.test\r\nSubject: FYI only\r\n"
                    + "Message-ID: <after-deploy@x.test>\r\n\r\nFor your information.\r\n")
        XCTAssertEqual(dovecot.files(user: user, mailbox: "Archive").count, 2, "filed at delivery beside the old one")

        let run = try folder.triage(["run"])
        XCTAssertEqual(run.status, 0, run.err)
        let fyi = folder.storeLines().filter { $0.contains("\"FYI\"") }
        XCTAssertEqual(fyi.filter { $0.contains("after-deploy@x.test") }.count, 1, "filed by Sieve after the deployment: \(fyi)")
        XCTAssertEqual(fyi.filter { $0.contains("before-deploy@x.test") }.count, 0, "there before the deployment: \(fyi)")
    }

    /// A folder the script files into that is made only after the deployment: its first
    /// run reads all of it (all of it arrived since), with no word of a renumbering.
    func testAFolderMadeAfterTheDeploymentIsReadFromItsStart() throws {
        try folder.writeRules("rule \"later\" when from:ann@x.test then move \"Later\", digest \"Later\"\n")
        let deploy = try folder.triage(["deploy", "sieve", "--activate"])
        XCTAssertEqual(deploy.status, 0, deploy.err)
        try dovecot.createFolders(user: user, ["Later"])
        try deliver("From: Ann <ann@x.test>\r\nTo: me@example.test\r\nSubject: Later\r\nMessage-ID: <made-later@x.test>\r\n\r\nHi\r\n")
        XCTAssertEqual(dovecot.files(user: user, mailbox: "Later").count, 1, "filed at delivery")

        let run = try folder.triage(["run"])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertFalse(run.err.contains("UIDVALIDITY"), run.err)
        XCTAssertEqual(folder.storeLines().filter { $0.contains("\"Later\"") && $0.contains("made-later@x.test") }.count, 1,
                       folder.storeLines().joined(separator: "\n"))
    }

    func testAnotherActiveScriptIsLeftAloneAndTriageSaysHowToIncludeIt() throws {
        let credential = MailCredential.password(user: user, DovecotServer.password)
        let own = try ManageSieveConnection.connect(host: "localhost", port: dovecot.sievePort, credential: credential,
                                                    caFile: dovecot.caFile, timeout: 10)
        let mine = "require \"fileinto\";\nif header :contains \"subject\" \"bills\" { fileinto \"Archive\"; }\n"
        try own.putScript("mine", content: mine)
        try own.setActive("mine")
        own.close()

        let deploy = try folder.triage(["deploy", "sieve"])
        XCTAssertEqual(deploy.status, 0, deploy.err)
        XCTAssertTrue(deploy.out.contains("the active script is \"mine\", left as it is"), deploy.out)
        XCTAssertTrue(deploy.err.contains("add to \"mine\": require \"include\"; include :personal \"triage\";"), deploy.err)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: home + "/.dovecot.sieve"), "sieve/mine.sieve")
        XCTAssertEqual(try String(contentsOfFile: home + "/sieve/mine.sieve", encoding: .utf8), mine, "untouched")
        XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/sieve/triage.sieve"))
    }

    func testTheCertificateIsVerifiedBeforeTheLogin() throws {
        // The system trust store does not know the test CA: refused before the password is sent.
        let credential = MailCredential.password(user: user, DovecotServer.password)
        XCTAssertThrowsError(try ManageSieveConnection.connect(host: "localhost", port: dovecot.sievePort, credential: credential,
                                                               caFile: nil, timeout: 10)) { error in
            XCTAssertEqual((error as? MailError)?.kind, .tls, "\(error)")
        }
        XCTAssertFalse(dovecot.log().contains("managesieve-login: Info: Login: user=<\(user)>"), "no login happened")
        // triage deploy with that trust: exit 75, nothing uploaded.
        try folder.writeConfig(url: "imaps://localhost:\(dovecot.imapsPort)", user: user, caFile: "/etc/ssl/certs/ca-certificates.crt",
                               accountLines: ["sieve_port": String(dovecot.sievePort)])
        let deploy = try folder.triage(["deploy", "sieve"])
        XCTAssertEqual(deploy.status, 75, deploy.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/sieve/triage.sieve"))
    }

    /// `archive` files where `run` would move: `archive =` of the account (or the folder
    /// the server marks `\Archive`, as in the first test); an account with neither is
    /// refused (78) and nothing is uploaded.
    func testTheScriptArchivesWhereRunWouldAndRefusesAnAccountWithoutArchive() throws {
        let other = try dovecot.makeUser("deploy-sieve-archive")
        try dovecot.createFolders(user: other, ["Archive"])
        try folder.writeConfig(url: "imaps://localhost:\(dovecot.imapsPort)", user: other, caFile: dovecot.caFile,
                               accountLines: ["sieve_port": String(dovecot.sievePort), "archive": "Done"])
        let missing = try folder.triage(["deploy", "sieve"])
        XCTAssertEqual(missing.status, 0, "archive = Done is taken as written: \(missing.err)")
        let script = try String(contentsOfFile: dovecot.directory + "/home/" + other + "/sieve/triage.sieve", encoding: .utf8)
        XCTAssertTrue(script.contains("set \"folder\" \"Done\";"), script)

        let third = try dovecot.makeUser("deploy-sieve-none")
        try folder.writeConfig(url: "imaps://localhost:\(dovecot.imapsPort)", user: third, caFile: dovecot.caFile,
                               accountLines: ["sieve_port": String(dovecot.sievePort)])
        let none = try folder.triage(["deploy", "sieve"])
        XCTAssertEqual(none.status, 78, none.err)
        XCTAssertTrue(none.err.contains("marks no folder \\Archive (SPECIAL-USE)"), none.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dovecot.directory + "/home/" + third + "/sieve/triage.sieve"))
    }
}
