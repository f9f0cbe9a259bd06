import TriageTestSupport
import XCTest

/// `MailConnectionContract` against the in-memory connection the run's unit tests use,
/// so what they show holds for IMAP and Maildir too (the same checks run there).
final class InMemoryConnectionContractTests: XCTestCase {
    func testOpenAndUIDs() throws { try MailConnectionContract.openAndUIDs(InMemoryBackend()) }
    func testFetch() throws { try MailConnectionContract.fetch(InMemoryBackend()) }
    func testStoreFlagsAndLabels() throws { try MailConnectionContract.storeFlagsAndLabels(InMemoryBackend()) }
    func testMove() throws { try MailConnectionContract.move(InMemoryBackend()) }
    func testMissingFolder() throws { try MailConnectionContract.missingFolder(InMemoryBackend()) }
    func testFetchRequest() throws { try MailConnectionContract.fetchRequest(InMemoryBackend()) }
    func testFolders() throws { try MailConnectionContract.folders(InMemoryBackend()) }
    func testArchiveAndResume() throws { try MailConnectionContract.archiveAndResume(InMemoryBackend()) }
    func testMessageIDAndCreateFolder() throws { try MailConnectionContract.messageIDAndCreateFolder(InMemoryBackend()) }

    /// With a shorter text in its traits, the in-memory server cuts it as IMAP does
    /// (the contract's other branch).
    func testFetchRequestWithShorterText() throws {
        let backend = InMemoryBackend()
        backend.first.server.traits.fetchesTextPrefix = true
        try MailConnectionContract.fetchRequest(backend)
    }
}
