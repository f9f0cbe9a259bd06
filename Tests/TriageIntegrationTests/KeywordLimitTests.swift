import Foundation
import TriageCore
import XCTest

/// Labels against a real Dovecot: a `{from.name}` label too long for a keyword
/// (Dovecot refuses more than `mail_max_keyword_length`, 50 bytes), a server that
/// refuses a keyword (NO to STORE) for some messages, and a keyword first set in
/// another case (Dovecot, like Cyrus and Courier, keeps the case first set and
/// compares without it).
final class KeywordLimitTests: XCTestCase {
    private var dovecot: DovecotServer!
    private var folder: TestFolder!
    private let longName = "Dr. Maximiliane Müller-Lüdenscheidt von Hohenzollern-Sigmaringen"

    override func setUpWithError() throws {
        dovecot = try DovecotServer.shared()
        folder = try TestFolder("keywords", rules: "")
    }

    override func tearDownWithError() throws {
        folder?.remove()
    }

    private func configure(user: String, rules: String) throws {
        try folder.writeRules(rules)
        try folder.writeConfig(url: "imaps://localhost:\(dovecot.imapsPort)", user: user, caFile: dovecot.caFile, mailboxes: nil)
    }

    private func seed(_ user: String, _ n: Int, from: String, flags: String = "") throws {
        try dovecot.seed(user: user, "From: \(from)\nTo: me@example.test\nSubject: Note \(n)\nMessage-ID: <kw\(n)@x.test>\n\nHello \(n)\n",
                         flags: flags, date: Date(timeIntervalSince1970: 1_790_000_000 + Double(n)))
    }

    /// `triage run ARGS` with the protocol trace on standard error.
    private func run(_ args: [String]) throws -> TriageProcess.Result {
        try folder.triage(["run", "--verbose"] + args, environment: ["TRIAGE_TRACE": "1"])
    }

    private func stores(_ result: TriageProcess.Result) -> [String] {
        result.err.split(separator: "\n").map(String.init).filter { $0.contains("C: ") && $0.contains("UID STORE") }
    }

    func testALabelFromALongSenderNameIsShortenedAndSetAndNotResent() throws {
        let user = try dovecot.makeUser("long-label")
        try seed(user, 1, from: "\"\(longName)\" <max@x.test>")
        try seed(user, 2, from: "Ann <ann@x.test>")
        try configure(user: user, rules: "rule \"by sender\" when from:x.test then label \"{from.name}\", mark read\n")

        let first = try run(["--all"])
        XCTAssertEqual(first.status, 0, first.err)
        let keywords = dovecot.keywordFile(user: user)
        XCTAssertTrue(keywords.contains("Dr._Maximiliane_M+C3+BCller"), keywords)
        XCTAssertTrue(keywords.split(separator: "\n").allSatisfy { $0.split(separator: " ", maxSplits: 1).last!.utf8.count <= 50 }, keywords)
        XCTAssertTrue(keywords.contains(" Ann\n"), keywords)
        XCTAssertTrue(dovecot.files(user: user).allSatisfy { $0.hasSuffix("Sa") || $0.hasSuffix("Sb") }, "\(dovecot.files(user: user))")

        // The server hands the shortened keyword back; the rerun recognises it.
        let again = try run(["--all"])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual(stores(again), [], "nothing to send again")
    }

    func testAKeywordTheServerRefusesHoldsUpNothingElse() throws {
        // keywords20 takes keywords of at most 20 bytes (dovecot.sh): this 26-byte
        // label passes `triage check` and is refused by the server.
        let user = "keywords20@example.test"
        try dovecot.createMailbox(user: user, "INBOX")
        for n in 1...3 { try seed(user, 100 + n, from: "Ann <ann@x.test>") }
        try configure(user: user, rules: """
        rule "long" when from:x.test then label "label-of-twenty-six-bytes", mark read
        rule "short" when from:x.test then label "ok"

        """)
        let first = try run(["--all"])
        XCTAssertEqual(first.status, 78, "a rule asks what this server cannot do; not 75: \(first.err)")
        XCTAssertTrue(first.err.contains("label \"label-of-twenty-six-bytes\" of UID 1:3 failed"), first.err)
        XCTAssertTrue(first.err.contains("Keyword length too long"), first.err)
        XCTAssertTrue(first.err.contains("localhost:\(dovecot.imapsPort)"), first.err)
        XCTAssertEqual(stores(first).count, 6, "the batch, each of the three alone, then mark read and `ok`: \(stores(first))")
        // Every other action happened.
        XCTAssertEqual(dovecot.keywordFile(user: user), "0 ok\n")
        XCTAssertTrue(dovecot.files(user: user).allSatisfy { $0.hasSuffix(":2,Sa") }, "\(dovecot.files(user: user))")
        // Each message is in the digest's Problems.
        let pending = (try? FileManager.default.contentsOfDirectory(atPath: folder.store + "/digest/pending")) ?? []
        XCTAssertEqual(pending.count, 3, "\(pending)")
        let entry = (try? String(contentsOfFile: folder.store + "/digest/pending/" + (pending.first ?? ""), encoding: .utf8)) ?? ""
        XCTAssertTrue(entry.contains("\"Problems\"") && entry.contains("Keyword length too long"), entry)

        // The state moved on: the next run is clean and sends nothing.
        let next = try run([])
        XCTAssertEqual(next.status, 0, next.err)
        XCTAssertEqual(stores(next), [])
    }

    func testDovecotTakesA27thKeywordInAMaildirFolder() throws {
        // A fact triage relies on, unlike its own Maildir adapter (RefusedStoreTests):
        // Dovecot keeps keywords past the 26 Maildir letters in its index.
        let user = try dovecot.makeUser("27-keywords")
        let keywords = dovecot.maildir(user: user) + "/dovecot-keywords"
        try (0..<26).map { "\($0) k\($0)\n" }.joined().write(toFile: keywords, atomically: false, encoding: .utf8)
        chown(keywords, DovecotServer.mailUID, DovecotServer.mailUID)
        try seed(user, 1, from: "Ann <ann@x.test>")
        try configure(user: user, rules: "rule \"fresh\" when from:x.test then label \"fresh\"\n")
        let first = try run(["--all"])
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertEqual(stores(first).count, 1)
        XCTAssertFalse(dovecot.keywordFile(user: user).contains("fresh"), "no letter left for it")
        let connection = try dovecot.connect(user: user)
        defer { connection.close() }
        _ = try connection.open("INBOX", readOnly: true)
        XCTAssertEqual(try connection.fetch([1]).first?.labels, ["fresh"])
        XCTAssertEqual(stores(try run(["--all"])), [], "and it reads back")
    }

    func testAKeywordFirstSetInAnotherCaseIsNotSentAgain() throws {
        let user = try dovecot.makeUser("keyword-case")
        // Another client set `REC` (keyword 0, Maildir letter a).
        let keywords = dovecot.maildir(user: user) + "/dovecot-keywords"
        try "0 REC\n".write(toFile: keywords, atomically: false, encoding: .utf8)
        chown(keywords, DovecotServer.mailUID, DovecotServer.mailUID)
        try seed(user, 1, from: "Shop <shop@x.test>", flags: "Sa")
        try configure(user: user, rules: "rule \"receipts\" when from:x.test then label \"rec\", mark read\n")

        let result = try run(["--all"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(stores(result), [], "the message has the keyword already, in another case")
        XCTAssertEqual(dovecot.keywordFile(user: user), "0 REC\n")

        // The control: a label it lacks is sent.
        try configure(user: user, rules: "rule \"receipts\" when from:x.test then label \"receipts\"\n")
        let control = try run(["--all"])
        XCTAssertEqual(control.status, 0, control.err)
        XCTAssertEqual(stores(control).count, 1, "\(stores(control))")
    }

    /// A label with a space is the keyword `no_push`; one written by an earlier triage
    /// as `no+20push` counts as the same label: no second keyword on a rerun, `label:`
    /// finds it, and `unlabel` takes it off.
    func testALegacyPlus20KeywordIsTheSameLabel() throws {
        let user = try dovecot.makeUser("legacy-keyword")
        let keywords = dovecot.maildir(user: user) + "/dovecot-keywords"
        try "0 no+20push\n".write(toFile: keywords, atomically: false, encoding: .utf8)
        chown(keywords, DovecotServer.mailUID, DovecotServer.mailUID)
        try seed(user, 1, from: "Shop <shop@x.test>", flags: "Sa")
        try seed(user, 2, from: "Ann <ann@y.test>", flags: "S")
        try configure(user: user, rules: """
        rule "quiet" when from:x.test OR from:y.test then label "no push"
        rule "found" when label:"no push" then flag

        """)
        let result = try run(["--all"])
        XCTAssertEqual(result.status, 0, result.err)
        // Only message 2 gets the label, in the new spelling; message 1 already has it.
        XCTAssertEqual(stores(result).filter { $0.contains("no_push") }.count, 1, "\(stores(result))")
        XCTAssertTrue(stores(result).allSatisfy { !$0.contains(" 1 ") || !$0.contains("no_push") }, "\(stores(result))")
        XCTAssertEqual(dovecot.keywordFile(user: user), "0 no+20push\n1 no_push\n")
        let files = dovecot.files(user: user).sorted()
        XCTAssertTrue(files.contains { $0.hasSuffix(":2,FSa") }, "label: found the legacy keyword: \(files)")
        XCTAssertTrue(files.contains { $0.hasSuffix("Sb") }, "\(files)")
        XCTAssertEqual(stores(try run(["--all"])), [], "a rerun sends nothing")

        // unlabel takes the label off in either spelling.
        try configure(user: user, rules: "rule \"loud\" when from:x.test OR from:y.test then unlabel \"no push\"\n")
        let off = try run(["--all"])
        XCTAssertEqual(off.status, 0, off.err)
        XCTAssertTrue(dovecot.files(user: user).allSatisfy { !($0.split(separator: ",").last ?? "").contains(where: \.isLowercase) },
                      "no keyword left: \(dovecot.files(user: user))")
    }

    /// A long label an earlier triage shortened with `+20` for each space (a shorter
    /// prefix than today's) is recognised: no second, differently shortened keyword.
    func testALegacyShortenedKeywordIsNotSentAgain() throws {
        let user = try dovecot.makeUser("legacy-long")
        let keywords = dovecot.maildir(user: user) + "/dovecot-keywords"
        let old = try XCTUnwrap(LabelCodec.legacyKeyword(for: longName))
        XCTAssertTrue(old.hasPrefix("Dr.+20Maximiliane+20M+C3+BCller-L+E2+80+A6"), old)
        try "0 \(old)\n".write(toFile: keywords, atomically: false, encoding: .utf8)
        chown(keywords, DovecotServer.mailUID, DovecotServer.mailUID)
        try seed(user, 1, from: "\"\(longName)\" <max@x.test>", flags: "Sa")
        try configure(user: user, rules: "rule \"by sender\" when from:x.test then label \"{from.name}\", mark read\n")
        let result = try run(["--all"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(stores(result), [], "the message has the label already, in the old spelling")
        XCTAssertEqual(dovecot.keywordFile(user: user), "0 \(old)\n")
    }
}
