@testable import TriageConfig
import TriageCore
import XCTest

final class ConfigLoaderTests: XCTestCase {
    func testReadsTriageSectionWithInlineComments() throws {
        let text = """
        [triage]
        me = me@example.test, me.alias@example.test   ; who `me` is, in queries
        rules = Rules                                   ; folder of *.rules files
        timezone = America/Chicago
        """
        let config = try ConfigLoader.parse(text, path: "/home/u/.config/triage/triage.conf")
        XCTAssertEqual(config.triage.me, ["me@example.test", "me.alias@example.test"])
        XCTAssertEqual(config.triage.rules, "/home/u/.config/triage/Rules")
        XCTAssertEqual(config.triage.timeZone?.identifier, "America/Chicago")
        XCTAssertNil(config.digest)
    }

    func testAccountTimeoutIsSecondsFromOneToAnHour() throws {
        let good = try ConfigLoader.parse("[triage]\n[account a]\nurl = imaps://h\ntimeout = 15\n[account b]\nurl = imaps://h\n", path: "t.conf")
        XCTAssertEqual(good.accounts.map(\.timeout), [15, nil])
        for bad in ["0", "3601", "ten", "1.5"] {
            XCTAssertThrowsError(try ConfigLoader.parse("[triage]\n[account a]\nurl = imaps://h\ntimeout = \(bad)\n", path: "t.conf")) { error in
                let problems = (error as? ConfigError)?.problems ?? []
                XCTAssertEqual(problems.map(\.line), [4], "\(bad): \(problems)")
                XCTAssertTrue(problems.first?.message.contains("timeout must be") ?? false, "\(problems)")
            }
        }
    }

    /// `[caldav NAME] interval` (issue 26, how often `watch` syncs): seconds, 10 to a day, nil for the default.
    func testCalDAVIntervalIsSecondsFromTenToADay() throws {
        let good = try ConfigLoader.parse("[triage]\n[caldav a]\nurl = https://h/\ninterval = 60\n[caldav b]\nurl = https://h/\n",
                                          path: "t.conf")
        XCTAssertEqual(good.caldav.map(\.interval), [60, nil])
        XCTAssertEqual(CalDAVSection.defaultInterval, 300)
        for bad in ["9", "86401", "often"] {
            XCTAssertThrowsError(try ConfigLoader.parse("[triage]\n[caldav a]\nurl = https://h/\ninterval = \(bad)\n", path: "t.conf")) { error in
                let problems = (error as? ConfigError)?.problems ?? []
                XCTAssertEqual(problems.map(\.line), [4], "\(bad): \(problems)")
                XCTAssertTrue(problems.first?.message.contains("interval must be") ?? false, "\(problems)")
            }
        }
    }

    /// `sent = FOLDER` (issue 28, `triage suggest`): the folder as written, nil by default, empty an error on its line.
    func testSentIsAFolderNameOrTheServersSentFolder() throws {
        let good = try ConfigLoader.parse("[triage]\n[account a]\nurl = imaps://h\nsent = Sent Items\n[account b]\nurl = imaps://h\n",
                                          path: "t.conf")
        XCTAssertEqual(good.accounts.map(\.sent), ["Sent Items", nil])
        XCTAssertThrowsError(try ConfigLoader.parse("[triage]\n[account a]\nurl = imaps://h\nsent = \n", path: "t.conf")) { error in
            let problems = (error as? ConfigError)?.problems ?? []
            XCTAssertEqual(problems.map(\.line), [4], "\(problems)")
            XCTAssertTrue(problems.first?.message.hasPrefix("sent is empty") ?? false, "\(problems)")
        }
    }

    /// `server_search` (issue 14, narrowing): auto by default, any case, anything else an error on its line.
    func testServerSearchIsAutoSubstringOrOff() throws {
        let good = try ConfigLoader.parse("[triage]\n[account a]\nurl = imaps://h\nserver_search = Substring\n"
                                          + "[account b]\nurl = imaps://h\nserver_search = off\n[account c]\nurl = imaps://h\n",
                                          path: "t.conf")
        XCTAssertEqual(good.accounts.map(\.serverSearch), [.substring, .off, .auto])
        XCTAssertThrowsError(try ConfigLoader.parse("[triage]\n[account a]\nurl = imaps://h\nserver_search = words\n", path: "t.conf")) { error in
            let problems = (error as? ConfigError)?.problems ?? []
            XCTAssertEqual(problems.map(\.line), [4], "\(problems)")
            XCTAssertEqual(problems.first?.message, "server_search must be auto, substring or off, not 'words'")
        }
    }

    /// `max_connections` (issue 26, `triage watch` within the server's limit): a whole
    /// number from 1 to 100, nil (5) when left out; 0 is an error on its line.
    func testMaxConnectionsIsAWholeNumberFromOne() throws {
        let good = try ConfigLoader.parse("[triage]\n[account a]\nurl = imaps://h\nmax_connections = 1\n"
                                          + "[account b]\nurl = imaps://h\n", path: "t.conf")
        XCTAssertEqual(good.accounts.map(\.maxConnections), [1, nil])
        XCTAssertEqual(AccountSection.defaultMaxConnections, 5)
        for bad in ["0", "-2", "two", "101"] {
            XCTAssertThrowsError(try ConfigLoader.parse("[triage]\n[account a]\nurl = imaps://h\nmax_connections = \(bad)\n",
                                                        path: "t.conf")) { error in
                let problems = (error as? ConfigError)?.problems ?? []
                XCTAssertEqual(problems.map(\.line), [4], "\(problems)")
                XCTAssertEqual(problems.first?.message,
                               "max_connections must be a whole number of connections from 1 to 100, not '\(bad)'")
            }
        }
    }

    func testCommandTimeoutAndWebhookLimitsAreSecondsFromOneToAnHour() throws {
        let good = try ConfigLoader.parse("""
        [triage]
        webhook_budget = 90
        webhook_timeout = 5
        [account a]
        url = imaps://h
        command_timeout = 120
        [account b]
        url = imaps://h
        [digest]
        to = me@example.test
        from = t@example.test
        smtp = smtps://h
        command_timeout = 7
        """, path: "t.conf")
        XCTAssertEqual(good.accounts.map(\.commandTimeout), [120, nil])
        XCTAssertEqual(good.digest?.commandTimeout, 7)
        XCTAssertEqual(good.triage.webhookBudget, 90)
        XCTAssertEqual(good.triage.webhookTimeout, 5)
        let defaults = try ConfigLoader.parse("[triage]\n", path: "t.conf")
        XCTAssertNil(defaults.triage.webhookBudget)
        XCTAssertNil(defaults.triage.webhookTimeout)
        for (section, key) in [("[account a]\nurl = imaps://h", "command_timeout"),
                               ("[digest]\nto = a@b.test\nfrom = c@d.test\nsmtp = smtps://h", "command_timeout"),
                               ("", "webhook_budget"), ("", "webhook_timeout")] {
            for bad in ["0", "3601", "ten", "1.5"] {
                let text = section.isEmpty ? "[triage]\n\(key) = \(bad)\n" : "[triage]\n\(section)\n\(key) = \(bad)\n"
                XCTAssertThrowsError(try ConfigLoader.parse(text, path: "t.conf")) { error in
                    let problems = (error as? ConfigError)?.problems ?? []
                    XCTAssertEqual(problems.count, 1, "\(key) = \(bad): \(problems)")
                    XCTAssertTrue(problems.first?.message.contains("\(key) must be a whole number of seconds from 1 to 3600") ?? false,
                                  "\(problems)")
                }
            }
        }
    }

    func testWatchIntervalsAreSecondsAndIDLEStaysUnder29Minutes() throws {
        let good = try ConfigLoader.parse("[triage]\npoll_interval = 30\nidle_interval = 600\n", path: "t.conf")
        XCTAssertEqual(good.triage.pollInterval, 30)
        XCTAssertEqual(good.triage.idleInterval, 600)
        let defaults = try ConfigLoader.parse("[triage]\n", path: "t.conf")
        XCTAssertNil(defaults.triage.pollInterval)
        XCTAssertNil(defaults.triage.idleInterval)
        for (key, bad, range) in [("poll_interval", "0", "1 to 3600"), ("poll_interval", "soon", "1 to 3600"),
                                  ("idle_interval", "1741", "5 to 1740"), ("idle_interval", "4", "5 to 1740")] {
            XCTAssertThrowsError(try ConfigLoader.parse("[triage]\n\(key) = \(bad)\n", path: "t.conf")) { error in
                let problems = (error as? ConfigError)?.problems ?? []
                XCTAssertEqual(problems.map(\.line), [2], "\(key) = \(bad)")
                XCTAssertTrue(problems.first?.message.contains("\(key) must be a whole number of seconds from \(range)") ?? false,
                              "\(problems)")
            }
        }
    }

    func testReportsEveryProblemWithItsLine() {
        let text = """
        [triage]
        me = me@example.test
        colour = blue
        timezone = Mars/Olympus

        [bogus]
        [account personal]
        user = me
        [digest]
        to = me@example.test
        hour = 25
        """
        XCTAssertThrowsError(try ConfigLoader.parse(text, path: "t.conf")) { error in
            let problems = (error as? ConfigError)?.problems ?? []
            let lines = problems.map(\.line)
            XCTAssertTrue(lines.contains(3), "unknown key: \(problems)")
            XCTAssertTrue(lines.contains(4), "bad time zone: \(problems)")
            XCTAssertTrue(lines.contains(6), "unknown section: \(problems)")
            XCTAssertTrue(lines.contains(7), "account without url: \(problems)")
            XCTAssertTrue(lines.contains(11), "bad hour: \(problems)")
            XCTAssertTrue(problems.contains { $0.rendered.hasPrefix("t.conf:3: error: unknown key 'colour'") })
            XCTAssertEqual((error as? ConfigError)?.exitStatus, .config)
        }
    }

    /// `[place NAME]`: a named place for reminders, `at = LAT,LON` and `radius = N UNIT`.
    func testPlacesAreNamedCirclesWithTheirProblemsOnTheirLines() throws {
        let good = try ConfigLoader.parse("""
            [triage]
            [place Office]
            at = 38.97, -95.23
            radius = 200 m
            [place Home]
            at = -33.86,151.21
            radius = 2 miles
            [place Gym]
            at = 1,2
            """, path: "t.conf")
        XCTAssertEqual(good.places, [Place(latitude: 38.97, longitude: -95.23, radiusMeters: 200, title: "Office"),
                                     Place(latitude: -33.86, longitude: 151.21, radiusMeters: 3218.688, title: "Home"),
                                     Place(latitude: 1, longitude: 2, radiusMeters: 100, title: "Gym")])
        XCTAssertEqual(good.placesByName["office"]?.title, "Office")
        XCTAssertThrowsError(try ConfigLoader.parse("""
            [triage]
            [place Office]
            at = 95,0
            radius = far
            [place]
            [place Home]
            radius = 1 km
            [place office]
            at = 1,2
            """, path: "t.conf")) { error in
            let problems = (error as? ConfigError)?.problems.map { "\($0.line): \($0.message)" } ?? []
            XCTAssertEqual(problems, [
                "3: at must be LAT,LON in decimal degrees (latitude -90..90, longitude -180..180), as in at = 38.9717,-95.2353; not '95,0'",
                "4: radius must be a number above 0 and a unit (m, km, mi), as in radius = 200 m; not 'far'",
                "5: a place section needs a name: [place NAME], as in [place Office]",
                "6: [place Home] needs 'at = LAT,LON', as in at = 38.9717,-95.2353",
                "8: place 'office' is defined twice",
            ])
        }
    }

    func testPasswordNeedsPrivateFile() {
        let text = "[triage]\n[account a]\nurl = imaps://h\npassword = x\n"
        XCTAssertThrowsError(try ConfigLoader.parse(text, path: "c.conf", fileIsPrivate: false)) { error in
            XCTAssertTrue((error as? ConfigError)?.message.contains("chmod 600") ?? false)
            XCTAssertFalse((error as? ConfigError)?.message.contains("x\n") ?? true)
        }
        XCTAssertNoThrow(try ConfigLoader.parse(text, path: "c.conf", fileIsPrivate: true))
    }

    func testMissingFileIsNoInput() {
        XCTAssertThrowsError(try ConfigLoader.load(path: "/nonexistent/triage.conf")) { error in
            XCTAssertEqual((error as? ConfigError)?.exitStatus, .noInput)
        }
    }

    func testWindowsLineEndsReadLikeUnixOnes() throws {
        let text = "[triage]\r\nme = me@example.test\r\ntimezone = UTC\r\n\r\n[account a]\r\nurl = imaps://h\r\npassword = x\r\n"
        let config = try ConfigLoader.parse(text, path: "crlf.conf")
        XCTAssertEqual(config.triage.me, ["me@example.test"])
        XCTAssertEqual(config.triage.timeZone, TimeZone(identifier: "UTC"))
        XCTAssertEqual(config.accounts.first?.endpoint, .imap(MailServerURL(scheme: .imaps, host: "h", port: 993)))
        XCTAssertEqual(config.accounts.first?.password, "x", "no carriage return left in values")
        XCTAssertThrowsError(try ConfigLoader.parse("[triage]\r\nbogus = 1\r\n", path: "c.conf")) { error in
            XCTAssertEqual((error as? ConfigError)?.problems.first?.line, 2, "line numbers count CRLF lines")
        }
    }

    // MARK: - Typed values, parsed once (issue 12, item 5)

    func testEndpointsAndTheTimeZoneAreParsedIntoTheirTypes() throws {
        let config = try ConfigLoader.parse("""
        [triage]
        timezone = Europe/Berlin
        [account work]
        url = imap://mail.example.test:1143
        [account gmail]
        url = imaps://[::1]
        [account local]
        url = maildir:Mail
        [digest]
        to = me@example.test
        from = t@example.test
        smtp = smtp://relay.example.test
        """, path: "/home/u/.config/triage/triage.conf")
        XCTAssertEqual(config.triage.timeZone, TimeZone(identifier: "Europe/Berlin"))
        XCTAssertEqual(config.accounts.map(\.endpoint), [
            .imap(MailServerURL(scheme: .imap, host: "mail.example.test", port: 1143)),
            .imap(MailServerURL(scheme: .imaps, host: "::1", port: 993)),
            .maildir(path: "/home/u/.config/triage/Mail"),
        ])
        XCTAssertEqual(config.accounts.map(\.endpoint.description),
                       ["imap://mail.example.test:1143", "imaps://[::1]:993", "maildir:/home/u/.config/triage/Mail"])
        XCTAssertEqual(config.digest?.smtp, .smtp(host: "relay.example.test", port: 587))
        let file = try ConfigLoader.parse("[triage]\n[digest]\nto = a@b.test\nfrom = c@d.test\nsmtp = file:out\n", path: "/srv/t.conf")
        XCTAssertEqual(file.digest?.smtp, .directory(path: "/srv/out"))
    }

    func testDigestSendmailTLSOffAndTheCAFileOfTheSameHost() throws {
        let head = "[triage]\n[digest]\nto = a@b.test\nfrom = c@d.test\n"
        XCTAssertEqual(try ConfigLoader.parse(head + "smtp = sendmail\n", path: "/t.conf").digest?.smtp,
                       .sendmail(path: "/usr/sbin/sendmail"))
        XCTAssertEqual(try ConfigLoader.parse(head + "smtp = sendmail:/usr/bin/msmtp\n", path: "/t.conf").digest?.smtp,
                       .sendmail(path: "/usr/bin/msmtp"))
        let plain = try ConfigLoader.parse(head + "smtp = smtp://localhost:25\ntls = off\n", path: "/t.conf")
        XCTAssertEqual(plain.digest?.tlsOff, true)
        for refused in ["smtp = smtp://mail.example.test:25\ntls = off\n", "smtp = sendmail\ntls = off\n"] {
            XCTAssertThrowsError(try ConfigLoader.parse(head + refused, path: "/t.conf"), refused) { error in
                XCTAssertEqual((error as? ConfigError)?.exitStatus, .config)
            }
        }
        let accounts = "[account a]\nurl = imaps://Mail.Example.test\nca_file = /ca/a.pem\n"
            + "[account b]\nurl = imaps://other.example.test\nca_file = /ca/b.pem\n"
        let same = try ConfigLoader.parse(head + "smtp = smtps://mail.example.test\n" + accounts, path: "/t.conf")
        XCTAssertEqual(same.digestCAFile, "/ca/a.pem")
        let own = try ConfigLoader.parse(head + "smtp = smtps://mail.example.test\nca_file = /ca/d.pem\n" + accounts, path: "/t.conf")
        XCTAssertEqual(own.digestCAFile, "/ca/d.pem")
        let none = try ConfigLoader.parse(head + "smtp = smtps://smtp.example.test\n" + accounts, path: "/t.conf")
        XCTAssertNil(none.digestCAFile)
    }

    /// The actionable digest's keys: compact sections (default FYI, Lists, Newsletters; `none`) and the trash.
    func testDigestCompactAndTrash() throws {
        let base = "[triage]\n[digest]\nto = a@b.test\nfrom = c@d.test\nsmtp = file:out\n"
        let plain = try ConfigLoader.parse(base, path: "/srv/t.conf")
        XCTAssertEqual(plain.digest?.compact, ["FYI", "Lists", "Newsletters"])
        XCTAssertNil(plain.digest?.trash)
        let set = try ConfigLoader.parse(base + "compact = FYI, Receipts\ntrash = Deleted Messages\n", path: "/srv/t.conf")
        XCTAssertEqual(set.digest?.compact, ["FYI", "Receipts"])
        XCTAssertEqual(set.digest?.trash, "Deleted Messages")
        XCTAssertEqual(try ConfigLoader.parse(base + "compact = none\n", path: "/srv/t.conf").digest?.compact, [])
    }

    func testMalformedURLsAreConfigurationErrorsWithTheirLine() {
        // Before, these loaded and `triage check` passed them; the run failed later.
        let cases: [(String, Int, String)] = [
            ("[account a]\nurl = imaps://", 3, "url imaps://: no host"),
            ("[account a]\nurl = imap://h:99999", 3, "url imap://h:99999"),
            ("[account a]\nurl = imaps://user@h", 3, "url imaps://user@h"),
            ("[digest]\nto = a@b.test\nfrom = c@d.test\nsmtp = smtp://h:99999", 5, "not a port number"),
            ("[digest]\nto = a@b.test\nfrom = c@d.test\nsmtp = smtps://me@h", 5, "put the login in 'user'"),
            ("[digest]\nto = a@b.test\nfrom = c@d.test\nsmtp = file:", 5, "file: needs a folder"),
        ]
        for (section, line, words) in cases {
            XCTAssertThrowsError(try ConfigLoader.parse("[triage]\n" + section + "\n", path: "t.conf"), section) { error in
                let problems = (error as? ConfigError)?.problems ?? []
                XCTAssertEqual(problems.map(\.line), [line], "\(section): \(problems)")
                XCTAssertTrue(problems.first?.message.contains(words) ?? false, "\(section): \(problems)")
                XCTAssertEqual((error as? ConfigError)?.exitStatus, .config)
            }
        }
    }

    func testEachSectionsKnownKeysAreExactlyTheKeysItAccepts() throws {
        let tables: [(header: String, names: [String], required: String)] = [
            ("[triage]", SectionKeys.triage.map(\.name), ""),
            ("[account a]", SectionKeys.account.map(\.name), "url = imaps://h\n"),
            ("[digest]", SectionKeys.digest.map(\.name), "to = a@b.test\nfrom = c@d.test\nsmtp = smtps://h\n"),
            ("[place Office]", SectionKeys.place.map(\.name), "at = 1,2\n"),
        ]
        XCTAssertEqual(tables[0].names, ["me", "rules", "store", "timezone", "webhook_budget", "webhook_timeout", "quiet_failures",
                                         "poll_interval", "idle_interval"])
        for table in tables {
            let head = table.header == "[triage]" ? "[triage]\n" : "[triage]\n\(table.header)\n"
            // An unknown key's message lists the table, in its order.
            XCTAssertThrowsError(try ConfigLoader.parse(head + table.required + "colour = blue\n", path: "t.conf")) { error in
                XCTAssertEqual((error as? ConfigError)?.problems.map(\.message),
                               ["unknown key 'colour' in \(table.header); known: \(table.names.joined(separator: ", "))"])
            }
            // And every listed key is accepted (whatever its value's own checks say).
            for name in table.names {
                let text = head + table.required + "\(name) = x\n"
                do {
                    _ = try ConfigLoader.parse(text, path: "t.conf")
                } catch let error as ConfigError {
                    XCTAssertFalse(error.problems.contains { $0.message.hasPrefix("unknown key") }, "\(table.header) \(name): \(error)")
                }
            }
        }
    }
}
