import Foundation
import TriageCore
import TriageIMAP
import TriageTestSupport
import XCTest

/// The mailbox operations of `IMAPConnection` against a real Dovecot: fetch,
/// store, move (MOVE and the COPY/EXPUNGE fallback), EXAMINE.
final class IMAPMailboxTests: XCTestCase {
    private var server: DovecotServer!

    override func setUpWithError() throws {
        server = try DovecotServer.shared()
    }

    func testFetchReturnsFlagsSizesDatesHeadersAndAttachmentsWithoutMarkingRead() throws {
        let user = try server.makeUser("fetch")
        let first = TestMessages.plain(id: "one", subject: "First")
        let second = TestMessages.withAttachment(id: "two")
        let third = TestMessages.plain(id: "three", subject: "Third")
        let date1 = Date(timeIntervalSince1970: 1_700_000_000)
        let date2 = Date(timeIntervalSince1970: 1_700_000_100)
        try server.seed(user: user, first, flags: "SF", date: date1)
        try server.seed(user: user, second, date: date2)
        try server.seed(user: user, third, flags: "R", date: date2)

        let connection = try server.connect(user: user)
        defer { connection.close() }
        let status = try connection.open("INBOX", readOnly: false)
        XCTAssertEqual(status.exists, 3)
        XCTAssertEqual(status.uidNext, 4)
        XCTAssertGreaterThan(status.uidValidity, 0)
        XCTAssertNotNil(status.highestModSeq, "Dovecot has CONDSTORE")
        XCTAssertFalse(status.readOnly)

        XCTAssertEqual(try connection.uids(above: 0), [1, 2, 3])
        XCTAssertEqual(try connection.uids(above: 1), [2, 3])
        // `UID 4:*` matches the highest UID on the server; it must not come back.
        XCTAssertEqual(try connection.uids(above: 3), [])

        let messages = try connection.fetch([1, 2, 3]).sorted { $0.uid < $1.uid }
        XCTAssertEqual(messages.map(\.uid), [1, 2, 3])
        XCTAssertEqual(messages[0].flags, ["\\Seen", "\\Flagged"])
        XCTAssertEqual(messages[1].flags, [])
        XCTAssertEqual(messages[2].flags, ["\\Answered"])
        XCTAssertEqual(messages.map(\.size), [first, second, third].map(TestMessages.wireSize))
        XCTAssertEqual(messages[0].internalDate, 1_700_000_000)
        XCTAssertEqual(messages[1].internalDate, 1_700_000_100)
        // Header and body together are the whole (short) message, as the server sends it.
        for (message, source) in zip(messages, [first, second, third]) {
            XCTAssertEqual(message.bytes, TestMessages.wire(source))
            XCTAssertTrue(message.isComplete)
            XCTAssertTrue(String(decoding: message.header, as: UTF8.self).hasSuffix("\r\n\r\n"))
        }
        XCTAssertEqual(messages[1].attachments, ["receipt.pdf"])
        XCTAssertEqual(messages[0].attachments, [])
        XCTAssertEqual(messages[0].serverFacts(account: "a", mailbox: "INBOX").isFlagged, true)

        // PEEK: fetching the bodies marked nothing as read.
        let again = try connection.fetch([2, 3]).sorted { $0.uid < $1.uid }
        XCTAssertFalse(again[0].flags.contains("\\Seen"))
        XCTAssertFalse(again[1].flags.contains("\\Seen"))
        // Only what was asked for comes back.
        XCTAssertEqual(try connection.fetch([2]).map(\.uid), [2])
        XCTAssertEqual(try connection.fetch([]), [])
    }

    func testLongBodyIsCutToThePrefixButTheAttachmentIsStillSeen() throws {
        let user = try server.makeUser("prefix")
        let message = TestMessages.withAttachment(id: "long", padding: 20_000)
        try server.seed(user: user, message)
        var settings = server.settings(user: user)
        settings.bodyPrefixBytes = 1000
        let connection = try IMAPConnection.connect(settings)
        defer { connection.close() }
        _ = try connection.open("INBOX", readOnly: false)
        let fetched = try XCTUnwrap(connection.fetch([1]).first)
        XCTAssertEqual(fetched.bodyPrefix.count, 1000)
        XCTAssertFalse(fetched.isComplete)
        XCTAssertEqual(fetched.size, TestMessages.wireSize(message))
        XCTAssertTrue(String(decoding: fetched.header, as: UTF8.self).contains("Message-ID: <long@example.test>"))
        XCTAssertEqual(fetched.attachments, ["receipt.pdf"], "BODYSTRUCTURE sees past the prefix")
    }

    func testStoreFlagsAndEncodedLabelsRoundTrip() throws {
        let user = try server.makeUser("store")
        for id in ["a", "b", "c"] { try server.seed(user: user, TestMessages.plain(id: id)) }
        let connection = try server.connect(user: user)
        defer { connection.close() }
        _ = try connection.open("INBOX", readOnly: false)

        try connection.store(FlagChange(.add, flags: ["\\Flagged", "\\Seen"], labels: ["no push", "receipts", "café"]),
                             uids: [1, 3])
        // Adding again is harmless (idempotent).
        try connection.store(FlagChange(.add, labels: ["no push"]), uids: [1, 3])
        var messages = try connection.fetch([1, 2, 3]).sorted { $0.uid < $1.uid }
        // A space is spelled `_` on the server and reads back so (`label:` treats them alike).
        XCTAssertEqual(messages[0].labels, ["no_push", "receipts", "café"])
        XCTAssertEqual(messages[0].flags, ["\\Flagged", "\\Seen"])
        XCTAssertEqual(messages[1].labels, [])
        XCTAssertEqual(messages[1].flags, [])
        XCTAssertEqual(messages[2].labels, ["no_push", "receipts", "café"])

        // On the server each label is one keyword atom, not `no` and `push`.
        let keywords = server.keywordFile(user: user)
        XCTAssertTrue(keywords.contains(" no_push\n"), keywords)
        XCTAssertTrue(keywords.contains("caf+C3+A9"), keywords)
        XCTAssertFalse(keywords.split(separator: "\n").contains { $0.hasSuffix(" no") || $0.hasSuffix(" push") }, keywords)

        try connection.store(FlagChange(.remove, flags: ["\\Seen"], labels: ["no push"]), uids: [1])
        messages = try connection.fetch([1, 3]).sorted { $0.uid < $1.uid }
        XCTAssertEqual(messages[0].labels, ["receipts", "café"])
        XCTAssertEqual(messages[0].flags, ["\\Flagged"])
        XCTAssertEqual(messages[1].labels, ["no_push", "receipts", "café"])

        // A new connection reads the same labels back.
        let other = try server.connect(user: user)
        defer { other.close() }
        _ = try other.open("INBOX", readOnly: true)
        XCTAssertEqual(try other.fetch([3]).first?.labels, ["no_push", "receipts", "café"])
    }

    func testMoveToExistingFolderMovesExactlyThoseMessages() throws {
        let user = try server.makeUser("move")
        try server.createMailbox(user: user, "Archive/2024")
        for id in ["m1", "m2", "m3"] { try server.seed(user: user, TestMessages.plain(id: id)) }
        let connection = try server.connect(user: user)
        defer { connection.close() }
        XCTAssertTrue(connection.hasMove)
        _ = try connection.open("INBOX", readOnly: false)
        XCTAssertEqual(try connection.move([1, 3], to: "Archive/2024"), .move)
        XCTAssertEqual(try connection.uids(above: 0), [2])

        let archive = try connection.open("Archive/2024", readOnly: true)
        XCTAssertEqual(archive.exists, 2)
        let moved = try connection.fetch(try connection.uids(above: 0))
        let ids = moved.map { String(decoding: $0.header, as: UTF8.self) }
        XCTAssertEqual(ids.filter { $0.contains("<m1@") || $0.contains("<m3@") }.count, 2)
    }

    func testOpeningAMissingMailboxNamesIt() throws {
        let user = try server.makeUser("nombox")
        let connection = try server.connect(user: user)
        defer { connection.close() }
        XCTAssertThrowsError(try connection.open("Receipts", readOnly: true)) { error in
            XCTAssertEqual((error as? MailError)?.kind, .missingFolder)
            XCTAssertTrue("\(error)".contains("Receipts"), "\(error)")
        }
        XCTAssertEqual(try connection.open("INBOX", readOnly: true).exists, 0, "the session survives")
    }

    func testNonASCIIMailboxNamesUseModifiedUTF7() throws {
        let user = try server.makeUser("utf7")
        try server.createMailbox(user: user, "Reçus")
        try server.seed(user: user, TestMessages.plain(id: "u1"))
        let connection = try server.connect(user: user)
        defer { connection.close() }
        _ = try connection.open("INBOX", readOnly: false)
        try connection.move([1], to: "Reçus")
        XCTAssertEqual(try connection.open("Reçus", readOnly: true).exists, 1)
    }

    func testSettingsFromAnAccountSection() throws {
        var account = AccountSection(name: "personal", endpoint: .imap(MailServerURL(scheme: .imaps, host: "localhost", port: server.imapsPort)))
        account.user = try server.makeUser("account")
        account.caFile = server.caFile
        let settings = try IMAPSettings(account: account, secret: .password(DovecotServer.password))
        let connection = try IMAPConnection.connect(settings)
        defer { connection.close() }
        XCTAssertEqual(connection.serverName, "localhost:\(server.imapsPort)")
        XCTAssertEqual(try connection.open("INBOX", readOnly: true).exists, 0)

        account.user = nil
        XCTAssertThrowsError(try IMAPSettings(account: account, secret: .password("x"))) { error in
            XCTAssertEqual((error as? MailError)?.exitStatus, .config)
        }
        account.endpoint = .maildir(path: "/tmp/x")
        XCTAssertThrowsError(try IMAPSettings(account: account, secret: .password("x")))
    }

    func testMoveToMissingFolderKeepsTheMessageInInbox() throws {
        let user = try server.makeUser("missing")
        try server.seed(user: user, TestMessages.plain(id: "stay"))
        let connection = try server.connect(user: user)
        defer { connection.close() }
        _ = try connection.open("INBOX", readOnly: false)
        XCTAssertThrowsError(try connection.move([1], to: "No Such Folder")) { error in
            let mailError = error as? MailError
            XCTAssertEqual(mailError?.kind, .missingFolder)
            XCTAssertEqual(mailError?.exitStatus, .config)
            XCTAssertTrue(mailError?.message.contains("No Such Folder") ?? false, "\(error)")
            XCTAssertTrue(mailError?.message.contains("localhost:\(server.imapsPort)") ?? false, "\(error)")
        }
        // The session is still usable and the message is still there, untouched.
        XCTAssertEqual(try connection.uids(above: 0), [1])
        XCTAssertEqual(try connection.fetch([1]).first?.flags, [])
        XCTAssertEqual(server.files(user: user).count, 1)
    }

    func testCopyExpungeFallbackRemovesOnlyTheMovedMessages() throws {
        let user = try server.makeUser("fallback")
        try server.createMailbox(user: user, "Archive")
        try server.seed(user: user, TestMessages.plain(id: "f1"))
        // Someone else marked this one \Deleted: a bare EXPUNGE would remove it too.
        try server.seed(user: user, TestMessages.plain(id: "f2"), flags: "T")
        try server.seed(user: user, TestMessages.plain(id: "f3"))
        // 127.0.0.4 advertises no MOVE after login (imap_capability in dovecot.sh).
        let connection = try server.connect(user: user, host: "127.0.0.4")
        defer { connection.close() }
        XCTAssertFalse(connection.hasMove)
        XCTAssertTrue(connection.hasUIDPlus)
        _ = try connection.open("INBOX", readOnly: false)
        XCTAssertEqual(try connection.move([1], to: "Archive"), .copyAndExpunge)
        XCTAssertEqual(try connection.uids(above: 0), [2, 3])
        XCTAssertEqual(try connection.fetch([2]).first?.flags, ["\\Deleted"])

        XCTAssertThrowsError(try connection.move([3], to: "Nowhere")) { error in
            XCTAssertEqual((error as? MailError)?.kind, .missingFolder)
        }
        XCTAssertEqual(try connection.uids(above: 0), [2, 3])
        XCTAssertEqual(try connection.fetch([3]).first?.flags, [], "a failed COPY sets no \\Deleted")

        XCTAssertEqual(try connection.open("Archive", readOnly: true).exists, 1)
    }

    func testExamineChangesNothing() throws {
        let user = try server.makeUser("examine")
        try server.seed(user: user, TestMessages.plain(id: "e1"))
        try server.seed(user: user, TestMessages.plain(id: "e2"), flags: "S")
        let before = server.files(user: user)
        let connection = try server.connect(user: user)
        defer { connection.close() }
        let status = try connection.open("INBOX", readOnly: true)
        XCTAssertTrue(status.readOnly)
        XCTAssertEqual(status.exists, 2)
        let fetched = try connection.fetch([1, 2]).sorted { $0.uid < $1.uid }
        XCTAssertEqual(fetched.map(\.flags), [[], ["\\Seen"]])
        // A read-only mailbox refuses changes, and none happen.
        XCTAssertThrowsError(try connection.store(FlagChange(.add, flags: ["\\Flagged"]), uids: [1]))
        XCTAssertEqual(server.files(user: user), before, "Maildir file names (flags) unchanged")
        let reopened = try connection.open("INBOX", readOnly: false)
        XCTAssertEqual(reopened.exists, 2)
        XCTAssertEqual(try connection.fetch([1, 2]).sorted { $0.uid < $1.uid }.map(\.flags), [[], ["\\Seen"]])
    }
}
