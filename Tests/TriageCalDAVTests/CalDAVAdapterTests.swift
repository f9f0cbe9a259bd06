import Foundation
import TriageCalDAV
import TriageConfig
import TriageCore
import TriageICS
import TriageXML
import XCTest

/// The CalDAV pieces that need no server: multistatus through libxml2, the
/// `[caldav NAME]` section, and records ↔ VTODO fields.
final class CalDAVAdapterTests: XCTestCase {
    func testAMultistatusIsReadWithNamespacesAndAttributes() throws {
        let xml = """
        <?xml version="1.0"?>
        <ns0:multistatus xmlns:ns0="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
          <ns0:response><ns0:href>/me/tasks/</ns0:href>
            <ns0:propstat><ns0:prop>
              <ns0:displayname>Tasks &amp; more</ns0:displayname>
              <C:supported-calendar-component-set><C:comp name="VTODO"/></C:supported-calendar-component-set>
            </ns0:prop><ns0:status>HTTP/1.1 200 OK</ns0:status></ns0:propstat>
          </ns0:response>
        </ns0:multistatus>
        """
        let root = try XMLDocument.parse(Array(xml.utf8))
        XCTAssertTrue(root.is("DAV:", "multistatus"))
        let prop = root.child("DAV:", "response")?.child("DAV:", "propstat")?.child("DAV:", "prop")
        XCTAssertEqual(prop?.child("DAV:", "displayname")?.text, "Tasks & more")
        XCTAssertEqual(prop?.descendants("urn:ietf:params:xml:ns:caldav", "comp").first?.attributes["name"], "VTODO")
    }

    func testExternalEntitiesAreNeverLoadedAndBadXMLIsAnError() throws {
        let xml = """
        <?xml version="1.0"?>
        <!DOCTYPE d [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
        <d:multistatus xmlns:d="DAV:"><d:href>&secret;</d:href></d:multistatus>
        """
        let root = try? XMLDocument.parse(Array(xml.utf8))
        XCTAssertFalse(root?.child("DAV:", "href")?.text.contains("root:") ?? false, "no file is read")
        XCTAssertThrowsError(try XMLDocument.parse(Array("<d:a xmlns:d='DAV:'><d:b></d:a>".utf8)))
        XCTAssertThrowsError(try XMLDocument.parse([]))
        let deep = String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
        XCTAssertThrowsError(try XMLDocument.parse(Array(deep.utf8)), "nesting is bounded")
    }

    func testTheCalDAVSectionIsRead() throws {
        let config = try ConfigLoader.parse("""
        [triage]
        rules = r
        [caldav phone]
        url = https://caldav.example.com/
        user = me
        password = secret
        ca_file = ca.pem
        reminders = Errands
        queues = rec, invitations
        queue.reply = To answer
        create_lists = no
        timeout = 20
        """, path: "/x/triage.conf")
        let s = try XCTUnwrap(config.caldav.first)
        XCTAssertEqual(s.name, "phone")
        XCTAssertEqual(s.url, "https://caldav.example.com/")
        XCTAssertEqual(s.caFile, "/x/ca.pem")
        XCTAssertEqual(s.remindersList, "Errands")
        XCTAssertEqual(s.queueLists, ["rec": "rec", "invitations": "invitations", "reply": "To answer"])
        XCTAssertFalse(s.createLists)
        XCTAssertEqual(s.timeout, 20)
        XCTAssertEqual(s.lists.map(\.name), ["Errands", "invitations", "rec", "To answer"])

        let defaults = try ConfigLoader.parse("[triage]\nrules = r\n[caldav p]\nurl = https://h/\n", path: "/x/c")
        XCTAssertEqual(defaults.caldav.first?.lists.map(\.name), ["Reminders"], "reminders go to \"Reminders\" by default")
        XCTAssertTrue(defaults.caldav.first?.createLists == true)

        XCTAssertThrowsError(try ConfigLoader.parse("[triage]\nrules = r\n[caldav p]\nurl = ftp://h/\n", path: "/x/c")) { error in
            XCTAssertTrue("\(error)".contains("url must start with https://"), "\(error)")
        }
        XCTAssertThrowsError(try ConfigLoader.parse("[triage]\nrules = r\n[caldav p]\nuser = me\n", path: "/x/c")) { error in
            XCTAssertTrue("\(error)".contains("[caldav p] needs a url"), "\(error)")
        }
    }

    func testServerFieldsAreReadBackAgainstTheRecord() throws {
        let codec = CalDAVTodoCodec(timeZone: TimeZone(identifier: "Europe/Berlin")!)
        let message = MessageSummary(from: Address(name: "Ann", address: "ann@example.com"), subject: "Lunch", messageID: "m1@x")
        let r = Reminder(id: String(repeating: "a", count: 32), title: "Reply to Ann", note: "before noon",
                         due: CivilDate(year: 2026, month: 12, day: 10), at: TimeOfDay(hour: 9, minute: 30),
                         created: Timestamp(secondsSince1970: 0, utcOffsetSeconds: 0), message: message)
        let text = codec.text(of: r, fields: codec.fields(of: r), now: Date(timeIntervalSince1970: 1_764_000_000))
        let read = try XCTUnwrap(codec.fields(ofText: text, record: r, isQueueEntry: false))
        XCTAssertEqual(read.fields, codec.fields(of: r), "what triage writes reads back as the same fields")
        XCTAssertEqual(read.fields.note, "before noon", "the message details are not part of the note")

        // A phone writing DUE in UTC, completing with only a COMPLETED date.
        let phone = text.replacingOccurrences(of: "STATUS:NEEDS-ACTION\r\n", with: "COMPLETED:20261210T100000Z\r\n")
            .replacingOccurrences(of: #"DUE;TZID=Europe/Berlin:20261210T093000"#, with: "DUE:20261211T170000Z")
        let done = try XCTUnwrap(codec.fields(ofText: phone, record: r, isQueueEntry: false))
        XCTAssertTrue(done.fields.done)
        XCTAssertEqual(done.fields.due, "2026-12-11T18:00", "a UTC due in the configured zone")
    }

    func testOnlyTriagesOwnUIDsNameRecords() {
        XCTAssertEqual(CalDAVTodoCodec.recordID(of: String(repeating: "b", count: 32) + "@triage"), String(repeating: "b", count: 32))
        XCTAssertNil(CalDAVTodoCodec.recordID(of: "phone-made-1"))
        XCTAssertNil(CalDAVTodoCodec.recordID(of: "../x@triage"))
    }
}
