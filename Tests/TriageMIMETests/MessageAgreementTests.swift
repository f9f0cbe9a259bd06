import Foundation
import TriageCore
@testable import TriageMIME
import XCTest

/// Our parser agrees with Python's `email` package (policy `default`) on decoded
/// addresses, subject, date (instant and offset), Message-ID and attachment
/// names, for the demo Maildir corpus and the non-nasty fixtures. Repeated To, Cc
/// and Bcc fields are compared with Python's `msg.get_all(name)`, all of them.
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
        "attachment-names-every-way.eml": [
            "attachments": ("naïve.pdf, Привет.pdf, Grüße\u{2013}Liste.txt, attachment, message.eml, été\u{2013}photo.png",
                            "ISO-8859-1 is windows-1252 as in every mail client (WHATWG), so 0x96 is an en dash; "
                            + "Python decodes it as the control U+0096. A nameless Content-Disposition: attachment "
                            + "part and an attached message count as attachments, as over IMAP."),
        ],
        "empty-address.eml": [
            "from": ("Mail Delivery System <>",
                     "The null reverse-path of a bounce: triage keeps the name with an empty address; "
                     + "Python gives the address as the text '<>'."),
        ],
        "latin1-c1.eml": [
            "subject": ("I\u{2019}m late \u{2013} sorry",
                        "ISO-8859-1 is windows-1252 (WHATWG): 0x92 is \u{2019} and 0x96 \u{2013}; Python gives C1 controls."),
            "snippet": ("I\u{2019}m late \u{2013} the \u{201C}meeting\u{201D} moved to 10 \u{20AC}.",
                        "ISO-8859-1 is windows-1252 (WHATWG); Python gives C1 controls."),
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
        var fixtures: [URL] = []
        for folder in ["messages", "misread"] {
            fixtures += try FileManager.default
                .contentsOfDirectory(atPath: Fixture.directory.appendingPathComponent(folder).path)
                .sorted().map { Fixture.directory.appendingPathComponent(folder + "/" + $0) }
        }
        XCTAssertGreaterThanOrEqual(fixtures.count, 17)
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
                // Every To, Cc and Bcc field counts, as in mail clients and Python's
                // `get_all`; of From and Reply-To only the first, as `msg[name]`.
                let key = ["to": "to_all", "cc": "cc_all", "bcc": "bcc_all"][field] ?? field
                let theirs = (expected[key] as? [[String: Any]] ?? []).map {
                    Address(name: $0["name"] as? String, address: $0["address"] as? String ?? "")
                }
                XCTAssertEqual(addresses, theirs, "\(name) \(field)")
                comparisons += 1
            }
            if let known = differences["subject"] {
                XCTAssertEqual(message.subject, known.ours, "\(name) subject")
            } else {
                XCTAssertEqual(message.subject, expected["subject"] as? String, "\(name) subject")
            }
            // The misread fixtures are about the text too: the snippet is Python's plain text, shortened.
            if file.path.contains("/misread/"), let text = expected["text"] as? String {
                if let known = differences["snippet"] {
                    XCTAssertEqual(message.snippet, known.ours, "\(name) snippet")
                } else {
                    XCTAssertEqual(message.snippet, Snippet.make(text), "\(name) snippet")
                }
                comparisons += 1
            }
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
            for field in ["from", "to", "cc", "bcc", "reply_to", "to_all", "cc_all", "bcc_all"] {
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
