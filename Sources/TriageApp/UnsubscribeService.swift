import Foundation
import TriageCore
import TriageCurl

/// Carries out the unsubscribes the user asked for (a digest's Unsubscribe link,
/// recorded as pending when the run read it, or `triage unsubscribe`): RFC 8058
/// one-click when the offer allows it, else the `mailto:` sent through the
/// digest's delivery, else the link reported. Records each (`UnsubscribeRecord`),
/// tells the next digest (`UnsubscribeReport`), and puts a list still sending
/// a week later in Problems. Never acts on anything the user did not ask for.
package enum UnsubscribeService {
    /// The one-click poster; tests give one that trusts their CA.
    package static let defaultPoster = OneClickUnsubscribe()

    /// After the mail of a run or watch pass (the caller holds the store lock):
    /// every pending unsubscribe, then the still-sending check. Returns what to say
    /// on standard error.
    package static func afterMail(setup: RunSetup, now: Date, poster: OneClickUnsubscribe = defaultPoster) -> [String] {
        var lines: [String] = []
        let store = setup.store
        let listing = store.records(UnsubscribeRecord.self, in: [UnsubscribeRecord.activeFolder])
        for problem in listing.problems { lines.append("triage: unsubscribe: \(problem.description)") }
        for record in listing.records {
            do {
                let done = try carryOut(record, setup: setup, now: now, poster: poster)
                lines.append("triage: " + describe(done))
            } catch let error as TriageError {
                lines.append("triage: unsubscribe from \(DigestFormat.oneLine(record.list, limit: 80)): \(error.message)")
            } catch {
                lines.append("triage: unsubscribe from \(DigestFormat.oneLine(record.list, limit: 80)): \(error)")
            }
        }
        do {
            let done = store.records(UnsubscribeRecord.self, in: ["done"]).records
            if done.contains(where: { $0.succeeded && $0.stillSending == nil }) {
                // Mail of this run is still unreported (the digest is sent after this).
                let entries = store.unreportedDigestEntries().records
                for (record, problem) in UnsubscribeReport.stillSending(done, entries: entries) {
                    try store.put(problem)
                    try store.update(UnsubscribeRecord.self, ids: [record.id]) { $0 = record }
                    lines.append("triage: \(problem.message.subject ?? "")")
                }
            }
        } catch let error as TriageError {
            lines.append("triage: unsubscribe check: \(error.message)")
        } catch {
            lines.append("triage: unsubscribe check: \(error)")
        }
        return lines
    }

    /// Carries out `record` now and records the outcome (a failure to reach the
    /// server keeps it pending for the next run, `UnsubscribeRecord.maxAttempts` in
    /// all); returns the record as written.
    @discardableResult
    package static func carryOut(_ record: UnsubscribeRecord, setup: RunSetup, now: Date,
                                 poster: OneClickUnsubscribe = defaultPoster) throws -> UnsubscribeRecord {
        let stamp = Timestamp(now, timeZone: setup.timeZone)
        var updated = record
        var retry = false
        if let plan = record.plan {
            updated.method = plan.method
            switch plan.method {
            case .oneClick:
                switch poster.post(plan.uri) {
                case .answered(let status):
                    let origin = WebhookPoster.origin(of: plan.uri)
                    updated.succeeded = (200..<300).contains(status)
                    updated.answer = "HTTP \(status) from \(origin)"
                    if (300..<400).contains(status) {
                        updated.answer! += " (a redirect, not followed: open \(plan.uri) yourself)"
                    }
                case .refused(let reason):
                    updated.answer = reason
                case .failed(let reason):
                    updated.answer = reason
                    retry = true
                }
            case .mailto:
                do {
                    updated.answer = try sendMailto(plan.uri, setup: setup, id: record.id, now: now)
                    updated.succeeded = true
                } catch let error as MailDeliveryError {
                    updated.answer = "the message was not sent (step: \(error.step.rawValue)): \(error.message)"
                    retry = true
                } catch let error as TriageError {
                    updated.answer = error.message
                }
            case .link:
                updated.answer = plan.uri
            }
        } else {
            updated.answer = "the message offers no https: or mailto: unsubscribe"
        }
        if retry {
            updated.attempts += 1
            if updated.attempts < UnsubscribeRecord.maxAttempts {
                try setup.store.update(UnsubscribeRecord.self, ids: [record.id]) { $0 = updated }
                return updated
            }
            updated.answer = "given up after \(updated.attempts) attempts: " + (updated.answer ?? "")
        }
        updated.done = stamp
        // The report first: a crash between the two redoes the unsubscribe's record only.
        try setup.store.put(UnsubscribeReport.entry(updated, created: stamp))
        if setup.store.exists(UnsubscribeRecord.self, id: record.id) {
            try setup.store.update(UnsubscribeRecord.self, ids: [record.id]) { $0 = updated }
        } else {
            try setup.store.put(updated)
        }
        return updated
    }

    /// Sends the `mailto:` unsubscribe (RFC 2369, RFC 6068) from the user's address
    /// (the first `[digest] to`) through the digest's SMTP or sendmail; says where.
    static func sendMailto(_ uri: String, setup: RunSetup, id: String, now: Date) throws -> String {
        guard let mailto = MailtoURI(uri) else {
            throw SimpleError(.dataError, "its mailto: URI does not name exactly one plain address")
        }
        guard let settings = setup.config.digest, let from = DigestMessageBuilder.addresses(settings.to).first else {
            throw SimpleError(.config, "a mailto: unsubscribe is sent through [digest] smtp, and \(setup.config.path) has no [digest] to and smtp")
        }
        let stamp = Timestamp(now, timeZone: setup.timeZone)
        let mail = mailto.mail(from: Address(name: nil, address: from.address),
                               date: MessageDate(secondsSince1970: stamp.secondsSince1970, utcOffsetSeconds: stamp.utcOffsetSeconds),
                               messageID: "unsubscribe-\(id.prefix(16)).\(stamp.secondsSince1970)@\(DigestMessageBuilder.messageIDDomain)")
        let message = try MIMEComposer().compose(mail)
        try DigestService(setup: setup).delivery().deliver(message)
        return "sent to \(mailto.to)"
    }

    /// How it would be carried out now, for `--dry-run`.
    package static func preview(_ record: UnsubscribeRecord) -> String {
        let list = DigestFormat.oneLine(record.list, limit: 80)
        guard let plan = record.plan, let offer = record.message.unsubscribe else {
            return "unsubscribe from \(list): the message offers no https: or mailto: unsubscribe"
        }
        switch plan.method {
        case .oneClick:
            return "unsubscribe from \(list): would POST \(OneClickUnsubscribe.body) to \(plan.uri) (RFC 8058 one-click; \(offer.dkim))"
        case .mailto:
            let why = offer.oneClick ? " (no one-click: \(offer.dkim))" : ""
            let to = MailtoURI(plan.uri).map { "to \($0.to), subject \u{201C}\($0.subject)\u{201D}" } ?? "(an unusable mailto: URI)"
            return "unsubscribe from \(list): would send a message \(to)\(why)"
        case .link:
            return "unsubscribe from \(list): would report the page to open: \(plan.uri)"
        }
    }

    /// What was done, one line.
    package static func describe(_ record: UnsubscribeRecord) -> String {
        let list = DigestFormat.oneLine(record.list, limit: 80)
        let answer = DigestFormat.oneLine(record.answer ?? "", limit: 300)
        guard record.done != nil else {
            return "unsubscribe from \(list): not done yet (attempt \(record.attempts) of \(UnsubscribeRecord.maxAttempts)): \(answer)"
        }
        switch (record.method, record.succeeded) {
        case (.link?, _): return "unsubscribe from \(list): the list offers only a web page; open it yourself: \(answer)"
        case (let method?, true): return "unsubscribed from \(list) by \(method.rawValue): \(answer)"
        default: return "could not unsubscribe from \(list)\(record.method.map { " by " + $0.rawValue } ?? ""): \(answer)"
        }
    }
}
