import Foundation
import TriageCore
import TriageMaildir
import XCTest

/// Maildir's bookkeeping files (`triage-uidlist`, `dovecot-keywords`), written with
/// `AtomicFile`: the folder's mode, no temporary file left, and a move that cannot
/// record its target's keyword letters moves nothing.
final class MaildirFileTests: XCTestCase {
    private var dir = ""
    private var maildir: String { dir + "/Maildir" }

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "triage-maildir-files-\(UUID().uuidString)"
        for sub in ["", "/.Lists.dev"] {
            for leaf in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(atPath: maildir + sub + "/" + leaf, withIntermediateDirectories: true)
            }
            XCTAssertEqual(chmod(maildir + sub, 0o700), 0)
        }
        let text = "From: a@x.test\r\nSubject: one\r\nMessage-ID: <m1@x.test>\r\n\r\nBody\r\n"
        try text.write(toFile: maildir + "/cur/1700000001.M1P1.host:2,S", atomically: false, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func names(_ sub: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: maildir + sub)) ?? []).sorted()
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0, path)
        return info.st_mode & 0o777
    }

    func testTheFilesTakeTheFoldersModeAndLeaveNoTemporaryFile() throws {
        let old = umask(0)
        defer { umask(old) }
        let connection = try MaildirConnection(root: maildir)
        defer { connection.close() }
        _ = try connection.open("INBOX", readOnly: false)
        try connection.store(FlagChange(.add, labels: ["work"]), uids: [1])
        XCTAssertEqual(names(""), [".Lists.dev", "cur", "dovecot-keywords", "new", "tmp", "triage-uidlist"])
        XCTAssertEqual(mode(maildir + "/triage-uidlist"), 0o600, "a 0700 Maildir gets 0600 files, whatever the umask")
        XCTAssertEqual(mode(maildir + "/dovecot-keywords"), 0o600)
        XCTAssertEqual(try String(contentsOfFile: maildir + "/dovecot-keywords", encoding: .utf8), "0 work\n")
    }

    func testAMoveWhoseKeywordsCannotBeRecordedMovesNothing() throws {
        let connection = try MaildirConnection(root: maildir)
        defer { connection.close() }
        _ = try connection.open("INBOX", readOnly: false)
        try connection.store(FlagChange(.add, labels: ["work"]), uids: [1])
        // The target's keyword file cannot be replaced (a folder has its name).
        try FileManager.default.createDirectory(atPath: maildir + "/.Lists.dev/dovecot-keywords", withIntermediateDirectories: false)
        XCTAssertThrowsError(try connection.move([1], to: "Lists/dev")) { error in
            XCTAssertTrue("\(error)".contains("dovecot-keywords"), "\(error)")
        }
        XCTAssertEqual(names("/cur"), ["1700000001.M1P1.host:2,Sa"], "the message stays where it was")
        XCTAssertEqual(names("/.Lists.dev/cur"), [], "no message carries a letter its folder does not define")
        XCTAssertEqual(names("/.Lists.dev").filter { $0.hasPrefix(".") }, [], "no temporary file is left")
    }
}
