import Foundation
import TriageCore
import XCTest

/// What `triage run` relies on from any `MailConnection`, checked the same way
/// against each backend: the same operations must give the same observable results.
public enum MailConnectionContract {
    /// The arrival times of the seeded messages (the first, and the other two).
    public static let first = date(1_700_000_000), second = date(1_700_000_100)

    /// The messages every check starts from, with CRLF line ends (as IMAP sends
    /// them), so both backends can return the very same bytes.
    public static let messages = [
        TestMessages.plain(id: "one", subject: "First"),
        TestMessages.plain(id: "two", subject: "Second"),
        TestMessages.plain(id: "three", subject: "Third"),
    ].map { String(decoding: TestMessages.wire($0), as: UTF8.self) }

    /// UID 1 read and flagged, UID 2 without flags, UID 3 answered.
    public static func seed(_ backend: ContractBackend) throws {
        try backend.seed(messages[0], mailbox: "INBOX", flags: "SF", date: first)
        try backend.seed(messages[1], mailbox: "INBOX", flags: "", date: second)
        try backend.seed(messages[2], mailbox: "INBOX", flags: "R", date: second)
    }

    /// `open` reports the counts and UIDVALIDITY, and UIDs stay the same across sessions.
    public static func openAndUIDs(_ backend: ContractBackend) throws {
        try seed(backend)
        let connection = try backend.connect()
        defer { connection.close() }
        let status = try connection.open("INBOX", readOnly: false)
        XCTAssertEqual(status.exists, 3, backend.name)
        XCTAssertEqual(status.uidNext, 4, backend.name)
        XCTAssertGreaterThan(status.uidValidity, 0, backend.name)
        XCTAssertFalse(status.readOnly, backend.name)
        XCTAssertEqual(try connection.uids(above: 0), [1, 2, 3], backend.name)
        XCTAssertEqual(try connection.uids(above: 1), [2, 3], backend.name)
        XCTAssertEqual(try connection.uids(above: 3), [], backend.name)
        // The numbering stays: a second session sees the same UIDVALIDITY and UIDs.
        let again = try backend.connect()
        defer { again.close() }
        let reopened = try again.open("INBOX", readOnly: true)
        XCTAssertEqual(reopened.uidValidity, status.uidValidity, backend.name)
        XCTAssertTrue(reopened.readOnly, backend.name)
        XCTAssertEqual(try again.uids(above: 0), [1, 2, 3], backend.name)
    }

    /// `fetch` returns flags, dates, sizes and the exact bytes, skips missing UIDs and marks nothing read.
    public static func fetch(_ backend: ContractBackend) throws {
        try seed(backend)
        let connection = try backend.connect()
        defer { connection.close() }
        _ = try connection.open("INBOX", readOnly: false)
        let fetched = try connection.fetch([1, 2, 3, 9]).sorted { $0.uid < $1.uid }
        XCTAssertEqual(fetched.map(\.uid), [1, 2, 3], "\(backend.name): a UID that does not exist is absent")
        XCTAssertEqual(fetched.map(\.flags), [["\\Seen", "\\Flagged"], [], ["\\Answered"]], backend.name)
        XCTAssertEqual(fetched.map(\.labels), [[], [], []], backend.name)
        XCTAssertEqual(fetched.map(\.internalDate), [1_700_000_000, 1_700_000_100, 1_700_000_100], backend.name)
        XCTAssertEqual(fetched.map(\.size), messages.map(\.utf8.count), backend.name)
        XCTAssertEqual(fetched.map(\.bytes), messages.map { Array($0.utf8) }, backend.name)
        XCTAssertTrue(fetched.allSatisfy(\.isComplete), backend.name)
        XCTAssertEqual(try connection.fetch([]), [], backend.name)
        // Fetching marked nothing read.
        XCTAssertEqual(try connection.fetch([2]).first?.flags, [], backend.name)
    }

    /// `store` adds and removes flags and labels idempotently, on the server, not in the connection.
    public static func storeFlagsAndLabels(_ backend: ContractBackend) throws {
        try seed(backend)
        let connection = try backend.connect()
        defer { connection.close() }
        _ = try connection.open("INBOX", readOnly: false)
        try connection.store(FlagChange(.add, flags: ["\\Seen"], labels: ["no push"]), uids: [2, 3])
        // Idempotent: the same change again changes nothing.
        try connection.store(FlagChange(.add, flags: ["\\Seen"], labels: ["no push"]), uids: [2, 3])
        try connection.store(FlagChange(.remove, flags: ["\\Flagged"]), uids: [1])
        var fetched = try connection.fetch([1, 2, 3]).sorted { $0.uid < $1.uid }
        XCTAssertEqual(fetched.map(\.flags), [["\\Seen"], ["\\Seen"], ["\\Seen", "\\Answered"]], backend.name)
        // The keyword is spelled `no_push` (LabelCodec) and reads back so: the same label to `label:`.
        XCTAssertEqual(fetched.map(\.labels), [[], ["no_push"], ["no_push"]], backend.name)

        try connection.store(FlagChange(.remove, flags: ["\\Seen"], labels: ["no push"]), uids: [3])
        fetched = try connection.fetch([2, 3]).sorted { $0.uid < $1.uid }
        XCTAssertEqual(fetched.map(\.flags), [["\\Seen"], ["\\Answered"]], backend.name)
        XCTAssertEqual(fetched.map(\.labels), [["no_push"], []], backend.name)

        // Another session sees the changes: they are on the server (in the files), not in the connection.
        let other = try backend.connect()
        defer { other.close() }
        _ = try other.open("INBOX", readOnly: true)
        XCTAssertEqual(try other.fetch([2]).first?.labels, ["no_push"], backend.name)
    }

    /// `move` takes the message, with its labels and arrival time, to another folder.
    public static func move(_ backend: ContractBackend) throws {
        try seed(backend)
        let connection = try backend.connect()
        defer { connection.close() }
        _ = try connection.open("INBOX", readOnly: false)
        try connection.store(FlagChange(.add, labels: ["kept"]), uids: [2])
        try connection.move([2], to: "Archive")
        XCTAssertEqual(try connection.uids(above: 0), [1, 3], "\(backend.name): only the moved UID left")
        XCTAssertEqual(try connection.fetch([2]), [], backend.name)

        let archive = try connection.open("Archive", readOnly: false)
        XCTAssertEqual(archive.exists, 1, backend.name)
        let uids = try connection.uids(above: 0)
        XCTAssertEqual(uids.count, 1, backend.name)
        let moved = try XCTUnwrap(connection.fetch(uids).first, backend.name)
        XCTAssertEqual(moved.bytes, Array(messages[1].utf8), backend.name)
        XCTAssertEqual(moved.labels, ["kept"], "\(backend.name): a label travels with the message")
        XCTAssertEqual(moved.internalDate, 1_700_000_100, backend.name)
    }

    /// A missing folder is `MailError.missingFolder` for `move` and `open`, and changes nothing.
    public static func missingFolder(_ backend: ContractBackend) throws {
        try seed(backend)
        let connection = try backend.connect()
        defer { connection.close() }
        _ = try connection.open("INBOX", readOnly: false)
        XCTAssertThrowsError(try connection.move([1], to: "Nowhere"), backend.name) { error in
            XCTAssertEqual((error as? MailError)?.kind, .missingFolder, "\(backend.name): \(error)")
        }
        XCTAssertEqual(try connection.uids(above: 0), [1, 2, 3], "\(backend.name): the messages stay where they are")
        // The connection is still usable.
        XCTAssertEqual(try connection.fetch([1]).map(\.uid), [1], backend.name)

        XCTAssertThrowsError(try connection.open("Nowhere", readOnly: false), backend.name) { error in
            XCTAssertEqual((error as? MailError)?.kind, .missingFolder, "\(backend.name): \(error)")
        }
    }

    /// A `FetchRequest` brings at least what it asks: the header (or its named fields),
    /// flags, size; a shorter text only where the traits say so, and then no more of it.
    public static func fetchRequest(_ backend: ContractBackend) throws {
        try seed(backend)
        let connection = try backend.connect()
        defer { connection.close() }
        _ = try connection.open("INBOX", readOnly: true)
        let fields = try connection.fetch(FetchRequest([3, 2], parts: [], headerFields: ["SUBJECT", "MESSAGE-ID"]))
        XCTAssertEqual(fields.map(\.uid).sorted(), [2, 3], backend.name)
        let second = try XCTUnwrap(fields.first { $0.uid == 2 }, backend.name)
        XCTAssertTrue(String(decoding: second.header, as: UTF8.self).contains("Subject: Second\r\n"), backend.name)
        XCTAssertEqual(second.size, messages[1].utf8.count, "\(backend.name): the size is the whole message's")
        XCTAssertEqual(second.flags, [], backend.name)

        let short = try connection.fetch([2], textPrefix: 4)
        if connection.traits.fetchesTextPrefix {
            let message = try XCTUnwrap(short?.first, backend.name)
            XCTAssertLessThanOrEqual(message.bodyPrefix.count, 4, backend.name)
            XCTAssertFalse(message.bodyPrefix.isEmpty, backend.name)
            XCTAssertFalse(message.isComplete, backend.name)
        } else {
            XCTAssertNil(short, "\(backend.name): no shorter text where the traits say none")
        }
        // Old call shapes and the request agree.
        XCTAssertEqual(try connection.fetch([1, 2]).map(\.bytes), try connection.fetch(FetchRequest([1, 2])).map(\.bytes), backend.name)
    }

    /// `createFolder` makes a folder `open` finds, empty; again it changes nothing. Folder
    /// resolution maps the name there and back, a listing (where there is one) names it,
    /// and a message can be moved into it.
    public static func folders(_ backend: ContractBackend) throws {
        try seed(backend)
        let connection = try backend.connect()
        defer { connection.close() }
        let name = "Lists/contract"
        XCTAssertThrowsError(try connection.open(name, readOnly: true), backend.name) { error in
            XCTAssertEqual((error as? MailError)?.kind, .missingFolder, "\(backend.name): \(error)")
        }
        try connection.createFolder(name)
        try connection.createFolder(name)
        XCTAssertEqual(try connection.open(name, readOnly: false).exists, 0, backend.name)
        XCTAssertEqual(try connection.serverFolder("INBOX"), "INBOX", backend.name)
        XCTAssertEqual(try connection.folderNamespace().ruleName(connection.serverFolder(name)), name, backend.name)
        if let list = try connection.folderList() {
            XCTAssertTrue(list.contains(name), "\(backend.name): \(list)")
            XCTAssertTrue(list.contains("Archive"), "\(backend.name): \(list)")
        }
        _ = try connection.open("INBOX", readOnly: false)
        try connection.move([1], to: name)
        XCTAssertEqual(try connection.open(name, readOnly: true).exists, 1, backend.name)
        // Nothing went wrong, so there is nothing to tell.
        XCTAssertEqual(connection.takeNotices(), [], backend.name)
    }

    /// The archive folder: one the connection makes (`makesArchiveFolder`) or marks
    /// `\Archive` exists; a resumed move with nothing journaled simply moves.
    public static func archiveAndResume(_ backend: ContractBackend) throws {
        try seed(backend)
        let connection = try backend.connect()
        defer { connection.close() }
        let traits = connection.traits
        let archive = try connection.archiveFolder(create: true)
        if traits.makesArchiveFolder { XCTAssertNotNil(archive, backend.name) }
        if let archive { XCTAssertNoThrow(try connection.open(archive, readOnly: true), backend.name) }
        XCTAssertFalse(traits.isGmail, backend.name)
        XCTAssertEqual(traits.canSearch, connection.canSearch, backend.name)

        _ = try connection.open("INBOX", readOnly: false)
        try connection.resumeMove([3], to: "Archive", attempts: [], recorder: nil)
        XCTAssertEqual(try connection.uids(above: 0), [1, 2], backend.name)
        XCTAssertEqual(try connection.open("Archive", readOnly: true).exists, 1, backend.name)
    }

    /// What the snooze's wake asks: the messages of the open mailbox with a Message-ID,
    /// compared whole (`wo@example.test` is not `two@example.test`), and a folder made
    /// unless it is there.
    public static func messageIDAndCreateFolder(_ backend: ContractBackend) throws {
        try seed(backend)
        let connection = try backend.connect()
        defer { connection.close() }
        _ = try connection.open("INBOX", readOnly: false)
        XCTAssertEqual(try connection.messageUIDs(withMessageID: "two@example.test"), [2], backend.name)
        XCTAssertEqual(try connection.messageUIDs(withMessageID: "wo@example.test"), [], "\(backend.name): the whole id")
        XCTAssertEqual(try connection.messageUIDs(withMessageID: "nine@example.test"), [], backend.name)

        try connection.createFolder("Snoozed")
        try connection.createFolder("Snoozed")  // there already: nothing to do
        _ = try connection.open("INBOX", readOnly: false)
        try connection.move([2], to: "Snoozed")
        _ = try connection.open("Snoozed", readOnly: false)
        let moved = try connection.messageUIDs(withMessageID: "two@example.test")
        XCTAssertEqual(moved.count, 1, "\(backend.name): found in the new folder under its new UID")
        XCTAssertEqual(try connection.messageUIDs(withMessageID: "one@example.test"), [], backend.name)
    }

    private static func date(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }
}
