import TriageTestSupport
import XCTest

/// `MailConnectionContract` against `IMAPConnection` and a real Dovecot.
final class IMAPConnectionContractTests: XCTestCase {
    func testOpenAndUIDs() throws { try MailConnectionContract.openAndUIDs(DovecotBackend()) }
    func testFetch() throws { try MailConnectionContract.fetch(DovecotBackend()) }
    func testStoreFlagsAndLabels() throws { try MailConnectionContract.storeFlagsAndLabels(DovecotBackend()) }
    func testMove() throws { try MailConnectionContract.move(DovecotBackend()) }
    func testMissingFolder() throws { try MailConnectionContract.missingFolder(DovecotBackend()) }
    func testFetchRequest() throws { try MailConnectionContract.fetchRequest(DovecotBackend()) }
    func testFolders() throws { try MailConnectionContract.folders(DovecotBackend()) }
    func testArchiveAndResume() throws { try MailConnectionContract.archiveAndResume(DovecotBackend()) }
    func testMessageIDAndCreateFolder() throws { try MailConnectionContract.messageIDAndCreateFolder(DovecotBackend()) }
}
