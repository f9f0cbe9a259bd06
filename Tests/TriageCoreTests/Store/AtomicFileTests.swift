import Foundation
import TriageCore
import XCTest

/// `AtomicFile`, the one way files are replaced: exact modes, no symlink followed
/// at the temporary or the final name, nothing visible before the rename, nothing
/// left behind on failure.
final class AtomicFileTests: XCTestCase {
    private var folder = ""
    private var target: String { folder + "/file.json" }
    private var victim: String { folder + "/victim" }

    override func setUpWithError() throws {
        folder = StoreFixtures.freshFolder()
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    func testReplacesTheFileWithTheModeAskedWhateverTheUmask() throws {
        let old = umask(0o077)
        defer { umask(old) }
        try AtomicFile.write(path: target, data: Data("one".utf8), mode: 0o640)
        XCTAssertEqual(StoreFixtures.mode(target), 0o640)
        try AtomicFile.write(path: target, data: Data("two".utf8), durable: false)
        XCTAssertEqual(StoreFixtures.bytes(target), Data("two".utf8))
        XCTAssertEqual(StoreFixtures.mode(target), 0o600, "the default mode is private")
        XCTAssertEqual(names(), ["file.json", "victim"], "no temporary file is left")
    }

    func testALinkPlantedAtTheTemporaryNameIsNotWrittenThrough() throws {
        XCTAssertEqual(symlink(victim, folder + "/.tmp-file.json.guessed"), 0)
        var random = ["guessed", "fresh"]
        try AtomicFile.write(path: target, data: Data("new".utf8), temporaryName: { random.removeFirst() })
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n")
        XCTAssertEqual(StoreFixtures.bytes(target), Data("new".utf8))
        XCTAssertTrue(random.isEmpty, "the taken name was skipped for a fresh one")
    }

    func testEveryTemporaryNameTakenIsAnErrorNamingTheFile() throws {
        XCTAssertEqual(symlink(victim, folder + "/.tmp-file.json.same"), 0)
        XCTAssertThrowsError(try AtomicFile.write(path: target, data: Data("x".utf8), temporaryName: { "same" })) { error in
            guard case StoreError.io(let path, let operation, let code)? = error as? StoreError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(path, self.target)
            XCTAssertEqual(code, EEXIST)
            XCTAssertTrue(operation.contains("\(AtomicFile.attempts) temporary names"), operation)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n")
    }

    func testALinkAtTheFinalNameIsReplacedNotFollowed() throws {
        XCTAssertEqual(symlink(victim, target), 0)
        try AtomicFile.write(path: target, data: Data("new".utf8))
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n")
        var info = stat()
        XCTAssertEqual(lstat(target, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFREG)
    }

    func testAMissingFolderIsAnErrorNamingTheFile() {
        let path = folder + "/missing/file.json"
        XCTAssertThrowsError(try AtomicFile.write(path: path, data: Data())) { error in
            XCTAssertEqual(error as? StoreError, .io(path: path, operation: "create a temporary file to write", errno: ENOENT))
        }
    }

    func testAStagedFileIsInvisibleUntilRenamedAndDiscardLeavesNothing() throws {
        let staged = try AtomicFile.Staged(path: target, data: Data("staged".utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        XCTAssertTrue(staged.temporary.hasPrefix(folder + "/" + AtomicFile.tempPrefix + "file.json."), staged.temporary)
        try staged.flush()
        try staged.rename()
        XCTAssertEqual(StoreFixtures.bytes(target), Data("staged".utf8))

        let dropped = try AtomicFile.Staged(path: target, data: Data("dropped".utf8))
        dropped.discard()
        XCTAssertEqual(StoreFixtures.bytes(target), Data("staged".utf8))
        XCTAssertEqual(names(), ["file.json", "victim"])
    }

    func testTemporaryNamesAreUnpredictable() {
        let random = (0..<200).map { _ in AtomicFile.randomName() }
        XCTAssertEqual(Set(random).count, random.count)
        XCTAssertTrue(random.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) }, "\(random.prefix(3))")
    }
}
