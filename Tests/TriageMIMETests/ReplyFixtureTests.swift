import Foundation
import TriageCore
@testable import TriageMIME
import XCTest

/// Replies to the digest as mail clients send them, through the path a run takes
/// (`MessageParser.replyBody` → `ReplyReader` → `DigestCommandReader`): each obeys
/// exactly the command above the quote and nothing of the quoted digest below it,
/// which holds `done 6aa8`, `reopen ae6b`, `> done 21c1` and the digest's footer.
///
/// The fixtures (`Fixtures/replies/*.eml`, written by `make-fixtures.py` there)
/// follow the shapes of public reply-parsing projects' test data
/// (crisp-oss/email-reply-parser `test/fixtures`, mailgun/talon `tests/fixtures`,
/// zapier/email-reply-parser): Gmail, Apple Mail / iOS Mail, Outlook (desktop,
/// web, iOS, Android, Hotmail), Thunderbird, Yahoo, Android mail, in 13 languages,
/// text and HTML, 8bit, quoted-printable and base64, LF and CRLF, format=flowed.
/// Their text is our own.
final class ReplyFixtureTests: XCTestCase {
    let key = DigestKey(secret: Array("0123456789abcdef0123456789abcdef".utf8))
    let ids = ["0162", "6aa8", "ae6b", "21c1"].map { $0 + String(repeating: "0", count: 27) + "1" }
    var reader: DigestCommandReader { DigestCommandReader(addresses: ["me@example.test"], key: key) }

    /// The answered digest's record: it showed all four items, and was sent an hour before the replies are read.
    var digests: [DigestShownLedger.Shown] {
        [DigestShownLedger.Shown(messageID: digestID, day: "2030-01-15", sent: "2030-01-15T08:00:00Z", ids: ids.sorted())]
    }
    let now = Date(timeIntervalSince1970: 1_894_698_000)  // 2030-01-15T09:00:00Z

    var digestID: String {
        var builder = DigestMessageBuilder(from: "triage@example.test", to: "me@example.test",
                                           timeZone: TimeZone(identifier: "America/Chicago")!)
        builder.key = key
        return builder.messageID(day: CivilDate(year: 2030, month: 1, day: 15))
    }

    static var folder: URL { Fixture.directory.appendingPathComponent("replies") }

    /// The fixture `name` with the digest's Message-ID filled in.
    func fixture(_ name: String) throws -> [UInt8] {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
        return Array(text.replacingOccurrences(of: "{{DIGEST}}", with: digestID).utf8)
    }

    static func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".eml") }.sorted()
    }

    /// What the fixture says the reader must obey (`X-Test-Expect: done 0162`).
    func expected(_ bytes: [UInt8]) throws -> [DigestCommand] {
        let text = String(decoding: bytes, as: UTF8.self)
        let line = try XCTUnwrap(text.split(whereSeparator: \.isNewline).first { $0.hasPrefix("X-Test-Expect: ") })
        switch line.dropFirst("X-Test-Expect: ".count) {
        case "done 0162": return [DigestCommand(verb: .done, kind: "reminders", id: ids[0])]
        case "snooze 21c1 3 days": return [DigestCommand(verb: .snooze(days: 3), kind: "reminders", id: ids[3])]
        default: XCTFail("unknown expectation \(line)"); return []
        }
    }

    func verdict(_ body: ReplyBody, _ message: Message, complete: Bool = true) -> DigestCommandReader.Verdict {
        reader.read(message, reply: ReplyReader.read(body, complete: complete),
                    reminderIDs: [ids[0], ids[3]], queueIDs: [ids[1], ids[2]], digests: digests, now: now)
    }

    func testEveryReplyShapeObeysExactlyTheCommandAboveTheQuote() throws {
        let names = try Self.names()
        XCTAssertGreaterThanOrEqual(names.count, 40)
        var failures: [String] = []
        for name in names {
            let bytes = try fixture(name)
            let message = MessageParser.parse(bytes)
            XCTAssertTrue(reader.isCandidate(message), name)
            let body = MessageParser.replyBody(bytes, complete: true)
            let want = DigestCommandReader.Verdict.apply(try expected(bytes))
            let got = verdict(body, message)
            if got != want { failures.append("\(name): \(got)") }
            // A multipart/alternative reply: each part alone says the same (the HTML
            // is read when the text part has no command).
            if let plain = body.plain, let html = body.html {
                for (label, part) in [("text", ReplyBody(plain: plain)), ("html", ReplyBody(html: html))] {
                    let alone = verdict(part, message)
                    if alone != want { failures.append("\(name) (\(label) part alone): \(alone)") }
                }
            }
        }
        XCTAssertEqual(failures, [], "\n" + failures.joined(separator: "\n"))
    }

    /// The path a run took before the reader (the first text part, else the HTML as
    /// one line, cut at English markers only): how many shapes it gets wrong, as
    /// the whole message and as each part of a multipart reply alone.
    func testTheOldReadingGotManyOfThemWrong() throws {
        var wrong: [String] = []
        var shapes = 0
        for name in try Self.names() {
            let bytes = try fixture(name)
            let message = MessageParser.parse(bytes)
            let want = DigestCommandReader.Verdict.apply(try expected(bytes))
            func old(_ text: String) -> DigestCommandReader.Verdict {
                reader.read(message, reply: .userLines(oldLines(text)), reminderIDs: [ids[0], ids[3]], queueIDs: [ids[1], ids[2]],
                            digests: digests, now: now)
            }
            var texts = [(name, MessageParser.bodyText(bytes))]
            let body = MessageParser.replyBody(bytes, complete: true)
            if body.plain != nil, body.html != nil {
                // The HTML alone, as the old code flattened it (what it read of an HTML-only reply).
                let html = try XCTUnwrap(String(decoding: bytes, as: UTF8.self).components(separatedBy: "Content-Type: text/html").last)
                let alone = Array(("From: me@example.test\nContent-Type: text/html" + html).utf8)
                texts.append((name + " (html part alone)", MessageParser.bodyText(alone)))
            }
            for (label, text) in texts {
                shapes += 1
                if old(text) != want { wrong.append(label) }
            }
        }
        print("reply shapes the old reading got wrong: \(wrong.count) of \(shapes):\n" + wrong.joined(separator: "\n"))
        XCTAssertGreaterThan(wrong.count, 40)
    }

    /// The old loop's stop markers (`DigestCommandReader` before `ReplyReader`).
    private func oldLines(_ body: String) -> [String] {
        var lines: [String] = []
        for raw in body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix(">") || line == "--" || line.hasSuffix("wrote:") || line.hasPrefix("-----")
                || line.hasPrefix("____") || line.lowercased().hasPrefix("from:") || line.hasPrefix("triage · ") { break }
            lines.append(line)
        }
        return lines
    }

    // MARK: - Truncation

    /// A reply whose quote is an unquoted copy (no marker) read as a prefix: refused,
    /// since what was read may all be the quote; read whole, all of it is the user's.
    func testAPrefixWithoutTheEndOfTheUsersPartIsRefused() throws {
        let filler = String(repeating: "done 6aa8\n", count: 2000)   // ~20 KiB of a digest's copy, unquoted
        let whole = Array(("From: me@example.test\nTo: me@example.test\nIn-Reply-To: <\(digestID)>\n"
            + "Content-Type: text/plain; charset=utf-8\n\ndone 0162\n" + filler).utf8)
        let prefix = Array(whole.prefix(16 * 1024))
        let message = MessageParser.parse(whole)
        guard case .refuse(let reason) = verdict(MessageParser.replyBody(prefix, complete: false), message, complete: false) else {
            return XCTFail("a prefix without the quote's start was obeyed")
        }
        XCTAssertTrue(reason.contains("not within the part of the message that was read"), reason)
        // Read whole, there is no doubt: every line is the user's.
        guard case .apply(let commands) = verdict(MessageParser.replyBody(whole, complete: true), message) else {
            return XCTFail("a whole reply was refused")
        }
        XCTAssertEqual(Set(commands.map(\.id)), [ids[0], ids[1]])
    }

    /// The quote's start within the prefix: obeyed, whatever was cut after it; also
    /// in HTML (the structure) and base64 cut in the middle.
    func testAPrefixWithTheQuoteStartIsObeyed() throws {
        for name in ["gmail-web-en.eml", "outlook-desktop-da.eml", "ios-mail-es.eml", "thunderbird-de.eml"] {
            let bytes = try fixture(name)
            let prefix = Array(bytes.prefix(bytes.count * 3 / 4))
            XCTAssertEqual(verdict(MessageParser.replyBody(prefix, complete: false), MessageParser.parse(bytes), complete: false),
                           .apply(try expected(bytes)), name)
        }
    }

    /// An HTML part longer than the decoding limit counts as not read whole.
    func testAnHTMLReplyWithoutItsQuoteStructureInAPrefixIsRefused() throws {
        let html = "<div>done 0162</div>" + String(repeating: "<div>done 6aa8</div>", count: 2000)
        let whole = Array(("From: me@example.test\nTo: me@example.test\nIn-Reply-To: <\(digestID)>\n"
            + "Content-Type: text/html; charset=utf-8\n\n" + html).utf8)
        let verdict = verdict(MessageParser.replyBody(Array(whole.prefix(16 * 1024)), complete: false), MessageParser.parse(whole),
                              complete: false)
        guard case .refuse = verdict else { return XCTFail("obeyed: \(verdict)") }
    }

    // MARK: - HTML lines

    func testHTMLBlocksAreLinesAndTheQuoteStructureEndsThem() {
        let (lines, quote) = HTMLText.lines("<html><head><style>p{}</style></head><body><div>done&nbsp;0162</div><p>snooze 21c1"
            + "<br>3 days</p><ul><li>a</li><li>b &amp; c</li></ul><table><tr><td>x</td><td>y</td></tr></table><pre>p\nq</pre>"
            + "<div class=\"gmail_quote\">On … wrote:<blockquote>done 6aa8</blockquote></div></body></html>")
        XCTAssertEqual(lines.filter { !$0.isEmpty }, ["done 0162", "snooze 21c1", "3 days", "a", "b & c", "x y", "p", "q"])
        XCTAssertTrue(quote)
        XCTAssertEqual(HTMLText.plainText("<div>a</div><div>b</div>"), " a  b ", "the snippet's text is unchanged")
    }

    func testFormatFlowedIsJoined() {
        XCTAssertEqual(FlowedText.unflow("done \r\n0162\r\n> a \r\n> b\r\n-- \r\nMe", deleteSpace: true), "done0162\n> ab\n-- \nMe")
        XCTAssertEqual(FlowedText.unflow("done \n0162\n  stuffed", deleteSpace: false), "done 0162\n stuffed")
    }
}
