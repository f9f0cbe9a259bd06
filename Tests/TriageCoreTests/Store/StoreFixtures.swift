import Foundation
import TriageCore

/// Shared helpers for the store tests: a fresh folder, fixed times, sample records.
enum StoreFixtures {
    static let zone = TimeZone(identifier: "Europe/Berlin")!
    /// 2026-03-02 09:15:00 +01:00.
    static let now = Date(timeIntervalSince1970: 1_772_439_300)

    /// A new empty folder under the temp directory (the store itself is not created).
    static func freshFolder() -> String {
        let base = FileManager.default.temporaryDirectory.path + "/triage-store-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        return base
    }

    static func message(_ n: Int, account: String = "personal", uid: UInt32 = 1) -> Message {
        var m = Message()
        m.from = [Address(name: "Sender \(n)", address: "sender\(n)@example.test")]
        m.subject = "Message \(n)"
        m.messageID = "msg\(n)@example.test"
        m.date = MessageDate(secondsSince1970: 1_772_400_000 + Int64(n), utcOffsetSeconds: 3600)
        m.snippet = "Body of message \(n)"
        m.headerHash = SHA256.hex("headers \(n)")
        m.server.account = account
        m.server.mailbox = "INBOX"
        m.server.uid = uid
        return m
    }

    static func queueEntry(_ n: Int, queue: String = "rec", due: CivilDate? = nil, created: Date = now) -> QueueEntry {
        let m = message(n)
        let stamp = Timestamp(created, timeZone: zone)
        return QueueEntry(id: RecordID.forMessage(m, rule: "receipts", action: .queue(name: queue, inDays: nil)),
                          queue: queue, created: stamp, due: due ?? stamp.localDay, rule: "receipts",
                          message: MessageSummary(m))
    }

    static func reminder(_ title: String, due: CivilDate = CivilDate(year: 2026, month: 3, day: 4), place: Place? = nil) -> Reminder {
        Reminder(id: RecordID.random(), title: title, note: "a note", due: due, at: TimeOfDay(hour: 9, minute: 30),
                 place: place, created: Timestamp(now, timeZone: zone))
    }

    static func digestEntry(_ n: Int, section: String = "newsletters") -> DigestEntry {
        let m = message(n)
        return DigestEntry(id: RecordID.forMessage(m, rule: "news", action: .digest(section: section)), section: section,
                           created: Timestamp(now, timeZone: zone), rule: "news", message: MessageSummary(m))
    }

    static func mode(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
}
