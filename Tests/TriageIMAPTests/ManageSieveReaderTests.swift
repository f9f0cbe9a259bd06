import TriageIMAP
import XCTest

/// ManageSieve answers from bytes (RFC 5804 section 4): what real servers send is
/// read, and every malformed literal, string or line is a `Failure`, never a crash.
/// The same cases over a socket, through `triage deploy sieve`, are in
/// HostileManageSieveTests; the reader is fuzzed by fuzz/Sources/FuzzManageSieve.
final class ManageSieveReaderTests: XCTestCase {
    private func read(_ text: String, limit: Int = ManageSieveReader.maxAnswerBytes) -> Result<ManageSieveAnswer, ManageSieveReader.Failure> {
        let bytes = Array(text.utf8)
        var offset = 0
        var reader = ManageSieveReader(limit: limit) {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }
        do { return .success(try reader.readAnswer()) } catch { return .failure(error) }
    }

    private func answer(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ManageSieveAnswer? {
        guard case .success(let answer) = read(text) else {
            XCTFail("not read: \(read(text))", file: file, line: line)
            return nil
        }
        return answer
    }

    func testDovecotsGreetingAndAListingWithLiteralsAreRead() throws {
        let greeting = try XCTUnwrap(answer("\"IMPLEMENTATION\" \"Dovecot Pigeonhole\"\r\n\"SIEVE\" \"fileinto vacation\"\r\n"
                                            + "\"STARTTLS\"\r\n\"SASL\" {5}\r\nPLAIN\r\nOK \"Dovecot ready.\"\r\n"))
        XCTAssertTrue(greeting.ok)
        XCTAssertEqual(greeting.text, "Dovecot ready.")
        XCTAssertEqual(greeting.stringLines.map(\.strings), [["IMPLEMENTATION", "Dovecot Pigeonhole"], ["SIEVE", "fileinto vacation"],
                                                            ["STARTTLS"], ["SASL", "PLAIN"]])
        let listing = try XCTUnwrap(answer("{6}\r\ntriage ACTIVE\r\n\"with \\\"quotes\\\" \\\\\"\r\n{0}\r\n\r\nOK\r\n"))
        XCTAssertEqual(listing.stringLines.map(\.strings), [["triage"], ["with \"quotes\" \\"], [""]])
        XCTAssertEqual(listing.stringLines.map(\.atoms), [["ACTIVE"], [], []])
    }

    func testStatusLinesWithResponseCodesBecomeOneLineOfText() throws {
        let no = try XCTUnwrap(answer("NO (NONEXISTENT) \"There is no script by that name\"\r\n"))
        XCTAssertEqual(no.status, "NO")
        XCTAssertEqual(no.text, "(NONEXISTENT) There is no script by that name")
        let bye = try XCTUnwrap(answer("bye (REFERRAL \"sieve://b.example\") {9}\r\nmoved\u{1B}[2J\r\n"))
        XCTAssertEqual(bye.status, "BYE")
        XCTAssertEqual(bye.text, "(REFERRAL sieve://b.example) moved [2J", "controls replaced")
        XCTAssertEqual(answer("OK\n")?.ok, true, "a bare LF ends a line, as libetpan takes it")
        XCTAssertEqual(answer("\"SIEVE\" {00000000000000000005}\r\nhello\r\nOK\r\n")?.stringLines.first?.strings, ["SIEVE", "hello"],
                       "leading zeros are digits too")
    }

    func testMalformedLiteralLengthsAreRefusedNotCrashedOn() {
        for (text, says) in [
            ("\"SIEVE\" {-5}\r\nhello\r\nOK\r\n", "{-5} that is not a number"),
            ("\"SIEVE\" {+5}\r\nhello\r\nOK\r\n", "{+5} that is not a number"),
            ("\"SIEVE\" {5+}\r\nhello\r\nOK\r\n", "{5+} that is not a number"),
            ("\"SIEVE\" { 5}\r\nhello\r\nOK\r\n", "{ 5} that is not a number"),
            ("\"SIEVE\" {٥}\r\nhello\r\nOK\r\n", "that is not a number"),
            ("\"SIEVE\" {}\r\nOK\r\n", "{} that is not a number"),
            ("\"SIEVE\" {5\r\nhello\r\nOK\r\n", "without its closing brace"),
            ("\"SIEVE\" {5} x\r\nhello\r\nOK\r\n", "not at the end of its line"),
            ("\"SIEVE\" {5}\rhello\r\nOK\r\n", "not followed by a line end"),
        ] {
            guard case .failure(.malformed(let what)) = read(text) else {
                XCTFail("\(text.debugDescription): \(read(text))")
                continue
            }
            XCTAssertTrue(what.contains(says), "\(text.debugDescription): \(what)")
        }
    }

    func testLengthsPastTheLimitAndEndlessLinesAreTooLong() {
        for text in ["{1048577}\r\n", "{4294967296}\r\n", "{99999999999999999999999}\r\n", "{9223372036854775807}\r\n",
                     "{00000000000000000000001048577}\r\n"] {
            guard case .failure(.tooLong(let what)) = read(text) else { XCTFail("\(text): \(read(text))"); continue }
            XCTAssertTrue(what.hasPrefix("a literal of "), what)
        }
        guard case .failure(.tooLong(let what)) = read(String(repeating: "x", count: 100), limit: 64) else { return XCTFail() }
        XCTAssertEqual(what, "an answer longer than 64 bytes")
        if case .failure(.tooLong) = read("{10}\r\n0123456789\r\nOK\r\n", limit: 12) {} else { XCTFail("the literal counts against the limit") }
        if case .failure(.tooLong) = read(String(repeating: "a\r\n", count: ManageSieveReader.maxLines + 1) + "OK\r\n") {} else {
            XCTFail("lines are bounded")
        }
    }

    func testStringsAndStreamsThatEndEarly() {
        XCTAssertEqual(try? read("\"SIEVE\" \"fileinto\r\nOK\r\n").get(), nil)
        if case .failure(.malformed(let what)) = read("\"a\u{0}b\"\r\nOK\r\n") {
            XCTAssertTrue(what.contains("quoted string"))
        } else { XCTFail("NUL in a quoted string") }
        XCTAssertEqual(read("\"SIEVE\" {5}\r\nhel").failure, .closed)
        XCTAssertEqual(read("\"SIEVE\"\r\n").failure, .closed)
        XCTAssertEqual(read("").failure, .closed)
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
