import Foundation
import TriageCore
import TriageICS
import XCTest

final class ICSExportTests: XCTestCase {
    private let zone = TimeZone(identifier: "Europe/Berlin")!
    private let now = Date(timeIntervalSince1970: 1_772_439_300) // 2026-03-02 09:15 +01:00

    private func reminders() -> [Reminder] {
        let created = Timestamp(now, timeZone: zone)
        let office = Place(latitude: 52.520008, longitude: 13.404954, radiusMeters: 150, proximity: .leaving, title: "Office, Berlin")
        let shop = Place(latitude: -33.8688, longitude: 151.2093, radiusMeters: 2000, proximity: .arriving)
        let mail = MessageSummary(from: Address(name: "Alice", address: "alice@example.test"), subject: "Invoice 42",
                                  date: "2026-03-01T10:00:00+01:00", messageID: "inv42@example.test",
                                  account: "personal", mailbox: "INBOX", uid: 7, snippet: "Please pay")
        return [
            Reminder(id: "0123456789abcdef0123456789abcdef", title: "Buy milk, eggs; \"bread\"", note: "Semi-skimmed",
                     due: CivilDate(year: 2026, month: 3, day: 4), at: TimeOfDay(hour: 9, minute: 30), place: office, created: created),
            Reminder(id: "1123456789abcdef0123456789abcdef", title: "Dentist", due: CivilDate(year: 2026, month: 3, day: 5), created: created),
            Reminder(id: "2123456789abcdef0123456789abcdef", title: "Pick up parcel", due: CivilDate(year: 2026, month: 7, day: 1),
                     place: shop, created: created),
            Reminder(id: "3123456789abcdef0123456789abcdef", title: "Pay invoice", note: "Before Friday",
                     due: CivilDate(year: 2026, month: 3, day: 6), created: created, rule: "invoices", message: mail),
        ]
    }

    func testExportParsesBackWithLibicalAsWritten() throws {
        let text = ICSExporter.calendar(reminders(), timeZone: zone, now: now)
        let todos = try ICSReader.todos(in: text)
        XCTAssertEqual(todos.map(\.uid), reminders().map { $0.id + "@triage" })

        let milk = todos[0]
        XCTAssertEqual(milk.summary, "Buy milk, eggs; \"bread\"")
        XCTAssertEqual(milk.status, "NEEDS-ACTION")
        XCTAssertEqual(milk.due, "20260304T093000")
        XCTAssertEqual(milk.dueTZID, "Europe/Berlin")
        XCTAssertFalse(milk.dueIsDate)
        XCTAssertEqual(milk.geo?.latitude, 52.520008)
        XCTAssertEqual(milk.geo?.longitude, 13.404954)
        XCTAssertEqual(milk.location, "Office, Berlin")
        XCTAssertEqual(milk.appleLocation, ICSAppleLocation(uri: "geo:52.520008,13.404954", radius: "150", title: "Office, Berlin"))
        XCTAssertEqual(milk.alarms.count, 2, "the place's alarm and the time's")
        // `at 09:30` in Berlin: a DISPLAY alarm at that moment, in UTC.
        XCTAssertEqual(milk.alarms.last?.action, "DISPLAY")
        XCTAssertEqual(milk.alarms.last?.trigger, "20260304T083000Z")
        XCTAssertNil(milk.alarms.last?.appleProximity)
        // libical 3.0 (Debian 12) predates RFC 9074: it reads Apple's proximity and
        // drops PROXIMITY as an unknown property (Python's icalendar reads it below).
        XCTAssertEqual(milk.alarms.first?.appleProximity, "DEPART")
        XCTAssertEqual(milk.alarms.first?.unknownProperties, ["PROXIMITY"])
        XCTAssertTrue(text.contains("\r\nPROXIMITY:DEPART\r\n"))
        XCTAssertEqual(milk.alarms.first?.action, "DISPLAY")
        XCTAssertEqual(milk.alarms.first?.trigger, "19760401T005545Z")
        XCTAssertEqual(milk.alarms.first?.appleLocation?.uri, "geo:52.520008,13.404954")

        let dentist = todos[1]
        XCTAssertEqual(dentist.due, "20260305")
        XCTAssertTrue(dentist.dueIsDate)
        XCTAssertNil(dentist.dueTZID)
        XCTAssertNil(dentist.geo)
        XCTAssertEqual(dentist.alarms, [])
        XCTAssertNil(dentist.appleLocation)
        XCTAssertEqual(dentist.unknownProperties, [])

        let parcel = todos[2]
        XCTAssertEqual(parcel.geo?.latitude, -33.8688)
        XCTAssertEqual(parcel.geo?.longitude, 151.2093)
        XCTAssertEqual(parcel.location, "-33.8688,151.2093")
        XCTAssertEqual(parcel.appleLocation?.radius, "2000")
        XCTAssertEqual(parcel.alarms.first?.appleProximity, "ARRIVE")
        XCTAssertTrue(text.contains("\r\nPROXIMITY:ARRIVE\r\n"))

        let invoice = todos[3]
        XCTAssertEqual(invoice.description, """
            Before Friday

            From: Alice <alice@example.test>
            Subject: Invoice 42
            Date: 2026-03-01T10:00:00+01:00
            Message-ID: <inv42@example.test>
            Mailbox: personal/INBOX
            Rule: invoices
            """)
    }

    func testLinesAreCRLFAndFoldedAndUIDsStable() throws {
        let first = ICSExporter.calendar(reminders(), timeZone: zone, now: now)
        let later = ICSExporter.calendar(reminders(), timeZone: zone, now: now.addingTimeInterval(86_400))
        XCTAssertEqual(try ICSReader.todos(in: first).map(\.uid), try ICSReader.todos(in: later).map(\.uid))
        XCTAssertNotEqual(first, later) // DTSTAMP moves
        XCTAssertTrue(first.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        XCTAssertTrue(first.hasSuffix("END:VCALENDAR\r\n"))
        let lines = first.components(separatedBy: "\r\n")
        XCTAssertFalse(lines.contains { $0.contains("\n") })
        XCTAssertTrue(lines.allSatisfy { $0.utf8.count <= 75 })
        // Exactly one VTIMEZONE, for the zone the timed reminder uses.
        XCTAssertEqual(lines.filter { $0 == "BEGIN:VTIMEZONE" }.count, 1)
        XCTAssertTrue(lines.contains("TZID:Europe/Berlin"))
    }

    func testUTCTimesNeedNoTimeZoneComponent() throws {
        let utc = TimeZone(identifier: "UTC")!
        let text = ICSExporter.calendar([reminders()[0]], timeZone: utc, now: now)
        XCTAssertFalse(text.contains("VTIMEZONE"))
        let todo = try XCTUnwrap(try ICSReader.todos(in: text).first)
        XCTAssertEqual(todo.due, "20260304T093000Z")
        XCTAssertNil(todo.dueTZID)
    }

    func testAZoneLibicalDoesNotKnowIsWrittenInUTC() throws {
        let fixed = TimeZone(secondsFromGMT: 3600)! // "GMT+0100": no IANA definition
        let text = ICSExporter.calendar([reminders()[0]], timeZone: fixed, now: now)
        XCTAssertFalse(text.contains("TZID"))
        let todo = try XCTUnwrap(try ICSReader.todos(in: text).first)
        XCTAssertEqual(todo.due, "20260304T083000Z")
    }

    func testReaderRejectsBrokenCalendars() {
        XCTAssertThrowsError(try ICSReader.todos(in: "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:x\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"))
        XCTAssertThrowsError(try ICSReader.todos(in: "not a calendar"))
    }

    func testExportParsesBackWithPythonIcalendar() throws {
        let text = ICSExporter.calendar(reminders(), timeZone: zone, now: now)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("triage-ics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("reminders.ics")
        try Data(text.utf8).write(to: file)

        let script = """
        import json, sys
        from icalendar import Calendar
        cal = Calendar.from_ical(open(sys.argv[1], 'rb').read())
        out = []
        for todo in cal.walk('VTODO'):
            due = todo['DUE'].dt
            item = {'uid': str(todo['UID']), 'summary': str(todo['SUMMARY']), 'status': str(todo['STATUS']),
                    'due': due.isoformat(), 'due_zone': str(getattr(due, 'tzinfo', None) or '')}
            if 'GEO' in todo:
                item['geo'] = [todo['GEO'].latitude, todo['GEO'].longitude]
                item['location'] = str(todo['LOCATION'])
                apple = todo['X-APPLE-STRUCTURED-LOCATION']
                item['apple'] = [str(apple), apple.params.get('X-APPLE-RADIUS'), apple.params.get('X-TITLE'), apple.params.get('VALUE')]
            item['alarms'] = [{'proximity': str(a.get('PROXIMITY')), 'trigger': a['TRIGGER'].dt.isoformat(),
                               'action': str(a['ACTION']),
                               'locations': [str(v.get('URL')) for v in a.subcomponents if v.name == 'VLOCATION']}
                              for a in todo.walk('VALARM')]
            out.append(item)
        print(json.dumps(out))
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, file.path]
        let pipe = Pipe()
        let errors = Pipe()
        process.standardOutput = pipe
        process.standardError = errors
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, errorText)

        let todos = try XCTUnwrap(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
        XCTAssertEqual(todos.count, 4)
        let milk = todos[0]
        XCTAssertEqual(milk["uid"] as? String, "0123456789abcdef0123456789abcdef@triage")
        XCTAssertEqual(milk["summary"] as? String, "Buy milk, eggs; \"bread\"")
        XCTAssertEqual(milk["status"] as? String, "NEEDS-ACTION")
        XCTAssertEqual(milk["due"] as? String, "2026-03-04T09:30:00+01:00")
        XCTAssertEqual(milk["due_zone"] as? String, "Europe/Berlin")
        XCTAssertEqual(milk["geo"] as? [Double], [52.520008, 13.404954])
        XCTAssertEqual(milk["location"] as? String, "Office, Berlin")
        XCTAssertEqual(milk["apple"] as? [String], ["geo:52.520008,13.404954", "150", "Office, Berlin", "URI"])
        let alarms = try XCTUnwrap(milk["alarms"] as? [[String: Any]])
        guard alarms.count == 2 else { return XCTFail("the place's alarm and the time's: \(alarms)") }
        // The time alarm fires at the due time (09:30 Berlin), so the phone alerts then.
        XCTAssertEqual(alarms[1]["trigger"] as? String, "2026-03-04T08:30:00+00:00")
        XCTAssertEqual(alarms[1]["action"] as? String, "DISPLAY")
        XCTAssertEqual(alarms[1]["proximity"] as? String, "None")
        XCTAssertEqual(alarms[0]["proximity"] as? String, "DEPART")
        XCTAssertEqual(alarms[0]["action"] as? String, "DISPLAY")
        XCTAssertEqual(alarms[0]["trigger"] as? String, "1976-04-01T00:55:45+00:00")
        XCTAssertEqual(alarms[0]["locations"] as? [String], ["geo:52.520008,13.404954;u=150"])

        XCTAssertEqual(todos[1]["due"] as? String, "2026-03-05")
        XCTAssertNil(todos[1]["geo"])
        XCTAssertEqual((todos[1]["alarms"] as? [Any])?.count, 0)
        XCTAssertEqual(todos[2]["geo"] as? [Double], [-33.8688, 151.2093])
        XCTAssertEqual((todos[2]["alarms"] as? [[String: Any]])?.first?["proximity"] as? String, "ARRIVE")
    }

    /// A reminder with a time and no place has one alarm, at its due time, in any zone;
    /// a named place is the LOCATION, not its coordinates.
    func testATimedReminderAlertsAtItsTimeAndANamedPlaceIsTheLocation() throws {
        let created = Timestamp(now, timeZone: zone)
        let office = Place(latitude: 38.97, longitude: -95.23, radiusMeters: 200, title: "Office")
        let call = Reminder(id: "4123456789abcdef0123456789abcdef", title: "Call back", due: CivilDate(year: 2026, month: 7, day: 1),
                            at: TimeOfDay(hour: 18, minute: 30), created: created)
        let desk = Reminder(id: "5123456789abcdef0123456789abcdef", title: "Clear desk", due: CivilDate(year: 2026, month: 7, day: 2),
                            place: office, created: created)
        let text = ICSExporter.calendar([call, desk], timeZone: zone, now: now)
        let todos = try ICSReader.todos(in: text)
        XCTAssertEqual(todos[0].alarms.count, 1)
        XCTAssertEqual(todos[0].alarms.first?.trigger, "20260701T163000Z", "18:30 in Berlin summer time")
        XCTAssertEqual(todos[0].alarms.first?.action, "DISPLAY")
        XCTAssertEqual(todos[1].location, "Office")
        XCTAssertEqual(todos[1].appleLocation?.title, "Office")
        XCTAssertEqual(todos[1].alarms.count, 1, "the place's alarm only: no time")
    }
}
