import Foundation
import TriageCore
import TriageIMAP
import TriageMIME
import XCTest

/// `triage run` end to end against a real Dovecot on loopback with verified TLS:
/// the built binary, a configuration, rule files, and the server's own Maildir as
/// the ground truth.
final class RunIntegrationTests: XCTestCase {
    private var server: DovecotServer!
    private var user = ""
    private var folder: TestFolder!
    private var dir: String { folder.dir }

    private let rules = """
    rule "cc is for information only"
      when cc:me -to:me
      then label "no push", digest "FYI"

    rule "receipts to reconcile"
      when from:{bank.example shop.example} subject:(receipt OR invoice)
      then label "money", queue rec

    rule "reply to the boss"
      when from:boss@example.test is:unread
      then remind "Reply to {from.name}: {subject}" in 2 days, flag

    rule "lists stay out of the inbox"
      when list:dev.lists.example
      then move "Lists/dev", mark read, digest "Lists", stop

    rule "lost cause"
      when subject:"to nowhere"
      then move "Does/Not/Exist"
    """

    override func setUpWithError() throws {
        server = try DovecotServer.shared()
        user = try server.makeUser("run")
        try server.createMailbox(user: user, "Lists/dev")
        folder = try TestFolder("run", rules: rules)
        try writeConfig()
    }

    override func tearDownWithError() throws {
        folder?.remove()
    }

    private func writeConfig(host: String = "localhost", caFile: String? = nil, passwordFile: String = "pw") throws {
        try folder.writeConfig(url: "imaps://\(host):\(server.imapsPort)", user: user, caFile: caFile ?? server.caFile,
                               passwordFile: passwordFile)
    }

    // MARK: - Messages

    private func message(_ id: String, from: String, to: String = "me@example.test", cc: String? = nil,
                         subject: String, list: String? = nil) -> String {
        var text = "From: \(from)\nTo: \(to)\n"
        if let cc { text += "Cc: \(cc)\n" }
        if let list { text += "List-Id: Dev list <\(list)>\n" }
        text += "Subject: \(subject)\nDate: Mon, 30 Nov 2026 08:00:00 +0000\nMessage-ID: <\(id)@example.test>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\nHello.\n"
        return text
    }

    private var corpus: [(String, String, String)] {  // (id, flags, text)
        [
            ("cc1", "", message("cc1", from: "Ann <ann@example.test>", to: "team@example.test", cc: "me@example.test", subject: "Team notes")),
            ("rec1", "S", message("rec1", from: "Bank <billing@bank.example>", subject: "Your receipt for November")),
            ("boss1", "", message("boss1", from: "The Boss <boss@example.test>", subject: "Budget")),
            ("list1", "", message("list1", from: "dev@lists.example", to: "dev@dev.lists.example", subject: "Release 2.0", list: "dev.lists.example")),
            ("plain1", "S", message("plain1", from: "Friend <friend@example.test>", subject: "Lunch?")),
            ("lost1", "", message("lost1", from: "x@example.test", subject: "a trip to nowhere")),
        ]
    }

    private func seedCorpus() throws {
        for (_, flags, text) in corpus { try server.seed(user: user, text, flags: flags) }
    }

    // MARK: - Helpers

    private func triage(_ args: String..., environment: [String: String] = [:]) throws -> TriageProcess.Result {
        try folder.triage(args, environment: environment)
    }

    /// Everything a run may change: the server's folders (file names carry the flags
    /// and keyword letters), its keyword lists, and the store's record files.
    private func snapshot() -> [String] {
        var lines: [String] = []
        for mailbox in ["INBOX", "Lists/dev"] {
            // Names without the unique part Dovecot may rewrite (",S=...,W=..." stay).
            lines += server.files(user: user, mailbox: mailbox).map { "\(mailbox): \($0)" }
            lines.append("\(mailbox) keywords: \(server.keywordFile(user: user, mailbox: mailbox))")
        }
        let storeRoot = dir + "/store"
        if let e = FileManager.default.enumerator(atPath: storeRoot) {
            for case let path as String in e where path.hasSuffix(".json") && !path.hasPrefix("state/") {
                let body = (try? String(contentsOfFile: storeRoot + "/" + path, encoding: .utf8)) ?? ""
                lines.append("store \(path): \(body.count)")
            }
        }
        return lines.sorted()
    }

    /// The server's view of INBOX and Lists/dev through IMAP: labels and flags by Message-ID.
    private func serverState() throws -> [String: (mailbox: String, flags: Set<String>, labels: Set<String>)] {
        let connection = try server.connect(user: user)
        defer { connection.close() }
        var state: [String: (String, Set<String>, Set<String>)] = [:]
        for mailbox in ["INBOX", "Lists/dev"] {
            _ = try connection.open(mailbox, readOnly: true)
            for item in try connection.fetch(try connection.uids(above: 0)) {
                let header = String(decoding: item.header, as: UTF8.self)
                guard let range = header.range(of: "Message-ID: <") else { continue }
                let id = String(header[range.upperBound...].prefix { $0 != "@" })
                state[id] = (mailbox, item.flags, item.labels)
            }
        }
        return state
    }

    // MARK: - Tests

    func testFirstAllRunDoesWhatTriageTestPredictsAndASecondRunNothing() throws {
        try seedCorpus()
        // What `triage test` predicts for each message file.
        var predicted: [String: [[String: Any]]] = [:]
        for (id, _, text) in corpus {
            let file = dir + "/\(id).eml"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let result = try triage("test", "--json", "--now", "2026-11-30T09:00:00Z", file)
            XCTAssertEqual(result.status, 0, result.err)
            let object = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as! [String: Any]
            let matched = object["matched"] as! [[String: Any]]
            predicted[id] = matched.flatMap { $0["actions"] as! [[String: Any]] }
        }

        let run = try triage("run", "--all")
        XCTAssertEqual(run.status, 78, "the move to a missing folder is reported as a configuration problem: \(run.err)")
        XCTAssertTrue(run.err.contains("Does/Not/Exist"), run.err)
        XCTAssertEqual(run.out, "", "silent on stdout")

        let state = try serverState()
        for (id, _, _) in corpus {
            let actions = predicted[id] ?? []
            let (mailbox, flags, labels) = try XCTUnwrap(state[id], "message \(id) is gone")
            for action in actions {
                switch action["type"] as? String {
                // The server's keyword reads back as people read it (`no push` is `no_push`): the same label.
                case "label": XCTAssertTrue(labels.contains { LabelCodec.same($0, action["name"] as! String) }, "\(id): \(labels)")
                case "flag": XCTAssertTrue(flags.contains("\\Flagged"), id)
                case "mark": XCTAssertTrue(flags.contains("\\Seen"), id)
                case "move":
                    let folder = action["folder"] as! String
                    XCTAssertEqual(mailbox, folder == "Does/Not/Exist" ? "INBOX" : folder, id)
                default: break
                }
            }
            if !actions.contains(where: { $0["type"] as? String == "move" }) { XCTAssertEqual(mailbox, "INBOX", id) }
        }
        XCTAssertEqual(state["plain1"]?.labels, [], "no rule, no change")
        XCTAssertEqual(state["plain1"]?.flags, ["\\Seen"])
        XCTAssertEqual(state["cc1"]?.flags, [], "nothing marked read that no rule asked for")

        // The store has what the rules asked for.
        let store = Store(path: dir + "/store", timeZone: TimeZone(identifier: "UTC")!)
        XCTAssertEqual(store.openQueueEntries().records.map(\.queue), ["rec"])
        XCTAssertEqual(store.openReminders().records.map(\.title), ["Reply to The Boss: Budget"])
        XCTAssertEqual(Set(store.unreportedDigestEntries().records.map(\.section)), ["FYI", "Lists", "Problems"])

        // A second run: nothing new, nothing changes.
        let before = snapshot()
        let again = try triage("run")
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual(snapshot(), before)
        // And a repeated --all changes nothing either (the failed move is still reported).
        _ = try triage("run", "--all")
        XCTAssertEqual(snapshot(), before)
    }

    func testFirstRunTakesOnlyNewMailAndNewMailIsProcessedOnce() throws {
        try seedCorpus()
        let first = try triage("run")
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertEqual(first.err, "triage: test/INBOX: first run: 6 messages already there were left alone; "
                       + "'triage run --all' processes them once\n", "said once, without --verbose")
        // The positive control for the "no login reached the server" checks of the TLS tests.
        XCTAssertTrue(server.log().contains("user=<\(user)>"), "Dovecot logs logins")
        XCTAssertEqual(try serverState()["cc1"]?.labels, [], "old mail is left alone without --all")

        try server.seed(user: user, message("cc2", from: "Bo <bo@example.test>", to: "all@example.test", cc: "me@example.test", subject: "New notes"))
        XCTAssertEqual(try triage("run").status, 0)
        XCTAssertEqual(try serverState()["cc2"]?.labels, ["no_push"])
        let store = Store(path: dir + "/store", timeZone: TimeZone(identifier: "UTC")!)
        XCTAssertEqual(store.unreportedDigestEntries().records.count, 1)
        let before = snapshot()
        XCTAssertEqual(try triage("run").status, 0)
        XCTAssertEqual(snapshot(), before)
    }

    func testUIDValidityChangeCreatesNoDuplicates() throws {
        try seedCorpus()
        XCTAssertEqual(try triage("run", "--all").status, 78)
        let store = Store(path: dir + "/store", timeZone: TimeZone(identifier: "UTC")!)
        let records = store.unreportedDigestEntries().records.count + store.openQueueEntries().records.count
        // The server renumbers the mailbox: a new UIDVALIDITY, every UID void.
        let doveadm = Process()
        doveadm.executableURL = URL(fileURLWithPath: "/usr/bin/doveadm")
        doveadm.arguments = ["-c", server.directory + "/dovecot.conf", "mailbox", "update", "-u", user,
                             "--uid-validity", "4242", "INBOX"]
        try doveadm.run()
        doveadm.waitUntilExit()
        XCTAssertEqual(doveadm.terminationStatus, 0, "doveadm mailbox update")
        let run = try triage("run")
        XCTAssertTrue(run.err.contains("UIDVALIDITY changed"), run.err)
        XCTAssertEqual(run.err.components(separatedBy: "UIDVALIDITY").count - 1, 1, "said once")
        XCTAssertEqual(store.unreportedDigestEntries().records.count + store.openQueueEntries().records.count, records)
    }

    /// Gives INBOX a new UIDVALIDITY, as a server that renumbers it would.
    private func renumber(_ uidValidity: Int) throws {
        let doveadm = Process()
        doveadm.executableURL = URL(fileURLWithPath: "/usr/bin/doveadm")
        doveadm.arguments = ["-c", server.directory + "/dovecot.conf", "mailbox", "update", "-u", user,
                             "--uid-validity", String(uidValidity), "INBOX"]
        try doveadm.run()
        doveadm.waitUntilExit()
        XCTAssertEqual(doveadm.terminationStatus, 0, "doveadm mailbox update")
    }

    /// A renumbered INBOX is not walked again (issue 11): only mail that arrived
    /// after the last complete run is processed, the old mail is left alone, and
    /// only `--all` walks everything.
    func testUIDValidityChangeProcessesOnlyMailThatArrivedAfterTheLastRun() throws {
        let old = Date().addingTimeInterval(-3 * 86_400)
        try server.seed(user: user, message("oldlist", from: "dev@lists.example", to: "dev@dev.lists.example",
                                            subject: "Old release", list: "dev.lists.example"), date: old)
        try server.seed(user: user, message("oldcc", from: "Ann <ann@example.test>", to: "team@example.test",
                                            cc: "me@example.test", subject: "Old notes"), date: old)
        XCTAssertEqual(try triage("run").status, 0)  // first run: remembers where INBOX ends
        XCTAssertEqual(try triage("run").status, 0)  // nothing new: records the time of the run
        XCTAssertNotNil(try MailboxState.load(store: dir + "/store", account: "test", mailbox: "INBOX")?.lastRun)

        try renumber(4343)
        try server.seed(user: user, message("newlist", from: "dev@lists.example", to: "dev@dev.lists.example",
                                            subject: "New release", list: "dev.lists.example"))
        let run = try triage("run")
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.err.contains("UIDVALIDITY changed") && run.err.contains("4343")
                      && run.err.contains("only mail that arrived after the last complete run"), run.err)
        var state = try serverState()
        XCTAssertEqual(state["newlist"]?.mailbox, "Lists/dev", "new mail is processed")
        XCTAssertEqual(state["oldlist"]?.mailbox, "INBOX", "old mail is not moved again")
        XCTAssertEqual(state["oldcc"]?.labels, [], "nor labelled")
        let again = try triage("run")
        XCTAssertEqual(again.err, "", "said once; then incremental as ever")

        XCTAssertEqual(try triage("run", "--all").status, 0)
        state = try serverState()
        XCTAssertEqual(state["oldlist"]?.mailbox, "Lists/dev", "--all walks everything")
        XCTAssertEqual(state["oldcc"]?.labels, ["no_push"])
    }

    /// A state written before the time of the last run was recorded: like a first
    /// run, remember where the renumbered INBOX ends, and say so.
    func testUIDValidityChangeWithAnOldStateIsLikeAFirstRun() throws {
        try server.seed(user: user, message("oldlist", from: "dev@lists.example", to: "dev@dev.lists.example",
                                            subject: "Old release", list: "dev.lists.example"))
        XCTAssertEqual(try triage("run").status, 0)
        let file = MailboxState.path(store: dir + "/store", account: "test", mailbox: "INBOX")
        let saved = try XCTUnwrap(MailboxState.load(store: dir + "/store", account: "test", mailbox: "INBOX"))
        try #"{"last_uid":\#(saved.lastUID),"uidvalidity":\#(saved.uidValidity)}"#.write(toFile: file, atomically: true, encoding: .utf8)
        try renumber(4444)
        let run = try triage("run")
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.err.contains("like a first run only mail that arrives from now on"), run.err)
        XCTAssertEqual(try serverState()["oldlist"]?.mailbox, "INBOX")
        try server.seed(user: user, message("newlist", from: "dev@lists.example", to: "dev@dev.lists.example",
                                            subject: "New release", list: "dev.lists.example"))
        XCTAssertEqual(try triage("run").status, 0)
        XCTAssertEqual(try serverState()["newlist"]?.mailbox, "Lists/dev")
        XCTAssertEqual(try serverState()["oldlist"]?.mailbox, "INBOX")
    }

    // Killed at every step and rerun: Reliability/CrashSweepTests (every IMAP command,
    // store file, webhook and the digest, with and without MOVE).

    func testUnknownCertificateAuthorityIsRefusedBeforeLogin() throws {
        try writeConfig(host: "127.0.0.3")  // a certificate from a CA nobody trusts
        let run = try triage("run")
        XCTAssertEqual(run.status, 75, run.err)
        XCTAssertTrue(run.err.lowercased().contains("certificate"), run.err)
        XCTAssertFalse(server.log().contains("user=<\(user)>"), "no login reached the server")
    }

    func testWrongHostNameIsRefused() throws {
        try writeConfig(host: "127.0.0.2")  // the test CA's certificate for wrong.example.test
        let run = try triage("run")
        XCTAssertEqual(run.status, 75, run.err)
        XCTAssertTrue(run.err.contains("127.0.0.2"), run.err)
        XCTAssertFalse(server.log().contains("user=<\(user)>"), "no login reached the server")
    }

    func testWrongPasswordExits77AndNeverShowsThePassword() throws {
        try "not-the-password".write(toFile: dir + "/wrong", atomically: true, encoding: .utf8)
        try writeConfig(passwordFile: "wrong")
        let run = try triage("run", "--verbose")
        XCTAssertEqual(run.status, 77, run.err)
        XCTAssertFalse((run.out + run.err).contains("not-the-password"))
    }

    func testSecondConcurrentRunExits75() throws {
        let store = Store(path: dir + "/store", timeZone: TimeZone(identifier: "UTC")!)
        try store.lock()
        defer { store.unlock() }
        let run = try triage("run")
        XCTAssertEqual(run.status, 75, run.err)
        XCTAssertTrue(run.err.contains("\(getpid())"), "names who holds the lock: \(run.err)")
    }

    func testDryRunChangesNothing() throws {
        try seedCorpus()
        let before = snapshot()
        let run = try triage("run", "--all", "--dry-run")
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.out.contains("would: label \"no push\""), run.out)
        XCTAssertEqual(snapshot(), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/store/state"))
    }

    /// Fetching only the header fields the rules read (`BODY.PEEK[HEADER.FIELDS (...)]`)
    /// changes nothing a run does: two users with the same mail, one run with the
    /// whole header, one narrowed, end with the same server state and byte-identical
    /// records. Two messages have no Message-ID, so record identity is the hash of
    /// the whole header: one goes to the digest, one to a missing folder (its
    /// *Problems* entry is made without any text fetch).
    func testNarrowedHeaderFetchChangesNothing() throws {
        let extra = [
            "From: Ann <ann@example.test>\nTo: team@example.test\nCc: me@example.test\nSubject: No id, cc only\n"
                + "Date: Mon, 30 Nov 2026 08:00:00 +0000\nReceived: from x by y; Mon, 30 Nov 2026 08:00:00 +0000\n"
                + "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\nNo id here.\n",
            "From: x@example.test\nTo: me@example.test\nSubject: No id, a trip to nowhere\n"
                + "Date: Mon, 30 Nov 2026 08:00:00 +0000\nX-Mailer: test\n\nGone.\n",
        ]
        func outcome(wholeHeader: Bool) throws -> (server: [String], store: [String], trace: String) {
            let name = try server.makeUser(wholeHeader ? "whole" : "narrow")
            try server.createMailbox(user: name, "Lists/dev")
            for (_, flags, text) in corpus { try server.seed(user: name, text, flags: flags) }
            for text in extra { try server.seed(user: name, text) }
            let other = try TestFolder(wholeHeader ? "whole" : "narrow", rules: rules)
            defer { other.remove() }
            try other.writeConfig(url: "imaps://localhost:\(server.imapsPort)", user: name, caFile: server.caFile)
            let run = try other.triage(["run", "--all", "--verbose", "--now", "2026-11-30T09:00:00Z"],
                                       environment: wholeHeader ? ["TRIAGE_WHOLE_HEADER": "1", "TRIAGE_TRACE": "1"] : ["TRIAGE_TRACE": "1"])
            XCTAssertEqual(run.status, 78, run.err)
            var lines: [String] = []
            let connection = try server.connect(user: name)
            defer { connection.close() }
            for mailbox in ["INBOX", "Lists/dev"] {
                _ = try connection.open(mailbox, readOnly: true)
                for item in try connection.fetch(try connection.uids(above: 0)) {
                    let message = MessageParser.parseHeader(item.header)
                    lines.append("\(mailbox) \(message.subject ?? "") \(item.flags.sorted()) \(item.labels.sorted())")
                }
            }
            return (lines.sorted(), other.storeLines().sorted(), run.out + run.err)
        }
        let whole = try outcome(wholeHeader: true)
        let narrowed = try outcome(wholeHeader: false)
        XCTAssertEqual(narrowed.server, whole.server)
        XCTAssertEqual(narrowed.store, whole.store)
        XCTAssertEqual(whole.server.count, 8)
        XCTAssertTrue(narrowed.trace.contains("BODY.PEEK[HEADER.FIELDS ("), narrowed.trace)
        XCTAssertFalse(whole.trace.contains("HEADER.FIELDS"), whole.trace)
        XCTAssertTrue(whole.store.contains { $0.contains("Problems") && $0.contains("No id, a trip to nowhere") }, "\(whole.store)")
        XCTAssertTrue(whole.store.contains { $0.contains("No id here.") }, "\(whole.store)")
    }
}
