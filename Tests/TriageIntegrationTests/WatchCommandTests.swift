import Foundation
import XCTest

/// `triage watch` against a real Dovecot: new mail leaves INBOX without any
/// `triage run`, through restarts of the server, cut and silent connections and a
/// changed password; SIGTERM and SIGINT end it with 0; `triage run` works beside
/// it; and no message is ever processed twice (one store record each).
///
/// Mail arrives by IMAP APPEND (Tests/Servers/imap-seed.py), or into the Maildir
/// while the server is down. Waits are generous (tens of seconds): these tests
/// show that it happens, the benchmark (bench/watch) how fast.
final class WatchCommandTests: XCTestCase {
    /// Every message with `watch` in the subject gets a queue entry and leaves INBOX;
    /// one with `digestme` goes into the digest and leaves INBOX. The first rule is one
    /// `export sieve` can express (the others are not, whole-word matching): its folder,
    /// Filed (made only where a test wants it), is one the script files into.
    static let rules = """
        rule "filed at delivery"
          when from:filer@example.test
          then digest "Filed", move "Filed"

        rule "watched mail leaves the inbox"
          when subject:watch
          then queue w, move "Done"

        rule "for the digest"
          when subject:digestme
          then digest "Watched", move "Done"
        """

    private struct Box {
        let server: DovecotServer
        let user: String
        let folder: TestFolder

        /// Messages now in `mailbox` (Dovecot's Maildir files).
        func count(_ mailbox: String) -> Int { server.files(user: user, mailbox: mailbox).count }

        /// The store's queue records (one per processed message).
        var queueRecords: [String] { folder.storeLines().filter { $0.hasPrefix("store queue/") } }

        /// Delivers messages with these subjects (from `sender`) by IMAP APPEND into `mailbox`, straight to Dovecot.
        func append(_ subjects: [String], to mailbox: String = "INBOX", from sender: String = "sender@example.test") throws {
            try server.append(user: user, folder: mailbox, subjects.map {
                SeedMessage(text: "From: Sender <\(sender)>\nTo: me@example.test\nSubject: \($0)\nMessage-ID: <\(UUID().uuidString)@example.test>\n\nHello.\n")
            })
        }

        /// Waits (up to a minute) until INBOX is empty and `Done` holds `done` messages.
        func waitUntilDone(_ done: Int) -> Bool {
            WatchProcess.waitUntil(60) { count("INBOX") == 0 && count("Done") == done }
        }

        func remove() { folder.remove() }
    }

    /// A user with INBOX and Done, a configuration reaching Dovecot at `port`
    /// (default: its IMAPS port) watching `mailboxes`, with `accountLines` and `triageLines`
    /// and with a `file:` digest when `digest`.
    private func box(_ purpose: String, server: DovecotServer? = nil, port: UInt16? = nil,
                     accountLines: KeyValuePairs<String, String> = [:], triageLines: [(String, String)] = [],
                     digest: Bool = false, mailboxes: [String] = ["INBOX"]) throws -> Box {
        let server = try server ?? DovecotServer.shared()
        let user = try server.makeUser(purpose)
        try server.createMailbox(user: user, "Done")
        let folder = try TestFolder(purpose, rules: Self.rules)
        var account = ConfigSection("account test", [
            "url": "imaps://localhost:\(port ?? server.imapsPort)", "user": user,
            "password_command": "cat \(folder.dir)/pw", "ca_file": server.caFile,
        ])
        account.lines.append(("mailboxes", mailboxes.joined(separator: ", ")))
        account.lines += accountLines.map { ($0.key, $0.value) }
        for mailbox in mailboxes where mailbox != "INBOX" { try server.createMailbox(user: user, mailbox) }
        var triage = ConfigSection.triage()
        triage.lines += triageLines
        var sections = [triage, account]
        if digest {
            sections.append(ConfigSection("digest", [
                "to": "me@example.test", "from": "triage@example.test", "hour": "0", "smtp": "file:\(folder.outbox)",
            ]))
        }
        try folder.writeConfig(sections)
        return Box(server: server, user: user, folder: folder)
    }

    private func lines(_ text: String, containing part: String) -> Int {
        text.components(separatedBy: "\n").filter { $0.contains(part) }.count
    }

    // MARK: - Mail leaves INBOX

    func testNewMailLeavesInboxWithoutAnyRun() throws {
        let box = try box("watch-basic")
        defer { box.remove() }
        let watch = try WatchProcess(config: box.folder.config)
        watch.waitUntilWatching()
        // Dovecot offers NOTIFY: one connection for the account (WatchBudgetTests).
        XCTAssertTrue(watch.out.contains("test/INBOX: watching with NOTIFY"), watch.out)

        try box.append(["watch one"])
        XCTAssertTrue(box.waitUntilDone(1), "still in INBOX: \(box.count("INBOX")); \(watch.out) \(watch.err)")
        try box.append(["watch two", "watch three"])
        XCTAssertTrue(box.waitUntilDone(3), "still in INBOX: \(box.count("INBOX")); \(watch.out) \(watch.err)")

        XCTAssertEqual(watch.stop(), 0)
        XCTAssertEqual(box.queueRecords.count, 3, box.queueRecords.joined(separator: "\n"))
        XCTAssertEqual(watch.err, "")
    }

    func testSeveralMailboxesEachWatched() throws {
        let box = try box("watch-two", mailboxes: ["INBOX", "Lists"])
        defer { box.remove() }
        let watch = try WatchProcess(config: box.folder.config)
        watch.waitUntilWatching(mailboxes: 2)
        XCTAssertTrue(watch.out.contains("test/Lists: watching with NOTIFY (one connection for the account's 2 mailboxes)"), watch.out)
        try box.append(["watch in lists"], to: "Lists")
        XCTAssertTrue(WatchProcess.waitUntil(60) { box.count("Lists") == 0 && box.count("Done") == 1 }, watch.out + watch.err)
        try box.append(["watch in inbox"])
        XCTAssertTrue(box.waitUntilDone(2), watch.out + watch.err)
        XCTAssertEqual(watch.stop(), 0)
        XCTAssertEqual(box.queueRecords.count, 2, box.queueRecords.joined(separator: "\n"))
        XCTAssertEqual(watch.err, "")
    }

    /// A folder the rules file into (the deployed Sieve script does so at delivery) is
    /// watched too, though not in `mailboxes`: its new mail gets its local actions
    /// (queue, digest) without any `triage run`.
    func testSieveFiledFolderIsWatched() throws {
        let server = try DovecotServer.shared()
        let box = try box("watch-filed", server: server, accountLines: ["sieve_port": String(server.sievePort)])
        defer { box.remove() }
        try box.server.createMailbox(user: box.user, "Filed")
        // Its folders are read once triage put the script on the server (SieveDeployment).
        let deploy = try box.folder.triage(["deploy", "sieve"])
        XCTAssertEqual(deploy.status, 0, deploy.err)
        let watch = try WatchProcess(config: box.folder.config)
        XCTAssertTrue(WatchProcess.waitUntil(30) {
            watch.out.contains("test/Filed: watching with NOTIFY (one connection for the account's 2 mailboxes) "
                               + "(a folder the Sieve script files into)")
        }, watch.out + watch.err)
        watch.waitUntilWatching(mailboxes: 2)
        // As the script's fileinto would: straight into Filed, never in INBOX.
        try box.append(["filed one", "filed two"], to: "Filed", from: "filer@example.test")
        let digested = { box.folder.storeLines().filter { $0.contains("filed one") || $0.contains("filed two") } }
        XCTAssertTrue(WatchProcess.waitUntil(60) { digested().count == 2 }, "\(box.folder.storeLines()) \(watch.out) \(watch.err)")
        XCTAssertEqual(box.count("Filed"), 2)
        XCTAssertEqual(watch.stop(), 0)
        XCTAssertEqual(digested().count, 2, digested().joined(separator: "\n"))
        XCTAssertEqual(watch.err, "")
    }

    /// An IMAP server without IDLE (127.0.0.44 in dovecot.sh leaves it out of its
    /// CAPABILITY) is looked at every poll_interval: new mail still leaves INBOX.
    func testIMAPServerWithoutIdleIsPolled() throws {
        let box = try box("watch-noidle", triageLines: [("poll_interval", "1")])
        defer { box.remove() }
        var config = try String(contentsOfFile: box.folder.config, encoding: .utf8)
        config = config.replacingOccurrences(of: "imaps://localhost:", with: "imaps://127.0.0.44:")
        try config.write(toFile: box.folder.config, atomically: true, encoding: .utf8)
        let watch = try WatchProcess(config: box.folder.config)
        watch.waitUntilWatching()
        XCTAssertTrue(watch.out.contains("test/INBOX: watching with a look every 1 s (no IDLE)"), watch.out + watch.err)
        XCTAssertFalse(watch.out.contains("watching with IDLE"), watch.out)
        try box.append(["watch polled"])
        XCTAssertTrue(box.waitUntilDone(1), "still in INBOX: \(box.count("INBOX")); \(watch.out) \(watch.err)")
        XCTAssertEqual(watch.stop(), 0)
        XCTAssertEqual(box.queueRecords.count, 1, box.queueRecords.joined(separator: "\n"))
        XCTAssertEqual(watch.err, "")
    }

    func testMaildirAccountIsPolled() throws {
        let folder = try TestFolder("watch-maildir", rules: Self.rules)
        defer { folder.remove() }
        for mailbox in ["", "/.Done"] {
            for sub in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(atPath: folder.dir + "/mail" + mailbox + "/" + sub,
                                                        withIntermediateDirectories: true)
            }
        }
        var triage = ConfigSection.triage()
        triage.lines.append(("poll_interval", "1"))
        try folder.writeConfig([triage, ConfigSection("account local", ["url": "maildir:mail", "mailboxes": "INBOX"])])
        let watch = try WatchProcess(config: folder.config)
        watch.waitUntilWatching()
        XCTAssertTrue(watch.out.contains("local/INBOX: watching with a look every 1 s (no IDLE)"), watch.out)
        try "From: a@example.test\nSubject: watch maildir\n\nHello.\n".write(toFile: folder.dir + "/mail/new/1.test",
                                                                           atomically: true, encoding: .utf8)
        let moved = WatchProcess.waitUntil(30) {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.dir + "/mail/.Done/cur")) ?? []).count
                + ((try? FileManager.default.contentsOfDirectory(atPath: folder.dir + "/mail/.Done/new")) ?? []).count == 1
        }
        XCTAssertTrue(moved, watch.out + watch.err)
        XCTAssertEqual(watch.stop(), 0)
    }

    func testDigestIsSentAtItsHour() throws {
        let box = try box("watch-digest", digest: true)
        defer { box.remove() }
        let watch = try WatchProcess(config: box.folder.config)
        watch.waitUntilWatching()
        // Its hour (0) has passed, but an empty digest is not sent (send_empty is off).
        XCTAssertEqual(box.folder.outboxFiles(), [])
        try box.append(["digestme please"])
        XCTAssertTrue(box.waitUntilDone(1), watch.out + watch.err)
        XCTAssertTrue(WatchProcess.waitUntil(30) { box.folder.outboxFiles().count == 1 }, watch.err)
        let sent = try String(contentsOfFile: box.folder.outbox + "/" + (box.folder.outboxFiles().first ?? ""), encoding: .utf8)
        XCTAssertTrue(sent.contains("digestme please"), sent)
        XCTAssertEqual(watch.stop(), 0)
        XCTAssertEqual(box.folder.outboxFiles().count, 1, "sent once")
        XCTAssertEqual(watch.err, "")
    }

    // MARK: - Signals

    func testSIGTERMAndSIGINTWhileWaitingExitZero() throws {
        let box = try box("watch-signal")
        defer { box.remove() }
        for signal in [SIGTERM, SIGINT] {
            let watch = try WatchProcess(config: box.folder.config)
            watch.waitUntilWatching()
            let started = Date()
            XCTAssertEqual(watch.stop(signal), 0, "signal \(signal): \(watch.err)")
            XCTAssertLessThan(Date().timeIntervalSince(started), 10, "ends promptly, not at the next IDLE")
            XCTAssertEqual(watch.err, "")
        }
    }

    func testSIGTERMDuringABatchFinishesIt() throws {
        let box = try box("watch-term-batch")
        defer { box.remove() }
        // The batch of a `slowhook` message ends with a webhook that takes 3 s to answer.
        let port = try WebhookTestServer.shared().httpPort
        try box.folder.writeRules(Self.rules + """

            rule "slow webhook"
              when subject:slowhook
              then webhook "http://127.0.0.1:\(port)/stall/3/watch-term-batch", move "Done"
            """)
        let watch = try WatchProcess(config: box.folder.config)
        watch.waitUntilWatching()
        let marker = "slowhook \(UUID().uuidString.prefix(8))"
        try box.append([marker])
        XCTAssertTrue(WatchProcess.waitUntil(30) { !((try? WebhookTestServer.shared().requests(containing: marker)) ?? []).isEmpty },
                      "the webhook POST began: \(watch.err)")
        let signalled = Date()
        XCTAssertEqual(watch.stop(), 0, watch.err)
        XCTAssertGreaterThan(Date().timeIntervalSince(signalled), 1.5, "it waited for the POST's answer")
        XCTAssertEqual(box.count("Done"), 1)
        XCTAssertTrue(box.folder.storeLines().contains { $0.hasPrefix("store webhooks/delivered/") },
                      "the webhook was recorded as delivered: \(box.folder.storeLines())")
        XCTAssertEqual(watch.err, "")
    }

    // MARK: - Beside `triage run` and the store's other writers

    func testRunAndQueueDoneBesideWatchAndNothingTwice() throws {
        let box = try box("watch-run")
        defer { box.remove() }
        let watch = try WatchProcess(config: box.folder.config)
        watch.waitUntilWatching()
        try box.append(["watch one"])
        XCTAssertTrue(box.waitUntilDone(1), watch.out + watch.err)

        // A cron run meanwhile: works, finds nothing left to do.
        let run = try box.folder.triage(["run"])
        XCTAssertEqual(run.status, 0, run.err)
        // Mail and runs racing with the watch: each message is done once, by one of them.
        for round in 0..<3 {
            try box.append(["watch race \(round)a", "watch race \(round)b"])
            let again = try box.folder.triage(["run"])
            XCTAssertEqual(again.status, 0, again.err)
        }
        XCTAssertTrue(box.waitUntilDone(7), "INBOX \(box.count("INBOX")), Done \(box.count("Done")): \(watch.err)")

        // The store's interactive writers work beside it too.
        let list = try box.folder.triage(["queue", "list", "w", "--json"])
        XCTAssertEqual(list.status, 0, list.err)
        let first = list.out.split(separator: "\n").first.map { Data($0.utf8) } ?? Data()
        let id = ((try? JSONSerialization.jsonObject(with: first)) as? [String: Any])?["id"] as? String ?? "?"
        let done = try box.folder.triage(["queue", "done", id])
        XCTAssertEqual(done.status, 0, "queue done \(id): \(done.err) \(list.out)")

        XCTAssertEqual(watch.stop(), 0)
        XCTAssertEqual(box.queueRecords.count, 7, "one record per message:\n" + box.queueRecords.joined(separator: "\n"))
        XCTAssertEqual(watch.err, "")
    }

    func testRunWaitsForALockHeldForABatch() throws {
        let box = try box("watch-lockwait")
        defer { box.remove() }
        XCTAssertEqual(try box.folder.triage(["run"]).status, 0)
        // Another process holds the store lock for 2 s, as `watch` holds it for a batch.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [box.folder.store + "/lock", "sleep", "2"]
        try holder.run()
        defer { holder.waitUntilExit() }
        XCTAssertTrue(WatchProcess.waitUntil(5) {
            let fd = open(box.folder.store + "/lock", O_RDONLY)
            defer { close(fd) }
            return flock(fd, LOCK_EX | LOCK_NB) != 0
        }, "the holder has the lock")
        let run = try box.folder.triage(["run"])
        XCTAssertEqual(run.status, 0, "waits instead of failing: \(run.err)")
    }

    // MARK: - Surviving the real world

    func testDovecotRestartsUnderIt() throws {
        let server = try DovecotServer(directory: NSTemporaryDirectory() + "triage-dovecot-watch-\(getpid())")
        defer { try? server.halt(); server.stop() }
        // idle_interval bounds how long a connection that looks alive but is not (Dovecot's
        // login process may linger after its master is gone) goes unnoticed.
        let box = try box("watch-restart", server: server, triageLines: [("idle_interval", "10")])
        defer { box.remove() }
        // Scaled: an outage is over once a connection stayed up 3 s (not a minute).
        let watch = try WatchProcess(config: box.folder.config, environment: WatchProcess.timeScale)
        watch.waitUntilWatching()
        try box.append(["watch before"])
        XCTAssertTrue(box.waitUntilDone(1), watch.out + watch.err)

        // A quick restart, then mail.
        try server.restart()
        try box.append(["watch after restart"])
        XCTAssertTrue(box.waitUntilDone(2), "INBOX \(box.count("INBOX")): \(watch.err)")

        // Down for a while (several attempts), with mail delivered meanwhile.
        try server.halt()
        try server.seed(user: box.user, "From: s@example.test\nSubject: watch while down\nMessage-ID: <down@example.test>\n\nHi.\n")
        // A fixed outage, not a wait for an event: long enough for several attempts
        // (0.05 ... 1.6 s scaled), which a halted server leaves nothing to count by.
        sleep(4)
        try server.restart()
        XCTAssertTrue(box.waitUntilDone(3), "INBOX \(box.count("INBOX")): \(watch.err)")
        // Said once the connection has held (3 s scaled).
        XCTAssertTrue(WatchProcess.waitUntil(30) {
            lines(watch.err, containing: "connected again, and up") == lines(watch.err, containing: "trying again after")
        }, watch.err)

        XCTAssertEqual(watch.stop(), 0)
        XCTAssertEqual(box.queueRecords.count, 3, box.queueRecords.joined(separator: "\n"))
        // Once per outage, not once per attempt (the restart and the halt are one
        // outage when the connection between them was up less than the 3 s).
        let losses = lines(watch.err, containing: "trying again after growing pauses")
        XCTAssertTrue((1...2).contains(losses), watch.err)
        XCTAssertEqual(lines(watch.err, containing: "connected again, and up"), losses, watch.err)
    }

    func testCutAndSilentConnections() throws {
        let server = try DovecotServer.shared()
        let proxy = try CutoffProxy(to: "127.0.0.1", port: server.imapsPort)
        defer { proxy.stop() }
        try proxy.set(.pass)
        let box = try box("watch-cut", port: proxy.port, accountLines: ["timeout": "2"], triageLines: [("idle_interval", "5")])
        defer { box.remove() }
        let watch = try WatchProcess(config: box.folder.config, environment: WatchProcess.timeScale)
        watch.waitUntilWatching()

        // The network drops: seen at once (the socket closes), connected again after a
        // pause (0.05 s scaled), said once that connection has held (3 s scaled).
        try proxy.cutLive()
        XCTAssertTrue(WatchProcess.waitUntil(30) { watch.err.contains("connected again, and up") }, watch.err)
        try box.append(["watch after cut"])
        XCTAssertTrue(box.waitUntilDone(1), "INBOX \(box.count("INBOX")): \(watch.err)")

        // Silence: nothing more arrives, not even the answer to DONE; the end of the
        // IDLE (idle_interval) and the timeout find it dead.
        try proxy.cutLive(stall: true)
        XCTAssertTrue(proxy.waitUntilCut(), "the proxy silenced the connection")
        try box.append(["watch after silence"])
        XCTAssertTrue(box.waitUntilDone(2), "INBOX \(box.count("INBOX")): \(watch.err)")
        XCTAssertTrue(WatchProcess.waitUntil(30) { lines(watch.err, containing: "connected again, and up") == 2 }, watch.err)

        XCTAssertEqual(watch.stop(), 0)
        XCTAssertEqual(box.queueRecords.count, 2, box.queueRecords.joined(separator: "\n"))
        XCTAssertEqual(lines(watch.err, containing: "trying again after growing pauses"), 2, watch.err)
        // Usually DONE; IDLE when the freeze came as the IDLE was being renewed; UID MOVE
        // when it came between the server's move (which ended the wait above) and its answer.
        XCTAssertTrue(watch.err.contains("no answer to DONE INBOX within 2 s")
                      || watch.err.contains("no answer to IDLE INBOX within 2 s")
                      || watch.err.contains("no answer to UID MOVE within 2 s"), watch.err)
        XCTAssertEqual(lines(watch.err, containing: "connected again, and up"), 2, watch.err)
    }

    // MARK: - Hostile servers (Tests/Servers/watch-imap.py)

    /// A configuration watching INBOX on each of `servers` (an account per server,
    /// named by the key), with a 2 s timeout.
    private func scripted(_ purpose: String, _ servers: KeyValuePairs<String, WatchIMAPServer>) throws -> TestFolder {
        let dovecot = try DovecotServer.shared()
        let folder = try TestFolder(purpose, rules: Self.rules)
        var sections = [ConfigSection.triage()]
        for (name, server) in servers {
            sections.append(ConfigSection("account \(name)", [
                "url": "imaps://localhost:\(server.port)", "user": "me@example.test",
                "password_command": "cat \(folder.dir)/pw", "ca_file": dovecot.caFile, "timeout": "2", "mailboxes": "INBOX",
            ]))
        }
        try folder.writeConfig(sections)
        return folder
    }

    /// The review's proxies: one closes each connection right after login (at the
    /// first SELECT), one on IDLE. Every login succeeds, so the old loop reset its
    /// pause each time and logged in about once a second (20 logins in 20 s on each,
    /// and a "connected again" line each time); a connection that fails within a minute
    /// is the same outage: 1, 2, 4, 8 s pauses (logins at 0, 1, 3, 7, 15 s: 5 in 20 s),
    /// one line each, nothing else. Real time, no scale.
    func testServerClosingRightAfterLoginOrOnIdleIsOneOutageWithGrowingPauses() throws {
        let dovecot = try DovecotServer.shared()
        let afterLogin = try WatchIMAPServer(.closeAfterLogin, dovecot: dovecot)
        defer { afterLogin.stop() }
        let onIdle = try WatchIMAPServer(.closeOnIdle, dovecot: dovecot)
        defer { onIdle.stop() }
        let folder = try scripted("watch-closing", ["login": afterLogin, "idle": onIdle])
        defer { folder.remove() }
        let watch = try WatchProcess(config: folder.config)
        // A rate over a fixed window: what is checked is that logins do NOT come once a
        // second, which no condition can show sooner.
        sleep(20)
        let logins = (afterLogin: afterLogin.count(" LOGIN "), onIdle: onIdle.count(" LOGIN "))
        print("watch against closing servers: \(logins.afterLogin) logins (closed after login), "
              + "\(logins.onIdle) (closed on IDLE) in 20 s")
        XCTAssertEqual(watch.stop(), 0, watch.err)
        for (name, count) in [("after login", logins.afterLogin), ("on IDLE", logins.onIdle)] {
            XCTAssertTrue((3...6).contains(count), "closed \(name): \(count) logins in 20 s, not once a second: \(watch.err)")
        }
        for name in ["login", "idle"] {
            XCTAssertEqual(lines(watch.err, containing: "watch: \(name)/INBOX: "), 1, "said once: \(watch.err)")
            XCTAssertEqual(lines(watch.err, containing: "\(name)/INBOX: localhost:"), 1, "names the server: \(watch.err)")
        }
        XCTAssertEqual(lines(watch.err, containing: "trying again after growing pauses"), 2, watch.err)
        XCTAssertEqual(lines(watch.err, containing: "connected again"), 0, watch.err)
        // The one pass that got through (closed on IDLE, after it): its first run, said once.
        XCTAssertEqual(lines(watch.err, containing: "first run:"), 1, watch.err)
        XCTAssertEqual(lines(watch.err, containing: "idle/INBOX: first run: 1 message already there was left alone"), 1, watch.err)
    }

    /// Only a connection that stayed up (a minute; 3 s at the tests' time scale) ends
    /// the outage: then "connected again" is said, once, and the next loss is a new
    /// outage, said, whose pauses start from the first again.
    func testAConnectionThatStaysUpEndsTheOutage() throws {
        let server = try WatchIMAPServer(.closeOnIdle, dovecot: try DovecotServer.shared())
        defer { server.stop() }
        let folder = try scripted("watch-settle", ["test": server])
        defer { folder.remove() }
        let watch = try WatchProcess(config: folder.config, environment: WatchProcess.timeScale)
        // Scaled pauses 0.05, 0.1, 0.2 ... 1.6 s: about 6 logins in 2 s, not 40. A fixed
        // window: the upper bound (no flapping) is what is checked.
        sleep(2)
        let flapping = server.count(" LOGIN ")
        XCTAssertTrue((3...8).contains(flapping), "\(flapping) logins in 2 s: \(watch.err)")
        XCTAssertEqual(lines(watch.err, containing: "trying again"), 1, watch.err)

        try server.set(.normal)
        let fixed = Date()
        XCTAssertTrue(WatchProcess.waitUntil(30) { watch.err.contains("connected again") }, watch.err)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(fixed), WatchProcess.scaledSettle, "said once it held")
        XCTAssertEqual(lines(watch.err, containing: "test/INBOX: connected again, and up for 3 s now"), 1, watch.err)

        // A new outage: said again, and the pauses start over (0.05, 0.1, 0.2, 0.4 s).
        let before = server.count(" LOGIN ")
        try server.set(.closeOnIdle)
        XCTAssertTrue(WatchProcess.waitUntil(10) { lines(watch.err, containing: "trying again") == 2 }, watch.err)
        // Within 4 s: pauses from the first (0.05, 0.1, 0.2 ...) give 3 logins in about 0.4 s, with
        // room for a slow TLS handshake on a loaded machine; pauses that went on from the last
        // outage's (3.2, 6.4 s ...) give 2 at most.
        XCTAssertTrue(WatchProcess.waitUntil(4) { server.count(" LOGIN ") - before >= 3 },
                      "from the first pause again: \(server.count(" LOGIN ") - before) logins; \(watch.err)")
        XCTAssertEqual(watch.stop(), 0, watch.err)
        XCTAssertEqual(lines(watch.err, containing: "connected again"), 1, watch.err)
    }

    /// A server that never stops announcing (`* N EXISTS` without pause in IDLE): at
    /// most one pass a second (the old loop made one per notice, about 19 a second
    /// against this script), and SIGTERM still ends `watch` within 2 s.
    func testExistsFloodIsCoalescedAndSIGTERMEndsIt() throws {
        let server = try WatchIMAPServer(.existsFlood, dovecot: try DovecotServer.shared())
        defer { server.stop() }
        let folder = try scripted("watch-flood", ["test": server])
        defer { folder.remove() }
        let watch = try WatchProcess(config: folder.config)
        watch.waitUntilWatching()
        let start = server.count(" SELECT ")
        // A rate over a fixed window: that passes do NOT follow every notice.
        sleep(6)
        let passes = server.count(" SELECT ") - start
        print("watch against an EXISTS flood: \(passes) passes in 6 s")
        XCTAssertTrue((3...7).contains(passes), "\(passes) passes in 6 s: one a second, not one per notice")
        let selects = server.commands.filter { $0.text.contains(" SELECT ") }.map(\.seconds)
        let closest = zip(selects, selects.dropFirst()).map { $1 - $0 }.min() ?? 1
        XCTAssertGreaterThan(closest, 0.75, "passes about a second apart (as the server sees them): \(selects.prefix(20))")
        let signalled = Date()
        XCTAssertEqual(watch.stop(within: 10), 0, watch.err)
        let took = Date().timeIntervalSince(signalled)
        print("watch against an EXISTS flood: SIGTERM to exit \(String(format: "%.2f", took)) s")
        XCTAssertLessThan(took, 2, "SIGTERM ends it within 2 s during the flood")
        XCTAssertEqual(watch.err, "triage: test/INBOX: first run: 1 message already there was left alone; "
                       + "'triage run --all' processes it once\n", "the first pass only, however many passes follow")
    }

    func testChangedPasswordIsTriedAgainAndSaidOnce() throws {
        let server = try DovecotServer.shared()
        let proxy = try CutoffProxy(to: "127.0.0.1", port: server.imapsPort)
        defer { proxy.stop() }
        try proxy.set(.pass)
        let box = try box("watch-password", port: proxy.port, accountLines: ["timeout": "2"])
        defer { box.remove() }
        let watch = try WatchProcess(config: box.folder.config, environment: WatchProcess.timeScale)
        watch.waitUntilWatching()

        // The password changed on the server and the connection drops: every login is refused.
        try "not-the-password".write(toFile: box.folder.dir + "/pw", atomically: true, encoding: .utf8)
        let connections = proxy.totals.count
        try proxy.cutLive()
        XCTAssertTrue(WatchProcess.waitUntil(30) { watch.err.contains("trying again") }, watch.err)
        try box.append(["watch while refused"])
        // Attempts after 0.05, 0.1, 0.2 ... s (scaled), all refused: the cut connection and four more.
        XCTAssertTrue(WatchProcess.waitUntil(30) { proxy.totals.count >= connections + 5 }, "\(proxy.totals) \(watch.err)")
        XCTAssertEqual(box.count("INBOX"), 1)
        // One line for the drop, one for the refusal: not one per attempt.
        XCTAssertEqual(lines(watch.err, containing: "trying again"), 2, "once per cause: \(watch.err)")
        XCTAssertEqual(lines(watch.err, containing: "refused the login"), 1, watch.err)

        // The user updates it: the next attempt gets in and takes what arrived.
        try DovecotServer.password.write(toFile: box.folder.dir + "/pw", atomically: true, encoding: .utf8)
        XCTAssertTrue(box.waitUntilDone(1), "INBOX \(box.count("INBOX")): \(watch.err)")
        XCTAssertTrue(WatchProcess.waitUntil(30) { watch.err.contains("connected again, and up") }, watch.err)
        XCTAssertEqual(watch.stop(), 0)
        XCTAssertEqual(lines(watch.err, containing: "connected again, and up"), 1, watch.err)
        XCTAssertEqual(box.queueRecords.count, 1, box.queueRecords.joined(separator: "\n"))
    }
}
