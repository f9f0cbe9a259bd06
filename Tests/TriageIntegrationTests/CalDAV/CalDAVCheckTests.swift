import Foundation
import TriageCore
import XCTest

/// `triage check` on `[caldav NAME]` sections (issue 27, item 3): a `ca_file` that
/// cannot be read and a plain http:// url to another machine are problems (78) before
/// any sync meets them; a queue no rule fills is a warning; `check --connect` logs in
/// to Radicale and says which task list each reminder and queue goes to.
final class CalDAVCheckTests: XCTestCase {
    func folder(_ purpose: String, extra: String = "") throws -> CalDAVTestFolder {
        let f = try CalDAVTestFolder(purpose, server: try CalDAVTestServer.radicale(), extra: extra)
        addTeardownBlock { f.remove() }
        return f
    }

    func testAMissingCAFileIsAProblem() throws {
        let f = try folder("caldav-check-ca")
        XCTAssertEqual(try f.triage(["check"]).status, 0, "the control: the folder's own configuration passes")
        try f.writeConfig(caFile: f.dir + "/no-such-ca.pem")
        let check = try f.triage(["check"])
        XCTAssertEqual(check.status, 78, check.err)
        XCTAssertTrue(check.err.contains("[caldav phone] ca_file \(f.dir)/no-such-ca.pem does not exist; fix the path"), check.err)
    }

    func testPlainHTTPToAnotherMachineIsAProblemAndToLocalhostIsNot() throws {
        let f = try folder("caldav-check-http")
        try f.writeConfig(url: "http://dav.example.test/dav/")
        let check = try f.triage(["check"])
        XCTAssertEqual(check.status, 78, check.err)
        XCTAssertTrue(check.err.contains("[caldav phone] url http://dav.example.test is plain http:// to another machine"), check.err)
        try f.writeConfig(url: "http://localhost:5232/")
        let local = try f.triage(["check"])
        XCTAssertEqual(local.status, 0, local.err)
    }

    func testAQueueNoRuleFillsIsAWarning() throws {
        let f = try folder("caldav-check-queue", extra: "queues = recs")
        try "rule \"r\" when from:shop.example then queue \"rec\"\n".write(toFile: f.dir + "/rules/test.rules", atomically: true, encoding: .utf8)
        let check = try f.triage(["check"])
        XCTAssertEqual(check.status, 0, check.err)
        XCTAssertTrue(check.err.contains("warning: [caldav phone] queue recs: no rule queues to it (the rules queue to rec)"), check.err)
        XCTAssertFalse(check.err.contains("queue rec:"), "queue.rec is filled by the rule: \(check.err)")
    }

    func testCheckConnectLogsInAndSaysWhereEachListIs() throws {
        let f = try folder("caldav-check-connect")
        let made = { f.server.requests().filter { $0.hasPrefix("MKCALENDAR") }.count }
        let madeBefore = made()
        let before = try f.triage(["check", "--connect"])
        XCTAssertEqual(before.status, 0, before.err)
        XCTAssertTrue(before.out.contains("caldav phone: logged in to https://localhost:\(f.server.port); task lists there: "), before.out)
        XCTAssertTrue(before.out.contains("caldav phone: the reminders go to the list \"\(f.reminders)\", not on the server yet: "
                                          + "the first sync creates it"), before.out)
        XCTAssertTrue(before.out.contains("caldav phone: queue rec goes to the list \"\(f.rec)\""), before.out)
        XCTAssertEqual(made(), madeBefore, "check creates nothing")

        XCTAssertEqual(try f.triage(["sync"]).status, 0)
        let after = try f.triage(["check", "--connect"])
        XCTAssertEqual(after.status, 0, after.err)
        XCTAssertTrue(after.out.contains("\"\(f.reminders)\""), after.out)
        XCTAssertTrue(after.out.contains("caldav phone: the reminders go to the list \"\(f.reminders)\"\n"), after.out)
    }

    func testCheckConnectReportsAMissingListWithoutCreateLists() throws {
        let f = try folder("caldav-check-nolist", extra: "create_lists = no   # report a missing list")
        let check = try f.triage(["check", "--connect"])
        XCTAssertEqual(check.status, 78, check.err)
        XCTAssertTrue(check.err.contains("triage: caldav phone: no list \"\(f.reminders)\" on the server (for the reminders); "
                                         + "create it on the phone, or set create_lists = yes in [caldav phone]"), check.err)
    }

    func testCheckConnectWithAWrongPasswordIs77() throws {
        let f = try folder("caldav-check-auth")
        try f.writeConfig(password: "wrong-password")
        let check = try f.triage(["check", "--connect"])
        XCTAssertEqual(check.status, 77, check.err)
        XCTAssertTrue(check.err.contains("triage: caldav phone: CalDAV "), check.err)
        XCTAssertFalse(check.err.contains("wrong-password"), check.err)
    }

    /// docs/caldav.md's example, pasted as a user would (with the test server's url, login
    /// and CA in place of Fastmail's), passes `check` and `check --connect`.
    func testTheDocumentedExamplePasted() throws {
        let f = try folder("caldav-check-doc")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let doc = try String(contentsOf: root.appendingPathComponent("docs/caldav.md"), encoding: .utf8)
        let start = try XCTUnwrap(doc.range(of: "```ini\n[caldav phone]\n"))
        let end = try XCTUnwrap(doc.range(of: "```", range: start.upperBound..<doc.endIndex))
        var example = String(doc[doc.index(start.upperBound, offsetBy: -"[caldav phone]\n".count)..<end.lowerBound])
        XCTAssertTrue(example.contains("# the server"), "the example has its # comments: \(example)")
        // The placeholders: this server instead of Fastmail's.
        for (from, to) in [("https://caldav.fastmail.com/", f.server.url), ("me@fastmail.com", f.server.user),
                           ("pass show fastmail/caldav", "cat \(f.dir)/pw"),
                           ("# ca_file = /etc/triage/my-ca.pem", "ca_file = \(f.server.caFile)")] {
            XCTAssertTrue(example.contains(from), "\(from) not in the example")
            example = example.replacingOccurrences(of: from, with: to)
        }
        try "[triage]\nrules = rules\nstore = store\ntimezone = UTC\n\n\(example)".write(toFile: f.config, atomically: true, encoding: .utf8)
        chmod(f.config, 0o600)
        let check = try f.triage(["check"])
        XCTAssertEqual(check.status, 0, check.err)
        let connect = try f.triage(["check", "--connect"])
        XCTAssertEqual(connect.status, 0, connect.err)
        XCTAssertTrue(connect.out.contains("caldav phone: the reminders go to the list \"Reminders\""), connect.out)
        XCTAssertTrue(connect.out.contains("caldav phone: queue reply goes to the list \"To answer\""), connect.out)
    }
}
