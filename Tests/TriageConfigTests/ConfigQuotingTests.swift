@testable import TriageConfig
import TriageCore
import XCTest

/// Quoted configuration values (triage.conf(5), "Quoting"): one double-quoted
/// string stands for the text inside, with `\"` and `\\` as its only escapes;
/// anything else is taken as written; `_command` keys are never unquoted.
final class ConfigQuotingTests: XCTestCase {
    private func account(_ lines: String) throws -> AccountSection {
        let config = try ConfigLoader.parse("[triage]\n[account a]\nurl = imaps://h\n" + lines + "\n", path: "t.conf")
        return try XCTUnwrap(config.accounts.first)
    }

    private func problems(_ lines: String) -> [ConfigProblem] {
        do {
            _ = try ConfigLoader.parse("[triage]\n[account a]\nurl = imaps://h\n" + lines + "\n", path: "t.conf")
            return []
        } catch {
            return (error as? ConfigError)?.problems ?? []
        }
    }

    func testAQuotedValueIsTheTextInside() throws {
        XCTAssertEqual(try account(#"password = "secret""#).password, "secret")
        XCTAssertEqual(try account(#"password = "secret"   ; a comment"#).password, "secret")
        // inih would cut at " ;": inside quotes it is part of the value, and so are spaces at either end.
        XCTAssertEqual(try account(#"password = " se ;cr#et ""#).password, " se ;cr#et ")
        XCTAssertEqual(try account(#"password = "a\"b\\c""#).password, #"a"b\c"#)
        XCTAssertEqual(try account(#"user = "me@example.test""#).user, "me@example.test")
        XCTAssertEqual(try account(#"mailboxes = "INBOX, Receipts""#).mailboxes, ["INBOX", "Receipts"])
        XCTAssertEqual(try account(#"password = """#).password, "")
    }

    func testAValueThatIsNotOneQuotedStringIsAsWritten() throws {
        XCTAssertEqual(try account("password = se\"cr\\et").password, "se\"cr\\et")
        XCTAssertEqual(try account(#"user = "Me" <me@example.test>"#).user, #""Me" <me@example.test>"#)
        let config = try ConfigLoader.parse("""
        [triage]
        [digest]
        to = "Sam Smith" <sam@example.test>, "Jo" <jo@example.test>
        from = "triage <t@example.test>"
        smtp = "file:out"
        """, path: "/tmp/t.conf")
        XCTAssertEqual(config.digest?.to, #""Sam Smith" <sam@example.test>, "Jo" <jo@example.test>"#)
        XCTAssertEqual(config.digest?.from, "triage <t@example.test>")
        XCTAssertEqual(config.digest?.smtp, .directory(path: "/tmp/out"))
    }

    func testCommandsGoToTheShellAsWritten() throws {
        XCTAssertEqual(try account(#"password_command = "/opt/my tool" show"#).passwordCommand, #""/opt/my tool" show"#)
        XCTAssertEqual(try account(#"password_command = "pass show x""#).passwordCommand, #""pass show x""#)
        XCTAssertEqual(try account(#"oauth2_token_command = "tok\en""#).oauth2TokenCommand, #""tok\en""#)
    }

    func testABadQuotedValueIsAConfigurationErrorThatDoesNotShowIt() {
        for (line, words) in [(#"password = "secr3t"#, "no closing quote"),
                              (#"password = "secr3t\n""#, "a backslash before another character"),
                              (#"user = "C:\secr3t""#, "a backslash before another character")] {
            let found = problems(line)
            XCTAssertEqual(found.map(\.line), [4], line)
            XCTAssertTrue(found.first?.message.contains(words) ?? false, "\(line): \(found)")
            XCTAssertFalse(found.first?.message.contains("secr3t") ?? true, "the value must not be shown: \(found)")
            XCTAssertFalse(found.first?.rendered.contains("secr3t") ?? true)
        }
        do {
            _ = try ConfigLoader.parse("[triage]\n[account a]\nurl = imaps://h\npassword = \"x\n", path: "t.conf")
            XCTFail("accepted")
        } catch {
            XCTAssertEqual((error as? ConfigError)?.exitStatus, .config)
        }
    }

    /// `queue.NAME` keys of `[caldav NAME]` are read outside the key table; they are unquoted all the same.
    func testACalDAVQueueListNameIsUnquotedToo() throws {
        let config = try ConfigLoader.parse("[triage]\n[caldav phone]\nurl = https://dav.example.test/\nqueue.rec = \" To read ;x\"\n", path: "t.conf")
        XCTAssertEqual(config.caldav.first?.queueLists["rec"], " To read ;x")
    }
}
