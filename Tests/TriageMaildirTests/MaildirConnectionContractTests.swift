import TriageTestSupport
import XCTest

/// `MailConnectionContract` against `MaildirConnection` on a local Maildir.
final class MaildirConnectionContractTests: XCTestCase {
    private func check(_ contract: (ContractBackend) throws -> Void) throws {
        let backend = try MaildirBackend()
        defer { backend.remove() }
        try contract(backend)
    }

    func testOpenAndUIDs() throws { try check(MailConnectionContract.openAndUIDs) }
    func testFetch() throws { try check(MailConnectionContract.fetch) }
    func testStoreFlagsAndLabels() throws { try check(MailConnectionContract.storeFlagsAndLabels) }
    func testMove() throws { try check(MailConnectionContract.move) }
    func testMissingFolder() throws { try check(MailConnectionContract.missingFolder) }
    func testFetchRequest() throws { try check(MailConnectionContract.fetchRequest) }
    func testFolders() throws { try check(MailConnectionContract.folders) }
    func testArchiveAndResume() throws { try check(MailConnectionContract.archiveAndResume) }
    func testMessageIDAndCreateFolder() throws { try check(MailConnectionContract.messageIDAndCreateFolder) }
}
