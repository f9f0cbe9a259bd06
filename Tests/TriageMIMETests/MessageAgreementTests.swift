import Foundation
import TriageCore
import TriageMIME
import XCTest

/// Our parser agrees with Python's `email` package (policy `default`) on decoded
/// addresses, subject, date (instant and offset), Message-ID and attachment
/// names, for the demo Maildir corpus and the non-nasty fixtures.
///
/// Deliberate differences are listed in `knownDifferences`, each with the value
/// we produce and why; the test checks our value there instead.
final class MessageAgreementTests: XCTestCase {
    /// file name -> field -> (our value, why Python's differs).
    static let knownDifferences: [String: [String: (ours: String, why: String)]] = [
        "encoded-words.eml": [
            "from": ("Zöe Åberg <zoe@example.se>",
                     "RFC 2047 section 6.2: whitespace between adjacent encoded words is ignored. " +
                     "Python keeps it in display names ('Zöe  Åberg', two spaces); libetpan drops it."),
        ],
        "attachment-names.eml": [
            "attachments": ("résumé.txt, very long file name split in two.doc, only-content-type-name.png, attachment, "
                            + "Отчёт.pdf, notes.txt",
                            "A part with Content-Disposition: attachment and no file name is an attachment to "
                            + "triage (named 'attachment', as over IMAP from BODYSTRUCTURE, so has:attachment "
                            + "holds); Python's get_filename() has no name for it."),
        ],
    ]

    func testAgreesWithPythonEmailOnCorpusAndFixtures() throws {
        let corpus = try Fixture.demoMessages()
        XCTAssertGreaterThanOrEqual(corpus.count, 30, "the realistic corpus has at least 30 messages")
        let fixtures = try FileManager.default
            .contentsOfDirectory(atPath: Fixture.directory.appendingPathComponent("messages").path)
            .sorted().map { Fixture.directory.appendingPathComponent("messages/" + $0) }
        XCTAssertGreaterThanOrEqual(fixtures.count, 5)
        let files = corpus + fixtures
        let reference = try pythonReference(files)
        XCTAssertEqual(reference.count, files.count)

        var comparisons = 0
        for file in files {
            let name = file.lastPathComponent
            guard let expected = reference[file.path] as? [String: Any] else {
                XCTFail("python gave nothing for \(name)")
                continue
            }
            let message = MessageParser.parse([UInt8](try Data(contentsOf: file)))
            let differences = Self.knownDifferences[name] ?? [:]
            let ours: [String: [Address]] = [
                "from": message.from, "to": message.to, "cc": message.cc,
                "bcc": message.bcc, "reply_to": message.replyTo,
            ]
            for (field, addresses) in ours {
                if let known = differences[field] {
                    XCTAssertEqual(addresses.map(\.displayString).joined(separator: ", "), known.ours, "\(name) \(field)")
                    continue
                }
                let theirs = (expected[field] as? [[String: Any]] ?? []).map {
                    Address(name: $0["name"] as? String, address: $0["address"] as? String ?? "")
                }
                XCTAssertEqual(addresses, theirs, "\(name) \(field)")
                comparisons += 1
            }
            XCTAssertEqual(message.subject, expected["subject"] as? String, "\(name) subject")
            XCTAssertEqual(message.messageID, expected["message_id"] as? String, "\(name) message_id")
            if let known = differences["attachments"] {
                XCTAssertEqual(message.attachments.joined(separator: ", "), known.ours, "\(name) attachments")
            } else {
                XCTAssertEqual(message.attachments, expected["attachments"] as? [String] ?? [], "\(name) attachments")
            }
            if let date = expected["date"] as? [String: Any] {
                XCTAssertEqual(message.date?.secondsSince1970, (date["epoch"] as? NSNumber)?.int64Value, "\(name) date instant")
                XCTAssertEqual(message.date?.utcOffsetSeconds, (date["offset"] as? NSNumber)?.intValue, "\(name) date offset")
            } else {
                XCTAssertNil(message.date, "\(name) date")
            }
            comparisons += 4
        }
        XCTAssertGreaterThan(comparisons, files.count * 8)
    }

    /// Runs the shared reference reader (Tests/Servers/parse_email.py) over
    /// `files`; path -> the fields compared here, in this test's terms: no
    /// display name is nil, the Message-ID loses its angle brackets, the date
    /// is its instant and offset.
    private func pythonReference(_ files: [URL]) throws -> [String: Any] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Servers/parse_email.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path] + files.map(\.path)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "python failed: \(errorText)")
        let lines = data.split(separator: UInt8(ascii: "\n"))
        XCTAssertEqual(lines.count, files.count, "one line per file")
        var result: [String: Any] = [:]
        for (file, line) in zip(files, lines) {
            var fields = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            for field in ["from", "to", "cc", "bcc", "reply_to"] {
                fields[field] = (fields[field] as? [[String: Any]] ?? []).map { address in
                    var address = address
                    if (address["name"] as? String)?.isEmpty ?? true { address["name"] = nil }
                    return address
                }
            }
            var id = (fields["message_id"] as? String)?.trimmingCharacters(in: .whitespaces)
            if let text = id, text.hasPrefix("<"), text.hasSuffix(">") { id = String(text.dropFirst().dropLast()) }
            fields["message_id"] = id?.isEmpty == false ? id : nil
            fields["date"] = fields["date_instant"]
            result[file.path] = fields
        }
        return result
    }
}
