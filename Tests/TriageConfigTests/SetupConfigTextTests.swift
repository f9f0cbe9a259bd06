@testable import TriageConfig
import TriageCore
import XCTest

/// The triage.conf `triage init` writes (`SetupConfigText`), read back by the
/// loader: every value comes back exactly as given, whatever quotes, `;`, `#`,
/// brackets or `=` it holds, and none adds a line, a key or a section.
final class SetupConfigTextTests: XCTestCase {
    private func answers(me: String = "me@example.test", url: String = "imaps://imap.example.test", user: String? = nil,
                         command: String? = nil, smtp: String = "sendmail") -> SetupAnswers {
        SetupAnswers(me: me, url: url, user: user, passwordCommand: command, digestTo: "digest@example.test", hour: 6, smtp: smtp)
    }

    private func read(_ answers: SetupAnswers) throws -> Configuration {
        try ConfigLoader.parse(SetupConfigText.render(answers), path: "/home/u/.config/triage/triage.conf")
    }

    func testAnIMAPAccountReadsBackAsGiven() throws {
        let config = try read(answers(user: "me", command: "pass show mail/personal"))
        XCTAssertEqual(config.triage.me, ["me@example.test"])
        XCTAssertEqual(config.triage.ruleFolders, ["/home/u/.config/triage/rules"])
        XCTAssertEqual(config.accounts.map(\.name), ["mail"])
        let account = try XCTUnwrap(config.accounts.first)
        XCTAssertEqual(account.endpoint, .imap(MailServerURL(scheme: .imaps, host: "imap.example.test")))
        XCTAssertEqual(account.user, "me")
        XCTAssertEqual(account.passwordCommand, "pass show mail/personal")
        let digest = try XCTUnwrap(config.digest)
        XCTAssertEqual(digest.to, "digest@example.test")
        XCTAssertEqual(digest.from, "me@example.test")
        XCTAssertEqual(digest.hour, 6)
        XCTAssertEqual(digest.smtp, .sendmail(path: DeliveryEndpoint.defaultSendmail))
        XCTAssertFalse(digest.sendEmpty)
    }

    /// Quotes, backslashes, `;`, `#`, `[`, `]` and `=` in a value stay in it: nothing
    /// after them becomes a comment, a key or a section.
    func testAValueCannotBreakOutOfItsLine() throws {
        let user = #"a"b\c ;d #e ]f [g =h"#
        let path = #"/srv/mail "x" ;y #z\w"#
        let config = try read(answers(url: "maildir:" + path, user: user, smtp: "file:" + path + "/out"))
        XCTAssertEqual(config.accounts.count, 1)
        XCTAssertEqual(config.accounts.first?.endpoint, .maildir(path: path))
        let imap = try read(answers(user: user))
        XCTAssertEqual(imap.accounts.first?.user, user)
        XCTAssertEqual(config.digest?.smtp, .directory(path: path + "/out"))
    }

    /// Control characters were refused by `SetupAnswers`; the renderer still makes each
    /// one a space, so even an unchecked value is one line.
    func testAControlCharacterNeverMakesASecondLine() throws {
        let text = SetupConfigText.render(answers(user: "me\n[account evil]\nurl = maildir:/tmp", command: "pass\nshow"))
        let config = try ConfigLoader.parse(text, path: "/t/triage.conf")
        XCTAssertEqual(config.accounts.map(\.name), ["mail"])
        XCTAssertEqual(config.accounts.first?.user, "me [account evil] url = maildir:/tmp")
        XCTAssertEqual(config.accounts.first?.passwordCommand, "pass show")
    }

    /// A password command is written as typed (the shell quotes), its own `#` and quotes kept.
    func testThePasswordCommandIsWrittenAsTyped() throws {
        let command = #"op read "op://Personal/Mail #1/password""#
        XCTAssertEqual(try read(answers(command: command)).accounts.first?.passwordCommand, command)
    }

    /// Without a password command the line is there to fill in, commented out; a Maildir has none.
    func testNoPasswordCommandLeavesACommentedLine() throws {
        let text = SetupConfigText.render(answers())
        XCTAssertTrue(text.contains("\n; password_command = "), text)
        XCTAssertNil(try read(answers()).accounts.first?.passwordCommand)
        let maildir = SetupConfigText.render(answers(url: "maildir:~/Maildir"))
        XCTAssertFalse(maildir.contains("password_command"), maildir)
        XCTAssertFalse(maildir.contains("\nuser ="), maildir)
    }

    /// A digest sent over SMTP logs in as the account does.
    func testAnSMTPDigestTakesTheAccountsLogin() throws {
        let config = try read(answers(user: "me", command: "pass show mail", smtp: "smtps://smtp.example.test"))
        XCTAssertEqual(config.digest?.smtp, .smtps(host: "smtp.example.test", port: 465))
        XCTAssertEqual(config.digest?.user, "me")
        XCTAssertEqual(config.digest?.passwordCommand, "pass show mail")
    }

    /// A provider's note (app passwords) is written beside the password command.
    func testAKnownProvidersNoteIsWritten() throws {
        let text = SetupConfigText.render(answers(me: "me@gmail.com", url: "imaps://imap.gmail.com"))
        XCTAssertTrue(text.contains("; Gmail wants an app password"), text)
        _ = try read(answers(me: "me@gmail.com", url: "imaps://imap.gmail.com"))
    }
}
