import Foundation
import TriageCore
import XCTest

/// Narrowing by `UID SEARCH` (issue 14) against real Dovecots: over a mailbox of traps
/// (graeme@ and jaime@ beside me@, RFC 2047 names, ME@ in another case, a folded Cc, a
/// second Cc field, look-alike domains and names that show an address, list mail), a
/// narrowed run and a `server_search = off` run leave the same server state and store,
/// the narrowed one fetching only the candidates; a Dovecot with a Lucene full-text index
/// (word search) is detected and every message fetched, with the same result.
final class ServerNarrowingRunTests: XCTestCase {
    static let rules = """
    rule "cc is for information" when cc:me -to:me then label "fyi", move "FYI"
    rule bank when from:@bank.example then label "money", queue rec
    rule shop when from:*@shop.example then label "shop"
    rule lists when list:* then stop
    """

    /// (Message-ID, whether the server's SEARCH finds it, header lines).
    static let traps: [(id: String, candidate: Bool, header: String)] = [
        ("to-me", false, "From: Boss <boss@corp.example>\nTo: me@example.test"),
        ("cc-me", true, "From: a@corp.example\nTo: team@corp.example\nCc: me@example.test"),
        ("graeme", true, "From: a@corp.example\nTo: team@corp.example\nCc: graeme@example.test"),
        ("jaime", true, "From: a@corp.example\nTo: team@corp.example\nCc: Jaime <jaime@example.test>"),
        ("rfc2047-upper", true, "From: a@corp.example\nTo: team@corp.example\nCc: =?utf-8?q?M=C3=A9_Myself?= <ME@Example.TEST>"),
        ("folded", true, "From: a@corp.example\nTo: team@corp.example\nCc: x@y.test,\n\tother@y.test,\n me@example.test"),
        ("second-cc", true, "From: a@corp.example\nTo: team@corp.example\nCc: x@y.test\nCc: ME@EXAMPLE.TEST"),
        ("group", true, "From: a@corp.example\nTo: team@corp.example\nCc: friends: b@x.test, me@example.test;"),
        ("name-shows-me", true, "From: a@corp.example\nTo: team@corp.example\nCc: \"me@example.test\" <attacker@evil.example>"),
        ("encoded-name-shows-me", true, "From: a@corp.example\nTo: team@corp.example\nCc: =?utf-8?q?me=40example=2Etest?= <o@x.test>"),
        ("to-and-cc", true, "From: a@corp.example\nTo: me@example.test\nCc: me@example.test"),
        ("bank-lookalike-name", true, "From: \"statements@bank.example\" <secure-9@evil.example>\nTo: me@example.test"),
        ("bank-lookalike-domain", true, "From: alerts@bank.example.evil.test\nTo: me@example.test"),
        ("bank-subdomain", true, "From: =?utf-8?b?QmFuaw==?= <news@MAIL.Bank.Example>\nTo: me@example.test"),
        ("shop-encoded", true, "From: =?iso-8859-1?q?Sh=F6p?= <orders@SHOP.example>\nTo: me@example.test"),
        ("shop-name-only", false, "From: \"shop.example\" <x@evil.test>\nTo: me@example.test"),
        ("list-cc", true, "From: dev@lists.example\nTo: dev@lists.example\nCc: me@example.test\nList-Id: <dev.lists.example>"),
        ("newsletter", false, "From: news@other.example\nTo: me@example.test"),
        ("from-me", false, "From: me@example.test\nTo: friend@other.example"),
        ("bank-word", false, "From: Bank Example <info@bankexample.test>\nTo: me@example.test"),
    ]

    /// After the traps: plain mail no rule can match, so the mailbox is past the run's
    /// narrowing minimum (100 new messages) and ends in messages never fetched.
    static let fillers = 100

    /// Every message of the mailbox in UID order: the traps, then the fillers.
    static var messages: [String] {
        traps.enumerated().map { text($0.element, $0.offset) } + (0..<fillers).map { i in
            ("From: News \(i) <news\(i)@letters.example>\nTo: team@corp.example\nSubject: filler \(i)\n"
                + "Message-ID: <filler\(i)@example.test>\nDate: Mon, 30 Nov 2026 07:00:00 +0000\n\nNothing.\n")
                .replacingOccurrences(of: "\n", with: "\r\n")
        }
    }

    /// Trap `i` as a message with CRLF line ends.
    static func text(_ trap: (id: String, candidate: Bool, header: String), _ i: Int) -> String {
        (trap.header + "\nSubject: trap \(trap.id)\nMessage-ID: <\(trap.id)@example.test>\n"
            + "Date: Mon, 30 Nov 2026 08:\(String(format: "%02d", i)):00 +0000\n\nText of \(trap.id).\n")
            .replacingOccurrences(of: "\n", with: "\r\n")
    }

    static func seed(_ server: DovecotServer, user: String, trapsOnly: Bool = false) throws {
        try server.createMailbox(user: user, "INBOX")
        try server.createMailbox(user: user, "FYI")
        for message in Self.messages.prefix(trapsOnly ? traps.count : .max) { try server.seed(user: user, message) }
    }

    /// Each message's folder, system flags and keywords, by Message-ID (UIDs differ between users).
    static func serverState(_ server: DovecotServer, user: String) throws -> [String] {
        var lines: [String] = []
        for mailbox in ["INBOX", "FYI"] {
            let dir = server.maildir(user: user, mailbox: mailbox)
            let keywordLines = (try? String(contentsOfFile: dir + "/dovecot-keywords", encoding: .utf8)) ?? ""
            var keywords: [Character: String] = [:]
            for line in keywordLines.split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 1)
                if parts.count == 2, let n = Int(parts[0]), n < 26 {
                    keywords[Character(UnicodeScalar(UInt8(97 + n)))] = String(parts[1])
                }
            }
            for sub in ["cur", "new"] {
                for name in (try? FileManager.default.contentsOfDirectory(atPath: dir + "/" + sub)) ?? [] {
                    let text = try String(contentsOfFile: dir + "/" + sub + "/" + name, encoding: .utf8)
                    let id = text.components(separatedBy: "Message-ID: <").dropFirst().first?.components(separatedBy: "@").first ?? "?"
                    let info = name.components(separatedBy: ":2,").dropFirst().first ?? ""
                    let flags = info.map { $0.isLowercase ? keywords[$0] ?? "?\($0)" : String($0) }.sorted()
                    lines.append("\(id) in \(mailbox): \(flags.joined(separator: " "))")
                }
            }
        }
        return lines.sorted()
    }

    private struct Outcome {
        var server: [String]
        var store: [String]
        var lastUID: String
        var output: String
        var decisions: Int
    }

    private func run(_ server: DovecotServer, user: String, mode: String?, trapsOnly: Bool = false) throws -> Outcome {
        try Self.seed(server, user: user, trapsOnly: trapsOnly)
        let folder = try TestFolder("narrow", rules: Self.rules)
        defer { folder.remove() }
        var lines: KeyValuePairs<String, String> = [:]
        if let mode { lines = ["server_search": mode] }
        try folder.writeConfig(url: "imaps://localhost:\(server.imapsPort)", user: user, caFile: server.caFile, accountLines: lines)
        let run = try folder.triage(["run", "--all", "--verbose", "--now", "2026-11-30T09:00:00Z"], environment: ["TRIAGE_TRACE": "1"])
        XCTAssertEqual(run.status, 0, run.out + run.err)
        let state = try String(contentsOfFile: folder.store + "/state/test/INBOX.json", encoding: .utf8)
        let lastUID = state.components(separatedBy: "\"last_uid\":").dropFirst().first?.prefix { $0.isNumber } ?? ""
        let decisions = run.out.split(separator: "\n").filter { $0.firstMatch(of: /^test\/INBOX [0-9]+ "/) != nil }.count
        return Outcome(server: try Self.serverState(server, user: user), store: folder.storeLines().sorted(), lastUID: String(lastUID),
                       output: run.out + run.err, decisions: decisions)
    }

    func testNarrowedRunEndsLikeAFullOne() throws {
        let server = try DovecotServer.shared()
        let narrowed = try run(server, user: try server.makeUser("narrowed"), mode: nil)
        let full = try run(server, user: try server.makeUser("narrow-off"), mode: "off")
        XCTAssertEqual(narrowed.server, full.server)
        XCTAssertEqual(narrowed.store, full.store)
        let total = Self.traps.count + Self.fillers
        XCTAssertEqual(narrowed.lastUID, "\(total)")
        XCTAssertEqual(full.lastUID, "\(total)")
        // Not vacuous: the rules did act, on the right messages.
        let moved = full.server.filter { $0.contains(" in FYI:") }.map { $0.components(separatedBy: " ")[0] }
        XCTAssertEqual(moved, ["cc-me", "folded", "group", "list-cc", "rfc2047-upper", "second-cc"])
        XCTAssertTrue(full.server.contains("bank-subdomain in INBOX: money"), "\(full.server)")
        XCTAssertTrue(full.server.contains("shop-encoded in INBOX: shop"), "\(full.server)")
        XCTAssertEqual(full.store.count, 1, "one queue record, for the bank's message: \(full.store)")
        // The narrowed run fetched only the candidates; the full one everything.
        let candidates = Self.traps.filter(\.candidate).count
        XCTAssertEqual(narrowed.decisions, candidates, narrowed.output.split(separator: "\n").filter { $0.contains("trap") }.joined(separator: "\n"))
        XCTAssertEqual(full.decisions, total, full.output)
        XCTAssertTrue(narrowed.output.contains("server search: \(candidates) of \(total) new messages"), narrowed.output)
        XCTAssertTrue(narrowed.output.contains("UID SEARCH UID 1:\(total) OR CC"), narrowed.output)
        XCTAssertTrue(full.output.contains("fetching every message: server_search = off"), full.output)
        XCTAssertFalse(full.output.contains("UID SEARCH UID 1:\(total) OR"), full.output)
        // Both count every message as processed.
        XCTAssertTrue(narrowed.output.contains("\(total) messages processed"), narrowed.output)
    }

    /// `check --connect` says what a run asks the server's SEARCH, or why it fetches everything.
    func testCheckConnectSaysWhetherRunsNarrow() throws {
        let server = try DovecotServer.shared()
        let user = try server.makeUser("narrow-check")
        try server.createMailbox(user: user, "FYI")
        for (mode, rules, expected) in [
            (nil, Self.rules, "test: a run with many new messages (100 or more) first asks localhost:\(server.imapsPort) which of them can match a "
                + #"rule, by their addresses, and downloads only those (UID SEARCH OR CC "me@example.test" OR FROM "bank.example" "#
                + #"FROM "@shop.example"); only once a test search shows the server finds parts of addresses, as most do "#
                + "(server_search = auto)\n"),
            ("substring", Self.rules, #"FROM "@shop.example"; server_search = substring)"# + "\n"),
            ("off", Self.rules, "test: a run downloads every new message: server_search = off\n"),
            (nil, "rule a when subject:hello then flag", "test: a run downloads every new message: rule \"a\" can match "
                + "mail from and to anyone, as far as the server can tell"),
        ] {
            let folder = try TestFolder("narrow-check", rules: rules)
            defer { folder.remove() }
            var lines: KeyValuePairs<String, String> = [:]
            if let mode { lines = ["server_search": mode] }
            try folder.writeConfig(url: "imaps://localhost:\(server.imapsPort)", user: user, caFile: server.caFile,
                                   accountLines: lines)
            let check = try folder.triage(["check", "--connect"])
            XCTAssertEqual(check.status, 0, check.err)
            XCTAssertTrue(check.out.contains(expected), check.out)
            for jargon in ["SEARCH can find exactly", "picks the messages", "is fetched", "substrings"] {
                XCTAssertFalse(check.out.contains(jargon), jargon + " in " + check.out)
            }
        }
    }

    /// Fewer new messages than the narrowing minimum (100): fetched without a search.
    func testFewNewMessagesAreFetchedWithoutASearch() throws {
        let server = try DovecotServer.shared()
        let few = try run(server, user: try server.makeUser("narrow-few"), mode: nil, trapsOnly: true)
        XCTAssertEqual(few.decisions, Self.traps.count, few.output)
        XCTAssertFalse(few.output.contains(" OR CC "), few.output)
        XCTAssertEqual(few.lastUID, "\(Self.traps.count)")
    }

    /// A full-text index (Lucene) searches words: the probe finds that out, and the run
    /// fetches everything, ending as the full run does. Trusting it blindly would miss mail.
    func testWordIndexIsDetectedAndNotTrusted() throws {
        let server = try DovecotServer.shared()
        let full = try run(server, user: try server.makeUser("fts-reference"), mode: "off")
        let detected = try run(server, user: "fts1@example.test", mode: nil)
        XCTAssertEqual(detected.server, full.server)
        XCTAssertEqual(detected.store, full.store)
        XCTAssertEqual(detected.decisions, Self.traps.count + Self.fillers, detected.output)
        XCTAssertTrue(detected.output.contains("the server's SEARCH does not find substrings"), detected.output)
        // server_search = substring trusts it anyway: the word index misses the subdomain's
        // mail (FROM "bank.example" is no word of news@mail.bank.example), so it is not fetched.
        let trusted = try run(server, user: "fts2@example.test", mode: "substring")
        XCTAssertNotEqual(trusted.server, full.server)
        XCTAssertFalse(trusted.server.contains("bank-subdomain in INBOX: money"), "\(trusted.server)")
    }
}
