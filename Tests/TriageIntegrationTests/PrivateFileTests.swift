import Foundation
import TriageCore
@testable import triage
import XCTest

/// `PrivateFile.write` (`export ics --output`) where someone who can write to the
/// folder planted symlinks: it never writes through one.
final class PrivateFileTests: XCTestCase {
    private var folder = ""
    private var output: String { folder + "/out.ics" }
    private var victim: String { folder + "/victim" }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.path + "/triage-private-file-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func isRegularPrivateFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_mode & 0o777 == 0o600
    }

    func testALinkPlantedAtTheTemporaryNameIsNotWrittenThrough() throws {
        let planted = folder + "/.tmp-out.ics.guessed"
        XCTAssertEqual(symlink(victim, planted), 0)
        var names = ["guessed", "fresh"]
        try PrivateFile.write(Data("BEGIN:VCALENDAR\r\n".utf8), to: output, temporaryName: { names.removeFirst() })
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n")
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), "BEGIN:VCALENDAR\r\n")
        XCTAssertTrue(isRegularPrivateFile(output))
        XCTAssertTrue(names.isEmpty, "the taken name was skipped for a fresh one")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(),
                       [".tmp-out.ics.guessed", "out.ics", "victim"])
    }

    func testEveryNameTakenIsAnErrorAndWritesNothing() throws {
        XCTAssertEqual(symlink(victim, folder + "/.tmp-out.ics.same"), 0)
        XCTAssertThrowsError(try PrivateFile.write(Data("x".utf8), to: output, temporaryName: { "same" })) { error in
            XCTAssertTrue("\(error)".contains("temporary names"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    func testALinkAtTheFinalNameIsReplacedNotFollowed() throws {
        XCTAssertEqual(symlink(victim, output), 0)
        try PrivateFile.write(Data("new\n".utf8), to: output)
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n")
        XCTAssertTrue(isRegularPrivateFile(output))
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), "new\n")
    }

    func testTemporaryNamesAreUnpredictable() {
        let names = (0..<200).map { _ in AtomicFile.randomName() }
        XCTAssertEqual(Set(names).count, names.count)
        XCTAssertTrue(names.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) }, "\(names.prefix(3))")
    }
}
