import Foundation
import TriageCore

/// Records and clocks for the digest tests. Ids are fixed hex strings so short
/// ids (and so the golden files) never change.
enum DigestFixtures {
    static let chicago = TimeZone(identifier: "America/Chicago")!
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// The instant of a local wall-clock time in `zone` (the offset in force then).
    static func instant(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int = 0, in zone: TimeZone = chicago) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi))!
    }

    static func day(_ y: Int, _ m: Int, _ d: Int) -> CivilDate { CivilDate(year: y, month: m, day: d) }

    static func stamp(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int = 0, in zone: TimeZone = chicago) -> Timestamp {
        Timestamp(instant(y, mo, d, h, mi, in: zone), timeZone: zone)
    }

    /// A 32-digit id from a short distinct prefix (`3f2a` → `3f2a0000…01`).
    static func id(_ prefix: String, _ n: Int = 1) -> String {
        let tail = String(n, radix: 16)
        return prefix + String(repeating: "0", count: 32 - prefix.count - tail.count) + tail
    }

    static func summary(from name: String?, _ address: String, subject: String?, date: String?, snippet: String) -> MessageSummary {
        MessageSummary(from: Address(name: name, address: address), subject: subject, date: date,
                       messageID: "m." + address, account: "personal", mailbox: "INBOX",
                       uid: 1, snippet: snippet)
    }

    static func queueEntry(_ id: String, queue: String = "rec", due: CivilDate, status: WorkStatus = .open,
                           subject: String = "Receipt", from name: String? = "Shop", _ address: String = "shop@example.test",
                           date: String? = "2026-11-27T14:05:00-06:00", snippet: String = "Thank you for your order.",
                           created: Timestamp? = nil) -> QueueEntry {
        QueueEntry(id: id, queue: queue, created: created ?? stamp(due.year, due.month, due.day, 6), due: due, status: status,
                   rule: "receipts", message: summary(from: name, address, subject: subject, date: date, snippet: snippet))
    }

    static func reminder(_ id: String, _ title: String, due: CivilDate, at: TimeOfDay? = nil, place: Place? = nil,
                         note: String? = nil, status: WorkStatus = .open, message: MessageSummary? = nil) -> Reminder {
        Reminder(id: id, title: title, note: note, due: due, at: at, place: place, status: status,
                 created: stamp(2026, 11, 1, 9), rule: message == nil ? nil : "follow-up", message: message)
    }

    static func digestEntry(_ id: String, section: String, created: Timestamp, reported: CivilDate? = nil,
                            subject: String = "Newsletter", from name: String? = "News", _ address: String = "news@example.test",
                            date: String? = "2026-11-29T08:00:00-06:00", snippet: String = "This week in news.") -> DigestEntry {
        DigestEntry(id: id, section: section, created: created, reported: reported, rule: "newsletters",
                    message: summary(from: name, address, subject: subject, date: date, snippet: snippet))
    }

    /// A new empty temporary folder.
    static func freshFolder() -> String {
        let path = FileManager.default.temporaryDirectory.path + "/triage-digest-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func settings(hour: Int = 7, sendEmpty: Bool = false) -> DigestSection {
        var s = DigestSection(to: "Me <me@example.test>", from: "triage <triage@example.test>", smtp: .directory(path: "/nonexistent"))
        s.hour = hour
        s.sendEmpty = sendEmpty
        return s
    }
}

/// A delivery that keeps what it was given, or fails with a chosen error.
final class RecordingDelivery: MailDelivery, @unchecked Sendable {
    var delivered: [ComposedMessage] = []
    var failure: MailDeliveryError?

    func deliver(_ message: ComposedMessage) throws {
        if let failure { throw failure }
        delivered.append(message)
    }
}
