import TriageCore
import XCTest

/// What `triage init` takes (`SetupAnswers`) and the servers it offers (`MailProvider`).
final class SetupAnswersTests: XCTestCase {
    func testAddresses() {
        for good in ["me@example.com", "first.last+tag@mail.example.co.uk", "root@localhost", "jörg@bücher.example"] {
            XCTAssertNil(SetupAnswers.addressProblem(good), good)
        }
        for bad in ["", "me", "me@", "@example.com", "me@example", "me@@example.com", "me@exa mple.com", " me@example.com",
                    "Me <me@example.com>", "a,b@example.com", "me@example..com", "me@-example.com", "me\n@example.com",
                    "\"me\"@example.com", "me@example.com;x"] {
            XCTAssertNotNil(SetupAnswers.addressProblem(bad), bad)
        }
        XCTAssertEqual(SetupAnswers.addressProblem("me"), "\"me\" is not an address; write it as name@example.com")
    }

    func testURLs() {
        for good in ["imaps://imap.example.com", "imaps://imap.example.com:993", "imap://mail.example.com", "imaps://[::1]:10993",
                     "maildir:/home/me/Maildir", "maildir:~/Maildir"] {
            XCTAssertNil(SetupAnswers.urlProblem(good), good)
        }
        for bad in ["", "http://example.com", "imap.example.com", "imaps://", "imaps://me@host", "imaps://host:x",
                    "maildir:", "maildir:Mail", "imaps://host\n[x]"] {
            XCTAssertNotNil(SetupAnswers.urlProblem(bad), bad)
        }
        XCTAssertTrue(SetupAnswers.urlProblem("pop3://example.com")!.contains("write imaps://HOST"))
    }

    func testHours() {
        XCTAssertEqual(SetupAnswers.hour("0"), 0)
        XCTAssertEqual(SetupAnswers.hour(" 23 "), 23)
        XCTAssertEqual(SetupAnswers.hour("07"), 7)
        for bad in ["", "24", "-1", "7am", "007", "seven"] { XCTAssertNil(SetupAnswers.hour(bad), bad) }
        var answers = SetupAnswers(me: "me@example.com", url: "maildir:/m", user: nil, passwordCommand: nil,
                                   digestTo: "me@example.com", hour: 24, smtp: "sendmail")
        XCTAssertEqual(answers.problems, ["--hour: 24 is not an hour of the day; give 0 to 23"])
        answers.hour = 23
        XCTAssertEqual(answers.problems, [])
    }

    /// A password command that triage.conf would cut (a comment) or that spans lines is
    /// refused, and the message never repeats the command (it may hold a secret).
    func testPasswordCommands() {
        for good in ["pass show mail", "secret-tool lookup service triage user me@example.com",
                     #"op read "op://Personal/Mail/password""#, "bw get password mail", "a;b", "get # a shell comment"] {
            XCTAssertNil(SetupAnswers.commandProblem(good), good)
        }
        for bad in ["", "  ", "pass show\nx", "; pass", "# pass", "echo s3cret ; true", "echo s3cret\t;x"] {
            let problem = SetupAnswers.commandProblem(bad)
            XCTAssertNotNil(problem, bad)
            XCTAssertFalse(problem?.contains("s3cret") ?? false)
        }
    }

    func testDigestDelivery() {
        for good in ["sendmail", "sendmail:/usr/lib/sendmail", "file:/var/mail/triage", "smtps://smtp.example.com",
                     "smtp://smtp.example.com:587"] {
            XCTAssertNil(SetupAnswers.smtpProblem(good), good)
        }
        for bad in ["", "smtp.example.com", "sendmail:relative", "smtps://user@host", "file:"] {
            XCTAssertNotNil(SetupAnswers.smtpProblem(bad), bad)
        }
    }

    func testEveryProblemNamesItsOption() {
        let answers = SetupAnswers(me: "me", url: "http://x", user: "a\nb", passwordCommand: "x\ny", digestTo: "y", hour: 30, smtp: "z")
        let options = answers.problems.map { String($0.prefix { $0 != ":" }) }
        XCTAssertEqual(options, ["--me", "--url", "--user", "--password-command", "--digest-to", "--hour", "--smtp"])
    }

    func testKnownProvidersByDomain() {
        XCTAssertEqual(MailProvider.imapChoices(for: "me@gmail.com"), ["imaps://imap.gmail.com"])
        XCTAssertEqual(MailProvider.imapChoices(for: "Me@GoogleMail.com"), ["imaps://imap.gmail.com", "imaps://imap.googlemail.com"])
        XCTAssertEqual(MailProvider.imapChoices(for: "me@fastmail.com"), ["imaps://imap.fastmail.com"])
        XCTAssertEqual(MailProvider.imapChoices(for: "me@icloud.com"), ["imaps://imap.mail.me.com", "imaps://imap.icloud.com"])
        XCTAssertEqual(MailProvider.imapChoices(for: "me@me.com").first, "imaps://imap.mail.me.com")
        XCTAssertEqual(MailProvider.imapChoices(for: "me@outlook.com").first, "imaps://outlook.office365.com")
        XCTAssertEqual(MailProvider.imapChoices(for: "me@hotmail.co.uk").first, "imaps://outlook.office365.com")
        XCTAssertEqual(MailProvider.imapChoices(for: "me@yahoo.com").first, "imaps://imap.mail.yahoo.com")
        XCTAssertEqual(MailProvider.imapChoices(for: "me@yahoo.co.uk").first, "imaps://imap.mail.yahoo.com")
        XCTAssertEqual(MailProvider.imapChoices(for: "me@example.org"), ["imaps://imap.example.org"])
        // Who wants an app password says so.
        for domain in ["gmail.com", "icloud.com", "yahoo.com", "fastmail.com"] {
            XCTAssertTrue(MailProvider.of(address: "me@" + domain)?.passwordNote.contains("app") ?? false, domain)
        }
        XCTAssertTrue(MailProvider.of(address: "me@outlook.com")?.passwordNote.contains("OAuth2") ?? false)
        // iCloud logs in with the part before @; the others with the address.
        XCTAssertEqual(MailProvider.of(address: "jo@icloud.com")?.user(for: "jo@icloud.com"), "jo")
        XCTAssertEqual(MailProvider.of(address: "jo@gmail.com")?.user(for: "jo@gmail.com"), "jo@gmail.com")
        XCTAssertEqual(MailProvider.of(imapURL: "imaps://imap.mail.me.com/")?.name, "iCloud")
        XCTAssertNil(MailProvider.of(imapURL: "imaps://imap.example.org"))
        // Every server offered is one triage reads.
        for provider in MailProvider.known {
            XCTAssertNil(SetupAnswers.urlProblem(provider.imap), provider.name)
            XCTAssertNil(SetupAnswers.smtpProblem(provider.smtp), provider.name)
        }
    }
}
