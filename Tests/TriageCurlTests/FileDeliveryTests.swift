import Foundation
import TriageCore
import TriageCurl
import TriageTestSupport
import XCTest

/// `file:DIR` delivery.
final class FileDeliveryTests: XCTestCase {
    private func message(_ id: String) throws -> ComposedMessage {
        try MIMEComposer().compose(OutgoingMail(
            from: Address(address: "triage@example.test"), to: [Address(address: "me@example.test")],
            subject: "Digest ✓", date: MessageDate(secondsSince1970: 1_700_000_000, utcOffsetSeconds: 0),
            messageID: id, textBody: "text\n", htmlBody: "<p>html</p>\n"))
    }

    private func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("triage-filedelivery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func testWritesOnePrivateEMLFilePerMessage() throws {
        let root = try temporaryDirectory()
        let folder = root.appendingPathComponent("digests/new").path
        let endpoint = try DeliveryEndpoint(parsing: "file:" + folder)
        let delivery = MailDeliveryFactory.make(endpoint)
        let first = try message("digest-2026-11-30@triage.example.test")
        try delivery.deliver(first)

        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        XCTAssertEqual(names, ["digest-2026-11-30@triage.example.test.eml"])
        let path = folder + "/" + names[0]
        XCTAssertEqual(try mode(path), 0o600)
        XCTAssertEqual(try mode(folder), 0o700)
        XCTAssertEqual(try mode(root.appendingPathComponent("digests").path), 0o700)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data(first.text.utf8))
        let parsed = try SMTPTestMailParser.parse(URL(fileURLWithPath: path))
        XCTAssertEqual(parsed.subject, "Digest ✓")
        XCTAssertEqual(parsed.text, "text\n")

        // The same Message-ID again (a retried send) replaces the file; another one adds a file.
        try delivery.deliver(first)
        try delivery.deliver(try message("digest-2026-12-01@triage.example.test"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(),
                       ["digest-2026-11-30@triage.example.test.eml", "digest-2026-12-01@triage.example.test.eml"])
    }

    func testFileNameIsSafe() throws {
        let name = FileDelivery.fileName(for: try message("<../../etc/passwd@x/y>"))
        XCTAssertFalse(name.contains("/"))
        XCTAssertTrue(name.hasSuffix(".eml"))
        XCTAssertFalse(name.hasPrefix("."))
    }

    func testUnwritableFolderIsAWriteError() throws {
        let root = try temporaryDirectory()
        let file = root.appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        let delivery = FileDelivery(directory: file.path + "/sub")
        XCTAssertThrowsError(try delivery.deliver(try message("a@b"))) { error in
            let error = error as? MailDeliveryError
            XCTAssertEqual(error?.step, .write)
            XCTAssertEqual(error?.exitStatus, .tempFail)
            XCTAssertTrue(error?.message.contains(file.path) ?? false, error?.message ?? "")
        }
    }
}
