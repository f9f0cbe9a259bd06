import Foundation
import TriageCore
import XCTest

/// The texts records need are fetched as a 2 KiB prefix first (`BODY.PEEK[TEXT]<0.2048>`)
/// and at full length only when the prefix does not settle the snippet: against a real
/// Dovecot, a run that way and a run that fetches every text at full length
/// (`TRIAGE_WHOLE_SNIPPET=1`) write byte-identical records.
final class SnippetPrefixRunTests: XCTestCase {
    private let rules = """
    rule "everything to the digest"
      when header:Subject:*
      then digest "All"
    """

    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The demo Maildir's messages and long ones whose snippet a prefix settles or not.
    private func messages() throws -> [[UInt8]] {
        var all: [[UInt8]] = []
        for sub in ["cur", "new"] {
            let folder = Self.packageRoot.appendingPathComponent("Examples/demo/Maildir/" + sub)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where !name.hasPrefix(".") {
                all.append([UInt8](try Data(contentsOf: folder.appendingPathComponent(name))))
            }
        }
        let prose = (0..<300).map { "Zeile \($0): Grüße aus Köln, naïve café — 東京の天気 ok.\n" }.joined()
        let base64 = Data(prose.utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed])
        func long(_ id: String, _ head: String, _ body: String) -> [UInt8] {
            Array(("From: a@example.test\nTo: me@example.test\nSubject: long \(id)\nMessage-ID: <\(id)@example.test>\n"
                   + "Date: Mon, 30 Nov 2026 08:00:00 +0000\nMIME-Version: 1.0\n" + head + "\n\n" + body).utf8)
        }
        all.append(long("b64", "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64", base64))
        all.append(long("html", "Content-Type: text/html; charset=utf-8", "<style>p{}</style><p>" + prose + "</p>"))
        all.append(long("alt", "Content-Type: multipart/alternative; boundary=\"b\"",
                        "--b\nContent-Type: text/plain; charset=utf-8\n\n" + prose + "\n--b\nContent-Type: text/html\n\n<p>x</p>\n--b--\n"))
        all.append(long("late", "Content-Type: multipart/mixed; boundary=\"b\"",
                        "--b\nContent-Type: text/html\n\n<p>" + prose + "</p>\n--b\nContent-Type: text/plain; charset=utf-8\n\nThe plain one.\n--b--\n"))
        all.append(long("unlabelled", "Content-Type: text/plain", prose))
        // A list message (the summary's `list` comes from the snippet fetch's fields),
        // and one without a Message-ID (its identity needs the whole header).
        all.append(long("listed", "List-Id: Dev list <dev.lists.example.test>\nContent-Type: text/plain; charset=utf-8",
                        prose))
        all.append(Array(("From: b@example.test\nTo: me@example.test\nSubject: long without id\n"
                          + "List-Id: <ops.lists.example.test>\nDate: Mon, 30 Nov 2026 08:00:00 +0000\n"
                          + "Content-Type: text/plain; charset=utf-8\n\n" + prose).utf8))
        return all
    }

    func testPrefixFetchWritesTheSameRecordsAsTheWholeText() throws {
        let server = try DovecotServer.shared()
        let seeded = try messages()
        func outcome(whole: Bool) throws -> (store: [String], trace: String) {
            let name = try server.makeUser(whole ? "snipwhole" : "snipprefix")
            for bytes in seeded { try server.seed(user: name, bytes: bytes) }
            let folder = try TestFolder(whole ? "snipwhole" : "snipprefix", rules: rules)
            defer { folder.remove() }
            try folder.writeConfig(url: "imaps://localhost:\(server.imapsPort)", user: name, caFile: server.caFile)
            var environment = ["TRIAGE_TRACE": "1"]
            if whole {
                environment["TRIAGE_WHOLE_SNIPPET"] = "1"
                environment["TRIAGE_WHOLE_HEADER"] = "1"
            }
            let run = try folder.triage(["run", "--all", "--verbose", "--now", "2026-11-30T09:00:00Z"], environment: environment)
            XCTAssertEqual(run.status, 0, run.err)
            return (folder.storeLines().sorted(), run.out + run.err)
        }
        let whole = try outcome(whole: true)
        let prefix = try outcome(whole: false)
        XCTAssertEqual(prefix.store, whole.store)
        XCTAssertGreaterThanOrEqual(whole.store.count, seeded.count - 2, "a record for (nearly) every message")
        XCTAssertTrue(prefix.trace.contains("BODY.PEEK[TEXT]<0.2048>"), prefix.trace)
        // Messages classified from named fields get only the fields the snippet and the
        // summary add (no whole header, no BODYSTRUCTURE) with their prefix; the one
        // without a Message-ID alone gets its whole header.
        // (The trace cuts a long command line: the start of the list is what it shows.)
        XCTAssertTrue(prefix.trace.contains("BODY.PEEK[HEADER.FIELDS (AUTHENTICATION-RESULTS CONTENT-DISPOSITION "
                                            + "CONTENT-TRANSFER-ENCODING CONTENT-TYPE DKIM-S"), prefix.trace)
        let wholeHeaderPrefix = prefix.trace.components(separatedBy: "\n")
            .filter { $0.contains("BODY.PEEK[HEADER] BODY.PEEK[TEXT]<0.2048>") }
        XCTAssertEqual(wholeHeaderPrefix.count, 1, wholeHeaderPrefix.joined(separator: "\n"))
        XCTAssertTrue(whole.store.contains { $0.contains("dev.lists.example.test") }, "\(whole.store)")
        XCTAssertTrue(whole.store.contains { $0.contains("long without id") }, "\(whole.store)")
        // The unsettled ones (HTML, the late text/plain, unlabelled 8-bit) are fetched whole after.
        XCTAssertTrue(prefix.trace.contains("BODY.PEEK[TEXT]<0.32768>"), prefix.trace)
        XCTAssertFalse(whole.trace.contains("<0.2048>"), whole.trace)
        XCTAssertTrue(whole.store.contains { $0.contains("The plain one.") }, "\(whole.store)")
        XCTAssertTrue(whole.store.contains { $0.contains("Zeile 0: Grüße aus Köln") }, "\(whole.store)")
    }
}
