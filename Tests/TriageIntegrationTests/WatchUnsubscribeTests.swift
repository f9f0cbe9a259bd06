import Foundation
import TriageCore
import XCTest

/// `triage watch` obeys an Unsubscribe link's message as `run` does (both drive
/// `RunPipeline`): the message the phone sends, dropped into a polled Maildir, is
/// read in the pass that finds it, and the `mailto:` unsubscribe goes out through
/// the digest's delivery (here `file:`) in that pass's after-mail step.
final class WatchUnsubscribeTests: XCTestCase {
    func testWatchCarriesOutAnUnsubscribeLinksMessage() throws {
        let folder = try TestFolder("watch-unsub", rules: "rule \"none\" when subject:\"never matches this\" then stop\n")
        defer { folder.remove() }
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: folder.dir + "/mail/" + sub, withIntermediateDirectories: true)
        }
        var triage = ConfigSection.triage()
        triage.lines.append(("poll_interval", "1"))
        try folder.writeConfig([triage, ConfigSection("account local", ["url": "maildir:mail"]),
                                ConfigSection("digest", ["to": "me@example.test", "from": "triage@example.test",
                                                         "hour": "0", "smtp": "file:\(folder.outbox)"])])

        // What a run and a sent digest left: the entry, its link's key, the record of what the digest showed.
        let mark = "w" + UUID().uuidString.prefix(8).lowercased()
        let store = try Store.open(path: folder.store, timeZone: TimeZone(identifier: "UTC")!)
        let key = try store.commandSecret(generate: { Array(repeating: 7, count: 32) })
        let id = "7e11" + String(repeating: "0", count: 27) + "1"
        var summary = MessageSummary(from: Address(name: "News", address: "letters@news.example"), subject: "Weekly",
                                     messageID: "w-\(mark)@news.example", snippet: "", list: "weekly.news.example")
        summary.unsubscribe = UnsubscribeOffer(mailto: "mailto:leave-\(mark)@news.example", oneClick: false, dkimPass: false, dkim: "none")
        try store.put(DigestEntry(id: id, section: "Newsletters", created: Timestamp(Date(), timeZone: store.timeZone),
                                  reported: Timestamp(Date(), timeZone: store.timeZone).localDay, rule: "news", message: summary))
        try store.digestShown.record(messageID: "digest-2030-01-15.aaaaaaaaaaaa.bbbbbbbbbbbbbbbb@triage.invalid",
                                     day: Timestamp(Date(), timeZone: store.timeZone).localDay, now: Date().addingTimeInterval(-60), ids: [id])

        let watch = try WatchProcess(config: folder.config)
        watch.waitUntilWatching()
        XCTAssertTrue(folder.outboxFiles().isEmpty, "nothing is unsubscribed before the tap")
        let token = key.token(verb: "unsubscribe", kind: "digest", id: id)
        try "From: me@example.test\nTo: me@example.test\nSubject: triage: unsubscribe 7e11 \(token)\nMessage-ID: <p-\(mark)@phone.example>\n\nSent from my iPhone\n"
            .write(toFile: folder.dir + "/mail/new/1.phone", atomically: true, encoding: .utf8)
        let sent = WatchProcess.waitUntil(30) {
            folder.outboxFiles().contains { name in
                ((try? String(contentsOfFile: folder.outbox + "/" + name, encoding: .utf8)) ?? "").contains("To: leave-\(mark)@news.example")
            }
        }
        XCTAssertTrue(sent, watch.out + watch.err)
        XCTAssertEqual(watch.stop(), 0)
        let record = try XCTUnwrap(try Store.open(path: folder.store, timeZone: store.timeZone).record(UnsubscribeRecord.self, id: id))
        XCTAssertEqual(record.method, .mailto)
        XCTAssertTrue(record.succeeded, record.answer ?? "")
        XCTAssertTrue(watch.err.contains("unsubscribed from weekly.news.example by mailto"), watch.err)
    }
}
