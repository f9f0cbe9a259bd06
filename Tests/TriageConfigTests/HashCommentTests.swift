@testable import TriageConfig
import TriageCore
import XCTest

/// ` # comment` after a value is a comment, as ` ; comment` is (issue 27, item 3):
/// docs/caldav.md's examples were written that way and broke when pasted.
final class HashCommentTests: XCTestCase {
    private func parse(_ text: String) throws -> Configuration {
        try ConfigLoader.parse("[triage]\n" + text + "\n", path: "/tmp/t.conf")
    }

    func testASpaceThenHashStartsAComment() throws {
        let config = try parse("""
        [caldav phone]
        url = https://dav.example.test/dav/   # the server
        create_lists = no	# a tab before it
        reminders = Reminders # the list
        queues = rec, invitations   # two queues
        timeout = 20 #seconds
        queue.later = To read   # a list name
        """)
        let caldav = try XCTUnwrap(config.caldav.first)
        XCTAssertEqual(caldav.url, "https://dav.example.test/dav/")
        XCTAssertFalse(caldav.createLists)
        XCTAssertEqual(caldav.remindersList, "Reminders")
        XCTAssertEqual(caldav.queueLists, ["rec": "rec", "invitations": "invitations", "later": "To read"])
        XCTAssertEqual(caldav.timeout, 20)
    }

    func testAHashWithNoSpaceBeforeItIsPartOfTheValue() throws {
        let config = try parse("[caldav phone]\nurl = https://dav.example.test/cal/#frag\nreminders = Todo#1\n")
        XCTAssertEqual(config.caldav.first?.url, "https://dav.example.test/cal/#frag")
        XCTAssertEqual(config.caldav.first?.remindersList, "Todo#1")
    }

    func testAHashInsideQuotesIsKeptAndAQuotedValueTakesAComment() throws {
        let config = try parse("[account a]\nurl = imaps://h\nuser = me\npassword = \"se #cret\"   # quoted\n")
        XCTAssertEqual(config.accounts.first?.password, "se #cret")
        let plain = try parse("[account a]\nurl = imaps://h\nuser = me   # the login\npassword = secret # not the password\n")
        XCTAssertEqual(plain.accounts.first?.user, "me")
        XCTAssertEqual(plain.accounts.first?.password, "secret")
    }

    func testACommandGoesToTheShellAsWritten() throws {
        // The shell reads " # ..." as a comment itself, and keeps a "#" inside its own quotes.
        let config = try parse("[account a]\nurl = imaps://h\nuser = me\npassword_command = printf '%s' 'a #b'   # the password\n")
        XCTAssertEqual(config.accounts.first?.passwordCommand, "printf '%s' 'a #b'   # the password")
    }

    func testAWholeLineCommentStillWorks() throws {
        let config = try parse("[account a]\n# a comment\nurl = imaps://h\n  # indented\nuser = me\n")
        XCTAssertEqual(config.accounts.first?.user, "me")
    }
}
