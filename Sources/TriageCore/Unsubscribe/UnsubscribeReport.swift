import Foundation

/// What the digest says about unsubscribes: each one carried out (section
/// `Unsubscribed`; a failure in Problems), and a list still sending
/// `UnsubscribeRecord.stillSendingDays` days after it (Problems). Each is a digest
/// entry named by the unsubscribe, so it is said once.
public enum UnsubscribeReport {
    /// The digest section of unsubscribes carried out.
    public static let section = "Unsubscribed"
    /// The rule name of these entries.
    public static let rule = "unsubscribe"
    /// The rule key of the Problems entry of a list still sending.
    public static let stillSendingKey = "unsubscribe still sending"

    /// The entry that says what became of `record` (done).
    public static func entry(_ record: UnsubscribeRecord, created: Timestamp) -> DigestEntry {
        let list = DigestFormat.oneLine(record.list, limit: 80)
        var summary = record.message
        summary.unsubscribe = nil
        let section: String
        switch (record.method, record.succeeded) {
        case (.link?, _):
            section = Self.section
            summary.subject = "Unsubscribe from \(list) yourself: open its page"
            summary.snippet = "it offers only a web page: " + DigestFormat.oneLine(record.answer ?? "", limit: 300)
        case (_, true):
            section = Self.section
            summary.subject = "Unsubscribed from \(list)"
            summary.snippet = "by \(record.method?.rawValue ?? "?"): " + DigestFormat.oneLine(record.answer ?? "", limit: 300)
        default:
            section = MailboxRunner.problemsSection
            summary.subject = "Could not unsubscribe from \(list)"
            summary.snippet = "by \(record.method?.rawValue ?? "no method"): " + DigestFormat.oneLine(record.answer ?? "", limit: 300)
        }
        let id = RecordID.forMessage(account: "", messageKey: "unsubscribe:" + record.id, rule: rule, actionKey: "done")
        return DigestEntry(id: id, section: section, created: created, rule: rule, message: summary)
    }

    /// The lists unsubscribed from successfully that still send: for each such record
    /// without `stillSending`, the first of `entries` (digest entries of any section
    /// but Problems) of its list made `stillSendingDays` days or more after it was
    /// done, with the Problems entry that says so.
    public static func stillSending(_ records: [UnsubscribeRecord], entries: [DigestEntry])
        -> [(record: UnsubscribeRecord, problem: DigestEntry)] {
        var result: [(UnsubscribeRecord, DigestEntry)] = []
        for record in records where record.succeeded && record.stillSending == nil {
            guard let done = record.done else { continue }
            let limit = done.secondsSince1970 + Int64(UnsubscribeRecord.stillSendingDays) * 86_400
            let later = entries.filter {
                $0.section != MailboxRunner.problemsSection && $0.rule != rule
                    && UnsubscribeRecord.listKey($0.message) == record.list && $0.created.secondsSince1970 >= limit
            }.min { $0.created.secondsSince1970 < $1.created.secondsSince1970 }
            guard let first = later else { continue }
            var updated = record
            updated.stillSending = first.created
            var summary = first.message
            summary.unsubscribe = nil
            let list = DigestFormat.oneLine(record.list, limit: 80)
            summary.subject = "\(list) still sends \(UnsubscribeRecord.stillSendingDays) days after you unsubscribed"
            summary.snippet = "unsubscribed on \(done.localDay.iso) by \(record.method?.rawValue ?? "?") ("
                + DigestFormat.oneLine(record.answer ?? "", limit: 120) + "); this came on \(first.created.localDay.iso). "
                + "triage suggest proposes a rule to archive it."
            let id = RecordID.forMessage(account: "", messageKey: "unsubscribe:" + record.id, rule: stillSendingKey, actionKey: "problem")
            result.append((updated, DigestEntry(id: id, section: MailboxRunner.problemsSection, created: first.created,
                                                rule: stillSendingKey, message: summary)))
        }
        return result
    }
}
