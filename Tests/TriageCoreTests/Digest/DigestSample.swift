import Foundation
import TriageCore

/// A realistic day's store content for the golden files and the screenshot in
/// docs/: Monday 30 November 2026 in Chicago, digest sent at 07:00.
enum DigestSample {
    typealias F = DigestFixtures
    static let day = F.day(2026, 11, 30)
    static let now = F.instant(2026, 11, 30, 7, 0)
    static let zone = F.chicago

    static let reminders: [Reminder] = [
        F.reminder(F.id("9b1c"), "Call the plumber about the kitchen tap", due: F.day(2026, 11, 28), at: TimeOfDay(hour: 9, minute: 30),
                   message: F.summary(from: "Jane Doe", "jane.doe@example.test", subject: "Re: leaking tap",
                                      date: "2026-11-26T18:42:00-06:00",
                                      snippet: "It's dripping again under the sink. Can you call Joe's Plumbing before the weekend? Their number is on the fridge.")),
        F.reminder(F.id("4e7d"), "Pick up the dry cleaning", due: day,
                   place: Place(latitude: 38.9717, longitude: -95.2353, radiusMeters: 3 * 1609.344, proximity: .arriving,
                                title: "Main Street Cleaners")),
        F.reminder(F.id("a1f0"), "Renew the parking permit", due: F.day(2026, 12, 1), at: TimeOfDay(hour: 9, minute: 0)),
        F.reminder(F.id("c02f"), "Reply to Dr. Müller about the appointment", due: day, note: "Ask for a Friday morning slot.",
                   message: F.summary(from: "Praxis Dr. Müller", "praxis@mueller.example.test", subject: "Ihr Termin am 4. Dezember",
                                      date: "2026-11-27T10:15:00+01:00",
                                      snippet: "Guten Tag, leider müssen wir Ihren Termin verschieben. Bitte melden Sie sich für einen neuen Termin.")),
    ]

    static let queue: [QueueEntry] = [
        F.queueEntry(F.id("3f2a"), due: F.day(2026, 11, 29), subject: "Your order #113-4432178-0912 has shipped",
                     from: "Amazon", "shipment-tracking@amazon.example.test", date: "2026-11-27T14:05:00-06:00",
                     snippet: "Your package is on its way and arrives Tuesday, December 1. Order total: $47.12 charged to Visa ending in 4242."),
        F.queueEntry(F.id("7a90"), due: day, subject: "Your receipt from Blue Bottle Coffee",
                     from: "Square", "receipts@squareup.example.test", date: "2026-11-29T09:12:00-06:00",
                     snippet: "Blue Bottle Coffee, $6.75. Oat cortado $5.50, tip $1.25. Paid with Apple Pay."),
        F.queueEntry(F.id("e5b3"), due: day, subject: "Invoice INV-2026-1130 for November hosting",
                     from: nil, "billing@hosting.example.test", date: "2026-11-30T01:00:00+00:00",
                     snippet: "Amount due: $12.00. The card on file will be charged on December 3."),
        F.queueEntry(F.id("5d41"), queue: "reply", due: day, subject: "Q1 planning: can you send your numbers by Friday?",
                     from: "Priya Raman", "priya@work.example.test", date: "2026-11-29T16:30:00-08:00",
                     snippet: "Hi, I'm putting together the Q1 plan for Thursday's review. Could you send your team's headcount and budget numbers by Friday noon?"),
    ].map { entry in
        var entry = entry
        if entry.queue == "reply" { entry.message.account = "work"; entry.message.messageID = "CAF=q1.plan@mail.example.test" }
        return entry
    }

    static let digest: [DigestEntry] = [
        F.digestEntry(F.id("b6c8"), section: "FYI", created: F.stamp(2026, 11, 29, 11),
                      subject: "Your holds are ready for pickup", from: "Lawrence Public Library", "notices@library.example.test",
                      date: "2026-11-29T11:02:00-06:00", snippet: "2 items are waiting for you at the Central branch until December 6: \"The Overstory\", \"Piranesi\"."),
        F.digestEntry(F.id("21ae"), section: "FYI", created: F.stamp(2026, 11, 29, 20),
                      subject: "[triage] CI passed on main", from: "GitHub", "notifications@github.example.test",
                      date: "2026-11-29T20:14:00-06:00", snippet: "All checks have passed: build (debian-12), test (debian-12), integration (dovecot)."),
        F.digestEntry(F.id("8f03"), section: "newsletters", created: F.stamp(2026, 11, 30, 5),
                      subject: "Swift Weekly Brief #412: strict concurrency in practice", from: "Swift Weekly Brief", "news@swiftweekly.example.test",
                      date: "2026-11-30T05:00:00-06:00", snippet: "This week: migrating a command-line tool to Swift 6 language mode, typed throws, and what's new in SwiftPM."),
    ]

    /// Posts of a mailing list (grouped into threads in the compact Lists section)
    /// and a problem of the run.
    static let more: [DigestEntry] = {
        func post(_ n: Int, _ subject: String, _ name: String, _ hour: Int) -> DigestEntry {
            var e = F.digestEntry(F.id("d0\(n)"), section: "Lists", created: F.stamp(2026, 11, 29, hour), subject: subject,
                                  from: name, "\(name.lowercased())@dev.example.test",
                                  date: "2026-11-29T\(hour < 10 ? "0" : "")\(hour):30:00-06:00", snippet: "")
            e.message.list = "dev.lists.example.test"
            return e
        }
        var problem = F.digestEntry(F.id("f1e2"), section: "Problems", created: F.stamp(2026, 11, 30, 6),
                                    subject: "triage: done 9b1c aaaaaaaa", from: "Me", "me@example.test",
                                    date: "2026-11-30T06:10:00-06:00",
                                    snippet: "a digest command was ignored: its token does not fit record 9b1c (forged, or for another item)")
        problem.rule = "digest command refused"
        return [
            post(1, "[dev] Release 2.4 planning", "Ana", 9), post(2, "Re: [dev] Release 2.4 planning", "Ben", 11),
            post(3, "Re: [dev] Release 2.4 planning", "Ana", 15), post(4, "[dev] Flaky test in CI", "Chen", 13),
            post(5, "[dev] Meeting notes 29 Nov", "Dana", 17),
            problem,
        ]
    }()

    static var ids: DigestShortIDs {
        DigestShortIDs(queue: ShortIDIndex(queue.map(\.id)), reminders: ShortIDIndex(reminders.map(\.id)),
                       digest: ShortIDIndex((digest + more).map(\.id)),
                       actionable: ShortIDIndex(queue.map(\.id) + reminders.map(\.id)))
    }

    /// A fixed key, so the tokens in the golden files stay put.
    static let key = DigestKey(secret: Array("triage golden-file test secret!!".utf8))

    /// Done links to the user's address; the `work` account is on Gmail.
    static var links: DigestLinks {
        DigestLinks(address: "me@example.test", key: key, gmailAccounts: ["work"])
    }

    static var plan: DigestPlan {
        DigestPlanner().plan(day: day, reminders: reminders, queueEntries: queue, digestEntries: digest + more)
    }
}
