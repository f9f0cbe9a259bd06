import Foundation
import TriageCore
import XCTest

/// Runs the built `triage inspect` binary.
final class InspectCommandTests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let fixtures = packageRoot.appendingPathComponent("Tests/TriageMIMETests/Fixtures")

    private func run(_ arguments: [String], stdin: Data? = nil) throws -> TriageProcess.Result {
        try TriageProcess.run(arguments, input: stdin)
    }

    func testJSONHasExactlyTheDocumentedKeysInOrder() throws {
        let file = Self.fixtures.appendingPathComponent("messages/mixed-basics.eml").path
        let result = try run(["inspect", "--json", file])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "")
        let lines = result.out.split(separator: "\n")
        XCTAssertEqual(lines.count, 1)
        let line = String(lines[0])
        // Key order is part of the interface: check it on the raw text.
        var position = line.startIndex
        for key in MessageJSON.keys {
            let range = try XCTUnwrap(line.range(of: "\"\(key)\":", range: position..<line.endIndex), "key \(key) in order")
            position = range.upperBound
        }
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(Set(object.keys), Set(MessageJSON.keys))
        XCTAssertEqual(object["subject"] as? String, "Café is open now")
        XCTAssertEqual(object["date"] as? String, "2026-11-03T09:15:02-04:00")
        XCTAssertEqual(object["message_id"] as? String, "abc.123@mail.example")
        XCTAssertEqual(object["in_reply_to"] as? String, "prev@mail.example")
        XCTAssertEqual(object["list_id"] as? String, "dev.lists.example")
        XCTAssertEqual(object["delivered_to"] as? [String], ["me@example.test"])
        XCTAssertEqual(object["attachments"] as? [String], ["naïve invoice.pdf"])
        XCTAssertEqual(object["size"] as? Int, try Data(contentsOf: URL(fileURLWithPath: file)).count)
        let from = try XCTUnwrap(object["from"] as? [[String: Any]])
        XCTAssertEqual(from.first?["name"] as? String, "Jürgen Müller")
        let to = try XCTUnwrap(object["to"] as? [[String: Any]])
        XCTAssertTrue(to.first?["name"] is NSNull, "a missing name is null")
        XCTAssertTrue(object["cc"] is [Any])
    }

    func testOneLinePerMessageAndStandardInput() throws {
        let a = Self.fixtures.appendingPathComponent("messages/gmt-date.eml")
        let b = Self.fixtures.appendingPathComponent("nasty/empty.eml").path
        let result = try run(["inspect", "--json", "-", b], stdin: try Data(contentsOf: a))
        XCTAssertEqual(result.status, 0, result.err)
        let lines = result.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].contains("\"subject\":\"GMT date\""))
        XCTAssertTrue(lines[1].contains("\"subject\":null"))
        XCTAssertTrue(lines[1].contains("\"date\":null"))
        XCTAssertTrue(lines[1].hasSuffix("\"size\":0}"))
    }

    func testUnreadableFileIsNamedSkippedAndExits66() throws {
        let good = Self.fixtures.appendingPathComponent("messages/gmt-date.eml").path
        let missing = "/nonexistent/triage-test/missing.eml"
        let result = try run(["inspect", "--json", missing, good])
        XCTAssertEqual(result.status, 66)
        XCTAssertTrue(result.err.contains(missing), result.err)
        XCTAssertEqual(result.out.split(separator: "\n").count, 1, "the readable file is still shown")
        let directory = try run(["inspect", Self.fixtures.path])
        XCTAssertEqual(directory.status, 66)
        XCTAssertTrue(directory.err.contains("directory"), directory.err)
    }

    func testEveryToCcAndBccFieldIsShown() throws {
        // Two To, three Cc and two Bcc fields: each list is the fields' mailboxes in order.
        let file = Self.fixtures.appendingPathComponent("messages/repeated-address-fields.eml").path
        let text = try run(["inspect", file])
        XCTAssertEqual(text.status, 0, text.err)
        XCTAssertTrue(text.out.contains("  To:           Team <team@example.org>, Bob <bob@example.test>, carol@example.test\n"), text.out)
        XCTAssertTrue(text.out.contains("  Cc:           Ann <ann@example.org>, Me <me@example.test>, Dee <dee@example.org>\n"), text.out)
        XCTAssertTrue(text.out.contains("  Bcc:          audit@example.org, Records, Office <records@example.org>\n"), text.out)
        XCTAssertTrue(text.out.contains("  From:         Lists Relay <relay@lists.example>\n"), text.out)

        let json = try run(["inspect", "--json", file])
        XCTAssertEqual(json.status, 0, json.err)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        func addresses(_ key: String) -> [String] { (object[key] as? [[String: Any]] ?? []).compactMap { $0["address"] as? String } }
        XCTAssertEqual(addresses("to"), ["team@example.org", "bob@example.test", "carol@example.test"])
        XCTAssertEqual(addresses("cc"), ["ann@example.org", "me@example.test", "dee@example.org"])
        XCTAssertEqual(addresses("bcc"), ["audit@example.org", "records@example.org"])
        XCTAssertEqual(addresses("from"), ["relay@lists.example"])
        XCTAssertEqual(addresses("reply_to"), ["first-reply@example.org"])
    }

    func testReadableSummary() throws {
        let file = Self.fixtures.appendingPathComponent("messages/mixed-basics.eml").path
        let result = try run(["inspect", file])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.hasPrefix(file + "\n"))
        XCTAssertTrue(result.out.contains("From:         Jürgen Müller <juergen@example.test>"), result.out)
        XCTAssertTrue(result.out.contains("Subject:      Café is open now"))
        XCTAssertTrue(result.out.contains("Attachments:  naïve invoice.pdf"))
    }

    func testUsageErrors() throws {
        XCTAssertEqual(try run(["inspect"]).status, 64)
        XCTAssertEqual(try run(["inspect", "--bogus", "x"]).status, 64)
    }
}
