import Foundation
import TriageCalDAV
import TriageCore
import TriageICS
import TriageXML

private let dav = "DAV:"
private let caldav = "urn:ietf:params:xml:ns:caldav"
private let codec = CalDAVTodoCodec(timeZone: TimeZone(identifier: "Europe/Berlin")!)
private let record = Reminder(id: "0162" + String(repeating: "0", count: 27) + "1", title: "Call the bank",
                              due: CivilDate(year: 2026, month: 3, day: 4), created: Timestamp(Date(timeIntervalSince1970: 1_767_225_600),
                                                                                             timeZone: TimeZone(identifier: "UTC")!))

/// Reads one VTODO text as the sync does: libical (lenient), then the codec's fields
/// against a record, as a reminder and as a queue entry.
private func readTodo(_ text: String) {
    if let todos = try? ICSReader.todos(in: text, strict: false) {
        for todo in todos { _ = CalDAVTodoCodec.recordID(of: todo.uid) }
    }
    _ = try? ICSReader.todos(in: text)
    for isQueue in [false, true] {
        if let read = codec.fields(ofText: text, record: record, isQueueEntry: isQueue), let due = read.fields.due {
            // A due text the codec made is one it reads back.
            precondition(CalDAVTodoCodec.parseDue(due) != nil || due.isEmpty, "unreadable due text \(due)")
        }
    }
}

/// libFuzzer entry point: the input as a WebDAV multistatus answer (PROPFIND,
/// calendar-query, calendar-multiget, sync-collection), walked the way
/// `CalDAVClient` walks it (responses, href, the 200 propstat, its properties),
/// with every calendar-data's text read as a VTODO; and the input as a VTODO text
/// itself (a GET's body).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCalDAV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let root = try? XMLDocument.parse(bytes), root.is(dav, "multistatus") {
        _ = root.child(dav, "sync-token")?.text
        for response in root.all(dav, "response") {
            _ = response.child(dav, "href")?.text
            _ = response.child(dav, "status")?.text.contains(" 404")
            let ok = response.all(dav, "propstat").first { ($0.child(dav, "status")?.text ?? "").contains(" 200") }
            guard let props = ok?.child(dav, "prop") else { continue }
            _ = props.child(dav, "resourcetype")?.child(caldav, "calendar")
            _ = (props.child(caldav, "supported-calendar-component-set")?.all(caldav, "comp") ?? []).compactMap { $0.attributes["name"] }
            _ = props.child(caldav, "calendar-home-set")?.child(dav, "href")?.text
            _ = props.child(dav, "current-user-principal")?.child(dav, "href")?.text
            _ = props.descendants(dav, "href").count
            if let text = props.child(caldav, "calendar-data")?.text, !text.isEmpty { readTodo(text) }
        }
    }
    readTodo(String(decoding: bytes, as: UTF8.self))
    return 0
}
