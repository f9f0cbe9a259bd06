import Foundation

/// Closes follow-ups (`follow up in 3 days`) when an answer arrives: a message in any
/// mailbox triage reads whose In-Reply-To or References names the sent message, or a
/// later message of the same thread that the user sent, from someone other than the
/// user (`me =`).
///
/// Every message a run reads is `observe`d, cheaply: its In-Reply-To and References
/// ids go into a bounded index of **answered ids** when someone else wrote it, and, when
/// the user wrote it, its Message-ID is linked to the ids it answers (**the user's
/// replies**), so an answer to the user's later message counts for the first one. The
/// index (`STORE/state/.follow-ups.json`) outlives the run, so the order the mail is
/// read in does not matter: an answer read before its sent message (`run --all` over
/// INBOX, then Sent) stops the follow-up from being made at all (`isAnswered`), and one
/// read after closes it (`settle`). Both lists keep the newest `answeredLimit` and
/// `repliesLimit` entries: an answer older than that many answers is forgotten.
public final class FollowUpTracker {
    /// The header fields it reads (besides From and Message-ID): the answer's links,
    /// and the sent message's recipients for the title.
    public static let headerFields = ["CC", "IN-REPLY-TO", "REFERENCES", "TO"]
    /// `in:Sent` as the rules' folder key: the account's Sent folder, whatever the server calls it.
    public static let sentFolder = "sent"
    /// How many answered ids the index keeps (the newest).
    public static let answeredLimit = 10_000
    /// How many of the user's own replies the index keeps (the newest).
    public static let repliesLimit = 5_000
    /// The index file under the store root.
    public static let fileName = "state/.follow-ups.json"

    /// Who answered: enough of the message to say so in the closed reminder.
    struct Answer: Codable, Hashable {
        var messageID: String?
        var from: String?
        var name: String?
        var subject: String?
        var date: String?
        var account: String?
        var mailbox: String?
    }

    /// One answered id and its (first) answer.
    struct Answered: Codable {
        var id: String
        var answer: Answer
    }

    /// A message the user sent that answers `refs` (its In-Reply-To and References).
    struct Reply: Codable {
        var id: String
        var refs: [String]
    }

    /// The saved index.
    struct Saved: Codable {
        var answered: [Answered] = []
        var replies: [Reply] = []
    }

    private let root: String
    private let identities: Set<String>
    private var saved: Saved
    private var answered: [String: Answer] = [:]
    /// For each id, the user's replies that answer it (the thread's later messages).
    private var laterMine: [String: [String]] = [:]
    /// The ids of the user's replies in `saved.replies`.
    private var replyIDs: Set<String> = []
    /// Something new since the last `save`.
    public private(set) var changed = false

    /// The index of the store at `root` (empty when there is none yet); `identities` are the `me =` addresses.
    public init(store root: String, identities: [String]) throws {
        self.root = root
        self.identities = Set(identities.map { $0.lowercased() })
        if let data = try StoreFiles.read(root + "/" + Self.fileName) {
            do {
                saved = try JSONDecoder().decode(Saved.self, from: data)
            } catch {
                throw SimpleError(.dataError, "\(root)/\(Self.fileName): cannot read the follow-up index (\(error)); nothing was "
                                  + "changed: move the file away, and 'triage run --all' rebuilds it from the mail")
            }
        } else {
            saved = Saved()
        }
        for entry in saved.answered where answered[entry.id] == nil { answered[entry.id] = entry.answer }
        for reply in saved.replies { link(reply) }
    }

    /// Whether `address` is one of the user's.
    public func isMine(_ address: String) -> Bool { identities.contains(address.lowercased()) }

    /// Looks at one message read from `account`/`mailbox`: an answer from someone else,
    /// or a reply of the user's that carries a thread on.
    public func observe(_ message: Message) {
        var ids: [String] = []
        for id in [message.inReplyTo].compactMap({ $0 }) + message.references where !id.isEmpty && !ids.contains(id) {
            ids.append(id)
        }
        guard !ids.isEmpty else { return }
        if message.from.contains(where: { isMine($0.address) }) {
            guard let own = message.messageID, !own.isEmpty, !replyIDs.contains(own) else { return }
            let reply = Reply(id: own, refs: ids)
            saved.replies.append(reply)
            link(reply)
            changed = true
            return
        }
        let answer = Answer(messageID: message.messageID, from: message.sender?.address, name: message.sender?.name,
                            subject: message.subject, date: message.date?.rfc3339, account: message.server.account,
                            mailbox: message.server.mailbox)
        for id in ids where answered[id] == nil {
            answered[id] = answer
            saved.answered.append(Answered(id: id, answer: answer))
            changed = true
        }
    }

    /// The answer to the sent message `messageID`, or to a later message of its thread
    /// the user sent; nil when none is known.
    public func answer(to messageID: String) -> MessageSummary? {
        guard !messageID.isEmpty else { return nil }
        var seen: Set<String> = [messageID]
        var queue = [messageID]
        // Through the user's replies in the thread, each looked at once (a loop of
        // References cannot make it go round).
        while let id = queue.popLast() {
            if let found = answered[id] { return found.summary }
            for later in laterMine[id] ?? [] where seen.insert(later).inserted { queue.append(later) }
        }
        return nil
    }

    /// Whether the sent message `messageID` is answered already (see `answer(to:)`).
    public func isAnswered(_ messageID: String) -> Bool { answer(to: messageID) != nil }

    /// Closes every open follow-up of `store` that has an answer: done (as `triage remind
    /// done` makes it), with the answer recorded. Returns the closed reminders.
    @discardableResult
    public func settle(_ store: Store, now: Date) throws -> [Reminder] {
        let open = store.openReminders().records.compactMap { reminder -> (String, MessageSummary)? in
            guard let followUp = reminder.followUp, let answer = answer(to: followUp.messageID) else { return nil }
            return (reminder.id, answer)
        }
        guard !open.isEmpty else { return [] }
        let answers = Dictionary(open, uniquingKeysWith: { first, _ in first })
        let stamp = Timestamp(now, timeZone: store.timeZone)
        return try store.update(Reminder.self, ids: open.map(\.0)) { reminder in
            guard reminder.status == .open, let answer = answers[reminder.id] else { return }
            reminder.status = .done
            reminder.statusChanged = stamp
            reminder.followUp?.answer = answer
        }
    }

    /// Writes the index (the newest `answeredLimit` answered ids and `repliesLimit`
    /// replies), when something changed.
    public func save() throws {
        guard changed else { return }
        if saved.answered.count > Self.answeredLimit {
            for gone in saved.answered.prefix(saved.answered.count - Self.answeredLimit) where answered[gone.id] == gone.answer {
                answered[gone.id] = nil
            }
            saved.answered.removeFirst(saved.answered.count - Self.answeredLimit)
        }
        if saved.replies.count > Self.repliesLimit {
            saved.replies.removeFirst(saved.replies.count - Self.repliesLimit)
            laterMine = [:]
            replyIDs = []
            for reply in saved.replies { link(reply) }
        }
        _ = try StoreFiles.makeFolder(root + "/state")
        try StoreFiles.writeJSON(saved, to: root + "/" + Self.fileName, durable: true)
        changed = false
    }

    private func link(_ reply: Reply) {
        replyIDs.insert(reply.id)
        for ref in reply.refs { laterMine[ref, default: []].append(reply.id) }
    }
}

extension FollowUpTracker.Answer {
    /// As a record keeps a message.
    var summary: MessageSummary {
        MessageSummary(from: from.map { Address(name: name, address: $0) }, subject: subject, date: date, messageID: messageID,
                       account: account, mailbox: mailbox)
    }
}
