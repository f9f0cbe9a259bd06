import Foundation

/// A mailbox with 60 days of history for `triage suggest`, with headers as real
/// senders write them: Mailchimp and Substack newsletters, GitHub notifications,
/// Mailman lists (one filed into `Lists/dev` by hand, one left in the inbox), a
/// bank's automatic alerts, receipts filed into `Receipts`, and people: a friend who
/// writes through a newsletter tool, a colleague who posts to the list, mail answered
/// and flagged, and the user's Sent folder. `expected` says what a good suggester
/// makes of each sender or list.
public enum SuggestCorpus {
    /// One message to seed: its folder, Maildir flag letters (`S` seen, `R` answered,
    /// `F` flagged) and text (LF line ends).
    public struct Seed: Sendable {
        public var folder: String
        public var flags: String
        public var text: String
        public var date: Date
    }

    /// The user.
    public static let me = "me@example.test"
    /// The moment the history is read at: `--now`.
    public static let nowText = "2026-03-02T09:00:00Z"
    /// `nowText` as a date.
    public static let now = Date(timeIntervalSince1970: 1_772_442_000)
    /// The folders besides INBOX.
    public static let folders = ["Lists/dev", "Receipts", "Sent"]

    /// What each sender or list should become: `kind` of the suggestion, nil for none.
    public static let expected: [(subject: String, kind: String?)] = [
        ("a1b2c3d4e5f6a7b8c9d0e1f23.7f9e8d.list-id.mcsv.net", "newsletter"),
        ("patnotes.substack.com", "newsletter"),
        ("sam.buttondown.email", nil),                       // a friend writing through a newsletter tool
        ("webapp.acme.github.com", "notification"),
        ("infra.acme.github.com", nil),                      // one of its notifications is flagged
        ("dev.lists.example.org", "filed-list"),
        ("users.lists.other.example", "list"),
        ("orders@store.example", "receipt"),
        ("no-reply@alerts.bank.example", "notification"),
        ("alice@friends.example", nil),                      // a person the user answers
        ("boss@work.example", nil),                          // flagged mail
        ("news@paper.example", nil),                         // a newsletter the user once answered
        ("old@gone.example", nil),                           // only mail older than 90 days
    ]

    /// Senders whose mail no suggested rule may touch (people).
    public static let people = ["sam@friend.example", "alice@friends.example", "boss@work.example", "bob@colleague.example",
                                "carol@uni.example", "news@paper.example"]

    /// The whole mailbox, in date order within each folder.
    public static func mailbox() -> [Seed] {
        var seeds: [Seed] = []
        var n = 0
        func add(_ folder: String, _ flags: String, daysAgo: Double, _ headers: [String], body: String = "Hello.\n") {
            n += 1
            let date = now.addingTimeInterval(-daysAgo * 86_400)
            var lines = headers
            lines.append("Date: \(rfc5322(date))")
            if !headers.contains(where: { $0.lowercased().hasPrefix("message-id:") }) {
                lines.append("Message-ID: <m\(n).\(Int(date.timeIntervalSince1970))@corpus.example>")
            }
            lines.append("MIME-Version: 1.0")
            lines.append("Content-Type: text/plain; charset=utf-8")
            seeds.append(Seed(folder: folder, flags: flags, text: lines.joined(separator: "\n") + "\n\n" + body, date: date))
        }
        // Mailchimp: a shop's deals, 8 in 60 days, 2 opened.
        for i in 0..<8 {
            add("INBOX", i < 2 ? "S" : "", daysAgo: Double(55 - i * 7), [
                "From: Shop Deals <deals@mail.shop.example>",
                "Reply-To: Shop Deals <support@shop.example>",
                "To: <\(me)>",
                "Subject: =?utf-8?Q?Up_to_40=25_off_this_week_=F0=9F=8E=89?=",
                "List-ID: a1b2c3d4e5f6a7b8c9d0e1f23mc list <a1b2c3d4e5f6a7b8c9d0e1f23.7f9e8d.list-id.mcsv.net>",
                "List-Unsubscribe: <https://shop.us21.list-manage.com/unsubscribe?u=a1b2c3&id=7f9e8d&e=0f1e2d&c=3a4b5c>, <mailto:unsubscribe-mc.us21_a1b2c3.3a4b5c-0f1e2d@unsub.mcsv.net?subject=unsubscribe>",
                "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
                "X-Mailer: MailChimp Mailer - **CID3a4b5c**",
                "Precedence: bulk",
                "Feedback-ID: 21:21.7f9e8d:us21:mc",
            ])
        }
        // Substack: a newsletter, 6, 5 opened.
        for i in 0..<6 {
            add("INBOX", i < 5 ? "S" : "", daysAgo: Double(50 - i * 8), [
                "From: Pat's Notes <patnotes@substack.com>",
                "To: \(me)",
                "Subject: Notes #\(40 + i): on gardens",
                "List-Unsubscribe: <https://patnotes.substack.com/action/disable_email?token=eyJ1c2VyX2lkIjo>",
                "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
                "List-ID: <patnotes.substack.com>",
                "List-URL: <https://patnotes.substack.com/>",
                "X-Mailgun-Tag: post",
            ])
        }
        // A friend's newsletter through Buttondown: she is someone the user writes to.
        for i in 0..<5 {
            add("INBOX", "S", daysAgo: Double(45 - i * 9), [
                "From: Sam Friend <sam@friend.example>",
                "Reply-To: sam@friend.example",
                "To: \(me)",
                "Subject: Sam's monthly letter, part \(i + 1)",
                "List-Unsubscribe: <https://buttondown.email/unsubscribe/abc\(i)>",
                "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
                "List-Id: <sam.buttondown.email>",
                "Precedence: bulk",
            ])
        }
        // GitHub: notifications of one repository, never opened; another with one flagged.
        for i in 0..<10 {
            add("INBOX", "", daysAgo: Double(58 - i * 5), [
                "From: Alice Dev <notifications@github.com>",
                "Reply-To: acme/webapp <reply+ABCDEF\(i)@reply.github.com>",
                "To: acme/webapp <webapp@noreply.github.com>",
                "Cc: Subscribed <subscribed@noreply.github.com>",
                "Subject: Re: [acme/webapp] Fix the login page (PR #\(100 + i))",
                "List-ID: acme/webapp <webapp.acme.github.com>",
                "List-Archive: https://github.com/acme/webapp",
                "List-Unsubscribe: <mailto:unsub+ABCDEF\(i)@reply.github.com>, <https://github.com/notifications/unsubscribe/ABCDEF\(i)>",
                "X-GitHub-Reason: subscribed",
                "X-GitHub-Sender: alicedev",
            ])
        }
        for i in 0..<4 {
            add("INBOX", i == 1 ? "SF" : "S", daysAgo: Double(40 - i * 6), [
                "From: Bot <notifications@github.com>",
                "To: acme/infra <infra@noreply.github.com>",
                "Subject: [acme/infra] Deploy failed on main (#\(7 + i))",
                "List-ID: acme/infra <infra.acme.github.com>",
                "List-Unsubscribe: <mailto:unsub+XYZ\(i)@reply.github.com>",
                "X-GitHub-Reason: ci_activity",
            ])
        }
        // Mailman: a discussion list the user files into Lists/dev; a colleague posts to it,
        // and the user answered Carol's post.
        let posters = ["Dan <dan@devs.example>", "Erin <erin@devs.example>", "Bob <bob@colleague.example>", "Carol <carol@uni.example>"]
        for i in 0..<12 {
            add("Lists/dev", i % 3 == 0 ? "" : "S", daysAgo: Double(59 - i * 4), [
                "From: \(posters[i % 4])",
                "To: dev@lists.example.org",
                "Subject: [dev] Release planning, round \(i)",
                "Message-ID: <dev-\(i)@lists.example.org>",
                "List-Id: Developers <dev.lists.example.org>",
                "List-Post: <mailto:dev@lists.example.org>",
                "List-Help: <mailto:dev-request@lists.example.org?subject=help>",
                "List-Subscribe: <https://lists.example.org/mailman/listinfo/dev>, <mailto:dev-request@lists.example.org?subject=subscribe>",
                "List-Unsubscribe: <https://lists.example.org/mailman/options/dev>, <mailto:dev-request@lists.example.org?subject=unsubscribe>",
                "List-Archive: <https://lists.example.org/pipermail/dev/>",
                "Precedence: list",
                "Sender: \"dev\" <dev-bounces@lists.example.org>",
            ])
        }
        // A second list left in the inbox.
        for i in 0..<5 {
            add("INBOX", "S", daysAgo: Double(30 - i * 5), [
                "From: Poster \(i) <poster\(i)@users.example>",
                "To: users@lists.other.example",
                "Subject: [users] Question \(i)",
                "List-Id: <users.lists.other.example>",
                "List-Post: <mailto:users@lists.other.example>",
                "List-Unsubscribe: <mailto:users-leave@lists.other.example>",
                "Precedence: list",
            ])
        }
        // Receipts the user files by hand.
        for i in 0..<4 {
            add("Receipts", "S", daysAgo: Double(52 - i * 12), [
                "From: Store <orders@store.example>",
                "To: \(me)",
                "Subject: Your receipt for order #\(5000 + i)",
            ])
        }
        // The bank's automatic alerts.
        for i in 0..<5 {
            add("INBOX", i < 3 ? "S" : "", daysAgo: Double(48 - i * 9), [
                "From: Bank Alerts <no-reply@alerts.bank.example>",
                "To: \(me)",
                "Subject: Your balance is below 100",
                "Auto-Submitted: auto-generated",
            ])
        }
        // People: Alice, answered; the boss, one flagged.
        for i in 0..<6 {
            add("INBOX", i < 2 ? "SR" : "S", daysAgo: Double(44 - i * 7), [
                "From: Alice <alice@friends.example>",
                "To: \(me)",
                "Subject: Dinner on \(["Friday", "Saturday", "Sunday"][i % 3])?",
                "Message-ID: <alice-\(i)@friends.example>",
            ])
        }
        for i in 0..<4 {
            add("INBOX", i == 0 ? "SF" : "S", daysAgo: Double(33 - i * 8), [
                "From: The Boss <boss@work.example>",
                "To: \(me)",
                "Subject: Quarterly numbers \(i)",
            ])
        }
        // A newsletter the user once answered.
        for i in 0..<5 {
            add("INBOX", i == 2 ? "SR" : "S", daysAgo: Double(41 - i * 8), [
                "From: The Paper <news@paper.example>",
                "To: \(me)",
                "Subject: Morning briefing \(i)",
                "List-Unsubscribe: <https://paper.example/unsubscribe>",
                "Precedence: bulk",
            ])
        }
        // Only old mail: outside a 90-day window.
        for i in 0..<5 {
            add("INBOX", "", daysAgo: Double(120 + i * 3), [
                "From: Gone <old@gone.example>",
                "To: \(me)",
                "Subject: Old deals \(i)",
                "List-Unsubscribe: <https://gone.example/u>",
                "Precedence: bulk",
            ])
        }
        // A few one-off messages.
        for (i, sender) in ["x@one.example", "y@two.example", "z@three.example"].enumerated() {
            add("INBOX", "S", daysAgo: Double(10 + i), ["From: \(sender)", "To: \(me)", "Subject: Once \(i)"])
        }
        // The Sent folder: to Sam, Bob and Alice, and an answer to Carol's list post.
        let sent: [(String, String?)] = [("sam@friend.example", nil), ("Bob <bob@colleague.example>", nil),
                                         ("alice@friends.example", "<alice-0@friends.example>"),
                                         ("dev@lists.example.org", "<dev-3@lists.example.org>")]
        for (i, (to, reply)) in sent.enumerated() {
            var headers = ["From: Me <\(me)>", "To: \(to)", "Subject: Re: hello \(i)"]
            if let reply { headers += ["In-Reply-To: \(reply)", "References: \(reply)"] }
            add("Sent", "S", daysAgo: Double(20 + i), headers)
        }
        return seeds
    }

    /// `count` messages over 90 days for a measured run: a mix of the senders above
    /// (newsletters, notifications, lists, people), each with its own Message-ID.
    public static func bulk(_ count: Int) -> [Seed] {
        let base = mailbox().filter { $0.folder != "Sent" && !$0.text.contains("old@gone.example") }
        return (0..<count).map { i in
            var seed = base[i % base.count]
            seed.text = seed.text.replacingOccurrences(of: "Message-ID: <", with: "Message-ID: <b\(i).")
            seed.date = now.addingTimeInterval(-Double(i % 85) * 86_400 - Double(i % 997))
            return seed
        }
    }

    /// An RFC 5322 date.
    public static func rfc5322(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}
