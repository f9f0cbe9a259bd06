@testable import TriageCore
import XCTest

final class MIMEComposerTests: XCTestCase {
    private let date = MessageDate(year: 2026, month: 11, day: 30, hour: 7, minute: 5, second: 9, utcOffsetSeconds: -6 * 3600)

    private func mail(subject: String = "triage · Mon 30 Nov: 2 reminders, 3 to reconcile, 14 FYI",
                      from: Address = Address(name: "Triage Bot", address: "triage@example.test"),
                      to: [Address] = [Address(name: "Me", address: "me@example.test")],
                      text: String = "Hello\nworld\n", html: String? = "<p>Hello</p>\n",
                      extra: [HeaderField] = []) -> OutgoingMail {
        OutgoingMail(from: from, to: to, subject: subject, date: date, messageID: "digest-2026-11-30@triage.example.test",
                     textBody: text, htmlBody: html, extraHeaders: extra)
    }

    /// The header block, unfolded, as (name, value) pairs.
    private func headers(_ message: ComposedMessage) -> [(String, String)] {
        let head = message.text.components(separatedBy: "\r\n\r\n")[0]
        let unfolded = head.replacingOccurrences(of: "\r\n ", with: " ")
        return unfolded.components(separatedBy: "\r\n").map { line in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
    }

    private func assertWellFormed(_ message: ComposedMessage, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(message.text.unicodeScalars.allSatisfy { $0.value < 127 }, "not 7-bit", file: file, line: line)
        XCTAssertFalse(message.text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "bare LF", file: file, line: line)
        XCTAssertFalse(message.text.replacingOccurrences(of: "\r\n", with: "").contains("\r"), "bare CR", file: file, line: line)
        let parts = message.text.components(separatedBy: "\r\n\r\n")
        for l in parts[0].components(separatedBy: "\r\n") {
            XCTAssertLessThanOrEqual(l.count, l.contains("=?") ? 76 : 78, "header line too long: \(l)", file: file, line: line)
        }
        for l in parts.dropFirst().joined(separator: "\r\n\r\n").components(separatedBy: "\r\n") {
            XCTAssertLessThanOrEqual(l.count, 76, "body line too long: \(l)", file: file, line: line)
        }
    }

    func testStandardHeadersInOrder() throws {
        let message = try MIMEComposer().compose(mail(extra: [HeaderField("Auto-Submitted", "auto-generated")]))
        assertWellFormed(message)
        let h = headers(message)
        XCTAssertEqual(h.map(\.0), ["Date", "From", "To", "Subject", "Message-ID", "MIME-Version", "Auto-Submitted", "Content-Type"])
        XCTAssertEqual(h[0].1, "Mon, 30 Nov 2026 07:05:09 -0600")
        XCTAssertEqual(h[1].1, "Triage Bot <triage@example.test>")
        XCTAssertEqual(h[2].1, "Me <me@example.test>")
        XCTAssertEqual(h[4].1, "<digest-2026-11-30@triage.example.test>")
        XCTAssertEqual(h[5].1, "1.0")
        XCTAssertEqual(message.messageID, "digest-2026-11-30@triage.example.test")
        XCTAssertEqual(message.envelopeFrom, "triage@example.test")
        XCTAssertEqual(message.envelopeTo, ["me@example.test"])
    }

    func testDateHeaderOffsets() {
        XCTAssertEqual(MessageDate(secondsSince1970: 0, utcOffsetSeconds: 0).rfc5322, "Thu, 1 Jan 1970 00:00:00 +0000")
        XCTAssertEqual(MessageDate(year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59,
                                   utcOffsetSeconds: 5 * 3600 + 1800).rfc5322, "Thu, 29 Feb 2024 23:59:59 +0530")
        XCTAssertEqual(MessageDate(secondsSince1970: -1, utcOffsetSeconds: -3600).rfc5322, "Wed, 31 Dec 1969 22:59:59 -0100")
    }

    func testSubjectRoundTripsForEveryScript() throws {
        let subjects = [
            "Plain ASCII subject",
            "Réunion d'équipe à Genève — café",
            "日本語の件名がとても長い場合には複数のエンコードされた単語に分割されなければなりません、東京と大阪",
            "🚀 Launch 🎉 family 👨‍👩‍👧‍👦 flags 🇫🇷🇯🇵 thumbs 👍🏽 and a long tail of text to force a split",
            String(repeating: "word ", count: 40) + "end",
        ]
        for subject in subjects {
            let message = try MIMEComposer().compose(mail(subject: subject))
            assertWellFormed(message)
            let value = headers(message).first { $0.0 == "Subject" }!.1
            XCTAssertEqual(EncodedWordOracle.decode(value), subject)
        }
    }

    func testLongASCIISubjectIsFoldedAtSpacesAndUnfoldsExactly() throws {
        let subject = "a  double  spaced subject " + String(repeating: "lorem ipsum ", count: 20) + "end"
        let message = try MIMEComposer().compose(mail(subject: subject))
        assertWellFormed(message)
        let head = message.text.components(separatedBy: "\r\n\r\n")[0]
        let subjectLines = head.components(separatedBy: "\r\n").drop { !$0.hasPrefix("Subject:") }.prefix { $0.hasPrefix("Subject:") || $0.hasPrefix(" ") }
        XCTAssertGreaterThan(subjectLines.count, 2)
        XCTAssertTrue(subjectLines.dropFirst().allSatisfy { $0.hasPrefix(" ") && $0.count > 1 && $0.dropFirst().first != " " })
        XCTAssertEqual(headers(message).first { $0.0 == "Subject" }!.1, subject)
        XCTAssertFalse(head.contains("=?"), "ASCII subject should not be encoded")
    }

    func testUnbreakableLongWordIsEncodedSoLinesStayShort() throws {
        let subject = String(repeating: "x", count: 200)
        let message = try MIMEComposer().compose(mail(subject: subject))
        assertWellFormed(message)
        XCTAssertEqual(EncodedWordOracle.decode(headers(message).first { $0.0 == "Subject" }!.1), subject)
    }

    func testHeaderInjectionIsNeutralised() throws {
        let hostile = "x\r\nBcc: evil@x\r\n\r\nbody?\nX-Evil: 1\rTo: other@x"
        let message = try MIMEComposer().compose(mail(
            subject: hostile,
            from: Address(name: "Eve\r\nBcc: evil@x", address: "triage@example.test"),
            to: [Address(name: "Me\nCc: evil@x", address: "me@example.test")],
            extra: [HeaderField("X-Note", "a\r\nBcc: evil@x")]))
        assertWellFormed(message)
        let names = headers(message).map { $0.0.lowercased() }
        XCTAssertFalse(names.contains("bcc"))
        XCTAssertFalse(names.contains("cc"))
        XCTAssertFalse(names.contains("x-evil"))
        XCTAssertEqual(names.filter { $0 == "to" }.count, 1)
        XCTAssertEqual(message.envelopeTo, ["me@example.test"])
        let parsed = try PythonEmail.parse(message.text)
        XCTAssertFalse(parsed.headers.map { $0.lowercased() }.contains("bcc"))
        XCTAssertEqual(parsed.subject, "x  Bcc: evil@x    body? X-Evil: 1 To: other@x")
        XCTAssertEqual(parsed.to, [.init(name: "Me Cc: evil@x", address: "me@example.test")])
        XCTAssertEqual(parsed.from, [.init(name: "Eve  Bcc: evil@x", address: "triage@example.test")])
    }

    func testInvalidAddressesAndIDsAreRefused() {
        let composer = MIMEComposer()
        var m = mail()
        m.to = [Address(address: "me@example.test>\r\nBcc: evil@x")]
        XCTAssertThrowsError(try composer.compose(m)) { XCTAssertEqual(($0 as? MailCompositionError)?.exitStatus, .config) }
        m = mail(); m.from = Address(address: "no-at-sign")
        XCTAssertThrowsError(try composer.compose(m))
        m = mail(); m.from = Address(address: "jöe@example.test")
        XCTAssertThrowsError(try composer.compose(m))
        m = mail(); m.to = []
        XCTAssertThrowsError(try composer.compose(m))
        m = mail(); m.messageID = "two words@x"
        XCTAssertThrowsError(try composer.compose(m))
        m = mail(); m.messageID = "<ok@x>\r\nBcc: e@x"
        XCTAssertThrowsError(try composer.compose(m))
        m = mail(); m.extraHeaders = [HeaderField("Bcc", "evil@x")]
        XCTAssertThrowsError(try composer.compose(m))
        m = mail(); m.extraHeaders = [HeaderField("X-A\r\nBcc", "evil@x")]
        XCTAssertThrowsError(try composer.compose(m))
        m = mail(); m.messageID = "<fine@example.test>"
        XCTAssertEqual(try composer.compose(m).messageID, "fine@example.test")
    }

    func testDisplayNameForms() throws {
        let message = try MIMEComposer().compose(mail(to: [
            Address(name: "Plain Name", address: "a@example.test"),
            Address(name: "Doe, John \"JD\"", address: "b@example.test"),
            Address(name: "José Müller", address: "c@example.test"),
            Address(name: "山田太郎", address: "d@example.test"),
            Address(address: "e@example.test"),
            Address(name: "Ångström Ærøskøbing Überlänge-Doppelname Größenwahn née Ødegård", address: "f@example.test"),
            Address(name: "A rather long ASCII name, with a comma and \"quotes\", that must be folded somewhere", address: "g@example.test"),
            Address(name: String(repeating: "LongASCII", count: 12), address: "h@example.test"),
        ]))
        assertWellFormed(message)
        let to = headers(message).first { $0.0 == "To" }!.1
        XCTAssertTrue(to.hasPrefix("Plain Name <a@example.test>, \"Doe, John \\\"JD\\\"\" <b@example.test>, =?UTF-8?"), to)
        let parsed = try PythonEmail.parse(message.text)
        XCTAssertEqual(Array(parsed.to.prefix(5)), [
            .init(name: "Plain Name", address: "a@example.test"),
            .init(name: "Doe, John \"JD\"", address: "b@example.test"),
            .init(name: "José Müller", address: "c@example.test"),
            .init(name: "山田太郎", address: "d@example.test"),
            .init(name: "", address: "e@example.test"),
        ])
        // Names too long for one encoded-word are split after a space. RFC 2047 decoders drop the
        // white space between encoded-words; Python's address parser keeps it, so it shows one
        // extra space at that word boundary. Both readings are checked.
        let latin = "Ångström Ærøskøbing Überlänge-Doppelname Größenwahn née Ødegård"
        XCTAssertEqual(parsed.to[5].address, "f@example.test")
        XCTAssertEqual(parsed.to[5].name.split(separator: " "), latin.split(separator: " "))
        XCTAssertEqual(parsed.to[6], .init(name: "A rather long ASCII name, with a comma and \"quotes\", that must be folded somewhere",
                                           address: "g@example.test"))
        // An unbreakable 108-character name cannot fit a line, so it is encoded (and split).
        XCTAssertEqual(parsed.to[7].name.replacingOccurrences(of: " ", with: ""), String(repeating: "LongASCII", count: 12))
        let toValue = headers(message).first { $0.0 == "To" }!.1
        XCTAssertTrue(EncodedWordOracle.decode(toValue).contains(latin + " <f@example.test>"), EncodedWordOracle.decode(toValue))

        let short = "日本語の名前"
        let one = try MIMEComposer().compose(mail(from: Address(name: short, address: "x@example.test")))
        XCTAssertEqual(try PythonEmail.parse(one.text).from, [.init(name: short, address: "x@example.test")])
        let cjk = String(repeating: "日本語", count: 12)  // no space to break at
        let long = try MIMEComposer().compose(mail(from: Address(name: cjk, address: "x@example.test")))
        assertWellFormed(long)
        XCTAssertEqual(EncodedWordOracle.decode(headers(long).first { $0.0 == "From" }!.1), cjk + " <x@example.test>")
        XCTAssertEqual(try PythonEmail.parse(long.text).from.first?.name.replacingOccurrences(of: " ", with: ""), cjk)
    }

    func testBoundaryIsAbsentFromContentAndDeterministic() throws {
        let a = try MIMEComposer().compose(mail())
        let b = try MIMEComposer().compose(mail())
        XCTAssertEqual(a, b)
        let boundaryLine = a.text.components(separatedBy: "\r\n").first { $0.hasPrefix(" boundary=") }!
        let boundary = String(boundaryLine.dropFirst(" boundary=\"".count).dropLast())
        XCTAssertEqual(a.text.components(separatedBy: "--" + boundary).count, 4)  // 2 openings, 1 closing
        XCTAssertTrue(a.text.contains("\r\n--" + boundary + "--\r\n"))
        // The boundary check itself: a part that contains the first candidate gets another.
        let seed = String(repeating: "ab", count: 32)
        let first = MIMEComposer.boundary(for: ["x"], seed: seed)
        XCTAssertEqual(first, "=_triage_" + String(seed.prefix(32)))
        let second = MIMEComposer.boundary(for: ["x", "line\r\n--" + first + "\r\n"], seed: seed)
        XCTAssertNotEqual(second, first)
        XCTAssertFalse(("line\r\n--" + first).contains(second))
    }

    func testPythonReadsBackSubjectAddressesAndBothBodies() throws {
        let text = "Good morning ☀️\n\n• Reminder: pay rent — due today\n• 日本語のメモ\n.dot line\nFrom here\n"
            + String(repeating: "A long line that goes on and on ", count: 8) + "\n"
        let html = "<!doctype html>\n<html><body style=\"font-family: sans-serif\"><h1>Digest 🚀</h1>"
            + "<p>\(HTMLEscaper.escape("<script>alert(1)</script> & café"))</p>" + String(repeating: "<p>x = y</p>", count: 20)
            + "</body></html>\n"
        let subjects = ["triage · Mon 30 Nov: 2 reminders, 3 to reconcile, 14 FYI", "Plain", "日本語の件名 🚀 émoji"]
        for subject in subjects {
            let message = try MIMEComposer().compose(mail(
                subject: subject,
                from: Address(name: "Triage Bötchen", address: "triage@example.test"),
                to: [Address(name: "Me Myself", address: "me@example.test"), Address(address: "other@example.test")],
                text: text, html: html))
            assertWellFormed(message)
            let parsed = try PythonEmail.parse(message.text)
            XCTAssertEqual(parsed.subject, subject)
            XCTAssertEqual(parsed.from, [.init(name: "Triage Bötchen", address: "triage@example.test")])
            XCTAssertEqual(parsed.to, [.init(name: "Me Myself", address: "me@example.test"), .init(name: "", address: "other@example.test")])
            XCTAssertEqual(parsed.content_type, "multipart/alternative")
            XCTAssertEqual(parsed.text?.replacingOccurrences(of: "\r\n", with: "\n"), text)
            XCTAssertEqual(parsed.html?.replacingOccurrences(of: "\r\n", with: "\n"), html)
            XCTAssertEqual(parsed.message_id, "<digest-2026-11-30@triage.example.test>")
            XCTAssertEqual(parsed.date, "Mon, 30 Nov 2026 07:05:09 -0600")
            XCTAssertEqual(parsed.defects, [])
        }
    }

    func testTextOnlyMessage() throws {
        let message = try MIMEComposer().compose(mail(text: "only text ✓", html: nil))
        assertWellFormed(message)
        let parsed = try PythonEmail.parse(message.text)
        XCTAssertEqual(parsed.content_type, "text/plain")
        XCTAssertEqual(parsed.text?.replacingOccurrences(of: "\r\n", with: "\n"), "only text ✓\n")
        XCTAssertNil(parsed.html)
    }
}

extension MIMEComposerTests {
    func testOnlyTheWordsThatNeedItAreEncoded() throws {
        let message = try MIMEComposer().compose(mail(subject: "triage · Mon 30 Nov: 2 reminders"))
        XCTAssertTrue(message.text.contains("\r\nSubject: triage =?UTF-8?B?wrc=?= Mon 30 Nov: 2 reminders\r\n"), message.text)
        // Spaces between neighbouring non-ASCII words live inside the encoded text, where they survive decoding.
        for subject in ["é é", "a  é  b", "é  é", " é", "é ", "x =?UTF-8?Q?y?= z", "日本 語 and 🚀 🎉  end  ", "ok é" + String(repeating: " 日本語", count: 30)] {
            let m = try MIMEComposer().compose(mail(subject: subject))
            assertWellFormed(m)
            let value = m.text.components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\nSubject:")[1]
                .components(separatedBy: "\r\nMessage-ID")[0].replacingOccurrences(of: "\r\n", with: "")
            XCTAssertEqual(EncodedWordOracle.decode(String(value.dropFirst())), subject, value)
        }
        let parsed = try PythonEmail.parse(try MIMEComposer().compose(mail(subject: "a  é  b and 日本 語 x")).text)
        XCTAssertEqual(parsed.subject, "a  é  b and 日本 語 x")
    }
}
