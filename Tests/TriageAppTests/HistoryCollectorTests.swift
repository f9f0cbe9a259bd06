import Foundation
@testable import TriageApp
import TriageCore
import TriageMaildir
import XCTest

/// `HistoryCollector` on a Maildir: which folders it reads (INBOX, the user's folders,
/// Sent by its usual name or `sent =`), which it leaves out (Trash, Junk), the window,
/// and that it changes nothing.
final class HistoryCollectorTests: XCTestCase {
    private var root = ""
    private let now: Int64 = 1_772_442_000  // 2026-03-02T09:00:00Z

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "triage-history-\(UUID().uuidString.prefix(8))"
        for box in ["", "/.Lists.dev", "/.Sent", "/.Trash", "/.Junk", "/.Outgoing"] {
            for leaf in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(atPath: root + box + "/" + leaf, withIntermediateDirectories: true)
            }
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    private func put(_ box: String, _ name: String, daysAgo: Int, flags: String = "", from: String = "a@x.example") throws {
        let date = Date(timeIntervalSince1970: TimeInterval(now - Int64(daysAgo) * 86_400))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        let text = "From: \(from)\nTo: me@example.test\nSubject: \(name)\nDate: \(formatter.string(from: date))\n"
            + "Message-ID: <\(name)@x.example>\nList-Unsubscribe: <https://x.example/u>\n\nBody.\n"
        try text.write(toFile: root + box + "/cur/\(name):2,\(flags)", atomically: false, encoding: .utf8)
    }

    private func account(sent: String? = nil) -> AccountSection {
        var account = AccountSection(name: "home", endpoint: .maildir(path: root))
        account.sent = sent
        return account
    }

    func testReadsInboxTheUsersFoldersAndSentLeavesOutTrashJunkAndOldMail() throws {
        try put("", "new1", daysAgo: 3, flags: "S")
        try put("", "old1", daysAgo: 120)
        try put("/.Lists.dev", "list1", daysAgo: 10, flags: "RS")
        try put("/.Sent", "sent-old", daysAgo: 400, from: "me@example.test")
        try put("/.Trash", "trash1", daysAgo: 2)
        try put("/.Junk", "junk1", daysAgo: 2)
        let connection = try MaildirConnection(root: root)
        let collected = try HistoryCollector.collect(account(), on: connection, since: now - 90 * 86_400, keep: [], fields: [])
        let byFolder = Dictionary(grouping: collected.messages, by: \.folder).mapValues { $0.map { $0.message.subject ?? "" }.sorted() }
        XCTAssertEqual(byFolder, ["INBOX": ["new1"], "Lists/dev": ["list1"], "Sent": ["sent-old"]])
        XCTAssertEqual(collected.sent, "Sent")
        XCTAssertTrue(collected.messages.first { $0.folder == "Sent" }?.isSent ?? false)
        let list = try XCTUnwrap(collected.messages.first { $0.folder == "Lists/dev" })
        XCTAssertTrue(list.isAnswered)
        XCTAssertEqual(list.header("list-unsubscribe"), "<https://x.example/u>")
        // Nothing changed: the files keep their names (no uid list is written either).
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/cur/new1:2,S"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/triage-uidlist"))
    }

    func testSentIsTheConfiguredFolder() throws {
        try put("/.Outgoing", "mine", daysAgo: 3, from: "me@example.test")
        try put("/.Sent", "other", daysAgo: 3)
        let connection = try MaildirConnection(root: root)
        let collected = try HistoryCollector.collect(account(sent: "Outgoing"), on: connection, since: now - 90 * 86_400, keep: [], fields: [])
        XCTAssertEqual(collected.sent, "Outgoing")
        XCTAssertEqual(collected.messages.filter(\.isSent).map { $0.message.subject }, ["mine"])
        // A configured Sent folder that is not there is a configuration error, not a silent gap.
        XCTAssertThrowsError(try HistoryCollector.collect(account(sent: "Gone"), on: connection, since: 0, keep: [], fields: [])) { error in
            XCTAssertEqual((error as? SimpleError)?.exitStatus, .config)
        }
    }

    /// A Maildir whose fetches are counted.
    private final class Counting: MailConnection {
        let inner: MaildirConnection
        var fetched = 0
        init(_ inner: MaildirConnection) { self.inner = inner }
        var serverName: String { inner.serverName }
        func open(_ mailbox: String, readOnly: Bool) throws -> MailboxStatus { try inner.open(mailbox, readOnly: readOnly) }
        func uids(above uid: UInt32) throws -> [UInt32] { try inner.uids(above: uid) }
        func fetch(_ request: FetchRequest) throws -> [FetchedMessage] {
            fetched += request.uids.count
            return try inner.fetch(request)
        }
        func store(_ change: FlagChange, uids: [UInt32]) throws { try inner.store(change, uids: uids) }
        func move(_ uids: [UInt32], to folder: String, recorder: MoveRecorder?, resuming attempts: [CopyAttempt]?) throws -> MoveMethod {
            try inner.move(uids, to: folder, recorder: recorder, resuming: attempts)
        }
        func folderList() throws -> [String]? { try inner.folderList() }
        func specialUseFolder(_ attribute: String) throws -> String? { try inner.specialUseFolder(attribute) }
        func close() { inner.close() }
    }

    func testAFoldersOldMailIsNotFetchedBeyondTheFirstChunkOutsideTheWindow() throws {
        // 2,500 old messages (old Date and old arrival), then 3 of the window: newest last.
        for i in 0..<2500 {
            try put("/.Lists.dev", String(format: "a%05d", i), daysAgo: 200)
            let path = root + "/.Lists.dev/cur/" + String(format: "a%05d", i) + ":2,"
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: TimeInterval(now - 200 * 86_400))],
                                                  ofItemAtPath: path)
        }
        for i in 0..<3 { try put("/.Lists.dev", "b\(i)", daysAgo: 5) }
        let connection = Counting(try MaildirConnection(root: root))
        let collected = try HistoryCollector.collect(account(), on: connection, since: now - 90 * 86_400, keep: [], fields: [])
        XCTAssertEqual(collected.messages.filter { $0.folder == "Lists/dev" }.count, 3)
        // The newest chunk (1,000, holding the 3) and the next, all old: not the third.
        XCTAssertEqual(connection.fetched, 2000)
    }
}
