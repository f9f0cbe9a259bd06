import Foundation
import TriageCore
import TriageMIME
import XCTest

/// The demo Maildir is shared: other engineers' rules, tests and the demo rely
/// on these messages being there. This pins down what they rely on.
final class DemoCorpusTests: XCTestCase {
    private struct Entry {
        var file: URL
        var message: Message
        /// Maildir info flags (`S` = seen); files in `new/` have none.
        var flags: String
    }

    private func corpus() throws -> [Entry] {
        try Fixture.demoMessages().map { file in
            let name = file.lastPathComponent
            let flags = name.range(of: ":2,").map { String(name[$0.upperBound...]) } ?? ""
            return Entry(file: file, message: MessageParser.parse([UInt8](try Data(contentsOf: file))), flags: flags)
        }
    }

    private func isMe(_ a: Address) -> Bool { a.address == "me@example.test" || a.address == "me.alias@example.test" }

    func testEveryMessageIsAddressedToMeInNovember2026() throws {
        let entries = try corpus()
        XCTAssertGreaterThanOrEqual(entries.count, 34)
        for e in entries {
            let m = e.message
            // Directly, or through a mailing list (then only Delivered-To names me).
            let delivered = m.deliveredTo.contains { $0 == "me@example.test" || $0 == "me.alias@example.test" }
            XCTAssertTrue((m.to + m.cc).contains(where: isMe) || delivered, "\(e.file.lastPathComponent) reaches me")
            XCTAssertTrue(m.date?.rfc3339.hasPrefix("2026-11-") ?? false, "\(e.file.lastPathComponent) dated November 2026")
            XCTAssertFalse(m.from.isEmpty)
        }
    }

    func testTheCasesRulesAndDemoNeed() throws {
        let messages = try corpus()
        let meOnlyInCc = messages.filter { !$0.message.to.contains(where: isMe) && $0.message.cc.contains(where: isMe) }
        XCTAssertGreaterThanOrEqual(meOnlyInCc.count, 3, "several messages with me only in Cc")

        func from(_ address: String) -> [Entry] { messages.filter { $0.message.sender?.address == address } }
        let bank = from("billing@bank.example"), shop = from("orders@shop.example")
        XCTAssertTrue(bank.contains { $0.message.attachments.contains { $0.hasSuffix(".pdf") } })
        XCTAssertTrue(shop.contains { $0.message.attachments.contains { $0.hasSuffix(".pdf") } })
        XCTAssertTrue(shop.contains { $0.message.attachments.isEmpty })
        let subjects = (bank + shop).compactMap { $0.message.subject?.lowercased() }
        XCTAssertTrue(subjects.contains { $0.contains("receipt") })
        XCTAssertTrue(subjects.contains { $0.contains("invoice") })

        XCTAssertGreaterThanOrEqual(messages.filter { $0.message.listID == "dev.lists.example" }.count, 3)
        let boss = from("boss@example.test")
        XCTAssertTrue(boss.contains { !$0.flags.contains("S") }, "some boss mail unread")
        XCTAssertTrue(boss.contains { $0.flags.contains("S") }, "some boss mail read")
        XCTAssertTrue(from("alerts@radio.example").contains { $0.message.subject?.contains("now broadcasting") ?? false })
        XCTAssertFalse(from("graeme@example.test").isEmpty)
        XCTAssertFalse(from("jaime@example.test").isEmpty)
        XCTAssertTrue(messages.contains { $0.message.messageID == nil }, "one message without Message-ID")
        XCTAssertTrue(messages.contains { $0.message.to.contains { $0.address == "me.alias@example.test" } })
        XCTAssertTrue(messages.contains { $0.file.path.contains("/new/") })
    }

    func testCharsetsAndEncodedNamesAreCovered() throws {
        let raw = try Fixture.demoMessages().map { String(decoding: try Data(contentsOf: $0), as: UTF8.self).lowercased() }
        for needle in ["=?utf-8?", "=?iso-8859-1?", "=?windows-1252?", "=?koi8-r?", "=?iso-2022-jp?",
                       "filename*0*=", "filename*=", "multipart/alternative", "message/rfc822"] {
            XCTAssertTrue(raw.contains { $0.contains(needle) }, "corpus uses \(needle)")
        }
    }
}
