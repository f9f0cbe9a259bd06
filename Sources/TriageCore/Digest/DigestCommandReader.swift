import Foundation

/// Recognises command messages in the inbox and decides whether to obey them:
/// the message a Done link makes (`Subject: triage: done 0162 7kq3m9x2`) and a
/// reply to the digest with command lines (`done 0162`, `snooze 21c1 3 days`).
///
/// Anyone can put the user's address in From, so From is only the first filter
/// (with To): a Done message must carry the token of exactly that action on that
/// record (`DigestKey.token`), and a reply must answer a digest whose Message-ID
/// carries a MAC under the same key. Whatever does not prove itself is refused
/// with the reason (the run leaves the message alone and reports it in Problems).
public struct DigestCommandReader: Sendable {
    /// The user's addresses, lower-cased: command messages come from and go to one of them.
    public var addresses: Set<String>
    /// The key of the tokens and digest Message-IDs.
    public var key: DigestKey

    /// What to do with a candidate.
    public enum Verdict: Sendable, Hashable {
        /// Obey these (all of them).
        case apply([DigestCommand])
        /// Leave the message alone; the reason, for Problems.
        case refuse(String)
    }

    /// Creates a reader.
    public init(addresses: [String], key: DigestKey) {
        self.addresses = Set(addresses.map { $0.lowercased() })
        self.key = key
    }

    /// The longest snooze, in days.
    public static let maximumSnoozeDays = 366

    /// The header fields `isCandidate` and `read` look at, upper-case: a run that
    /// fetches only named fields adds these in INBOX.
    public static let headerFields = ["FROM", "TO", "SUBJECT", "MESSAGE-ID", "IN-REPLY-TO", "REFERENCES"]

    /// Whether `message` is meant as a command: from one of the user's addresses to
    /// one of them, and either a Done message (`Subject: triage: ...`) or a reply
    /// to a digest (its In-Reply-To or References name a digest's Message-ID, or
    /// its subject is a digest's with `Re:`). A digest itself never is one.
    public func isCandidate(_ message: Message) -> Bool {
        guard message.from.count == 1, addresses.contains(message.from[0].address.lowercased()),
              message.to.contains(where: { addresses.contains($0.address.lowercased()) }) else { return false }
        if let id = message.messageID, Self.looksLikeDigestID(id) { return false }
        if Self.subjectWords(message.subject) != nil { return true }
        if ([message.inReplyTo].compactMap { $0 } + message.references).contains(where: Self.looksLikeDigestID) { return true }
        return Self.repliesToDigestSubject(message.subject)
    }

    /// The verdict on a candidate whose text is `body`, a whole text/plain reply
    /// (tests; a run reads through `ReplyReader`).
    public func read(_ message: Message, body: String, reminderIDs: [String], queueIDs: [String]) -> Verdict {
        read(message, reply: ReplyReader.read(ReplyBody(plain: body), complete: true), reminderIDs: reminderIDs, queueIDs: queueIDs)
    }

    /// The verdict on a candidate whose text `ReplyReader` read as `reply`;
    /// `reminderIDs` and `queueIDs` are every id of those kinds in the store (any status).
    public func read(_ message: Message, reply: ReplyText, reminderIDs: [String], queueIDs: [String]) -> Verdict {
        if let words = Self.subjectWords(message.subject) {
            return readLink(words, reminderIDs: reminderIDs, queueIDs: queueIDs)
        }
        let referenced = ([message.inReplyTo].compactMap { $0 } + message.references).filter(Self.looksLikeDigestID)
        guard !referenced.isEmpty else {
            return .refuse("a reply with digest commands must answer a digest triage sent, and this one's In-Reply-To names none")
        }
        guard referenced.contains(where: key.isDigestMessageID) else {
            return .refuse("the digest this reply answers was not sent by this triage (its Message-ID's MAC does not verify)")
        }
        switch reply {
        case .refused(let reason): return .refuse(reason)
        case .userLines(let lines): return readReply(lines, reminderIDs: reminderIDs, queueIDs: queueIDs)
        }
    }

    // MARK: - Done links

    /// `done 0162 7kq3m9x2` of `triage: done 0162 7kq3m9x2`.
    static func subjectWords(_ subject: String?) -> [String]? {
        guard let subject else { return nil }
        let text = subject.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("triage:") else { return nil }
        return text.dropFirst("triage:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    }

    private func readLink(_ words: [String], reminderIDs: [String], queueIDs: [String]) -> Verdict {
        guard words.count == 3, ["done", "tomorrow"].contains(words[0].lowercased()) else {
            return .refuse("the subject is not a Done or Tomorrow link's (triage: done|tomorrow ID TOKEN)")
        }
        let verb = words[0].lowercased(), short = words[1].lowercased(), token = words[2]
        let match = ShortIDIndex(reminderIDs + queueIDs).match(short)
        if match == .malformed { return .refuse("'\(Self.quoted(short))' is not a record id") }
        let reminders = Set(reminderIDs)
        var candidates: [String] = []
        switch match {
        case .one(let id): candidates = [id]
        case .many(let ids): candidates = ids
        case .none, .malformed: break
        }
        // The token tells the records of one short id apart, whatever was added since.
        let fits = candidates.filter { id in
            key.verify(token, verb: verb, kind: reminders.contains(id) ? Reminder.kindFolder : QueueEntry.kindFolder, id: id)
        }
        guard fits.count == 1, let id = fits.first else {
            return .refuse("its token does not fit record \(Self.quoted(short)) (forged, or for another item or action)")
        }
        let kind = reminders.contains(id) ? Reminder.kindFolder : QueueEntry.kindFolder
        return .apply([DigestCommand(verb: verb == "done" ? .done : .snooze(days: 1), kind: kind, id: id)])
    }

    // MARK: - Replies

    /// Whether `line` (trimmed) is meant as a command: its first word is a verb.
    /// Other lines of the user's part ("Thanks!") are skipped.
    public static func isCommandLine(_ line: String) -> Bool {
        guard let first = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first else { return false }
        return ["done", "reopen", "snooze"].contains(first.lowercased())
    }

    /// The commands of the user's lines (`ReplyReader` has cut the quote off).
    private func readReply(_ lines: [String], reminderIDs: [String], queueIDs: [String]) -> Verdict {
        let index = ShortIDIndex(reminderIDs + queueIDs)
        let reminders = Set(reminderIDs)
        var commands: [DigestCommand] = []
        var number = 0
        for raw in lines {
            number += 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let verb = words.first?.lowercased(), ["done", "reopen", "snooze"].contains(verb) else { continue }
            func resolve(_ text: String) -> Result<DigestCommand, Refusal> {
                switch index.match(text.lowercased()) {
                case .one(let id):
                    let kind = reminders.contains(id) ? Reminder.kindFolder : QueueEntry.kindFolder
                    return .success(DigestCommand(verb: .done, kind: kind, id: id))
                case .none: return .failure(Refusal("line \(number): no reminder or queue entry has the id \(Self.quoted(text))"))
                case .many: return .failure(Refusal("line \(number): \(Self.quoted(text)) names more than one record; give more digits"))
                case .malformed: return .failure(Refusal("line \(number): '\(Self.quoted(text))' is not a record id"))
                }
            }
            var ids = Array(words.dropFirst())
            var snooze: Int?
            if verb == "snooze" {
                guard ids.count >= 2, let days = Self.days(Array(ids.dropFirst())) else {
                    return .refuse("line \(number): snooze wants an id and a time of at most \(Self.maximumSnoozeDays) days: "
                                   + "snooze 21c1 3 days (or tomorrow, 2 weeks)")
                }
                snooze = days
                ids = [ids[0]]
            }
            guard !ids.isEmpty else { return .refuse("line \(number): \(verb) wants one or more ids, as in \(verb) 0162") }
            for text in ids {
                switch resolve(text) {
                case .failure(let refusal): return .refuse(refusal.reason)
                case .success(var command):
                    command.verb = verb == "done" ? .done : verb == "reopen" ? .reopen : .snooze(days: snooze ?? 1)
                    commands.append(command)
                }
            }
        }
        guard !commands.isEmpty else {
            return .refuse("the reply holds no command (one a line: done 0162, snooze 21c1 3 days, reopen 0162)")
        }
        return .apply(commands)
    }

    /// `tomorrow`, `1 day`, `3 days`, `2 weeks`, `a week`: days from 1 to `maximumSnoozeDays`.
    static func days(_ words: [String]) -> Int? {
        let w = words.map { $0.lowercased() }
        if w == ["tomorrow"] { return 1 }
        guard w.count == 2 else { return nil }
        // The number is a sender's text: bounded before any arithmetic (a reply with
        // `snooze 0162 2000000000000000000 weeks` once trapped on the product).
        let n = w[0] == "a" || w[0] == "one" ? 1 : boundedNumber(w[0], maximum: maximumSnoozeDays)
        guard let n, n > 0 else { return nil }
        switch w[1] {
        case "day", "days": return n
        case "week", "weeks": return n <= maximumSnoozeDays / 7 ? n * 7 : nil
        default: return nil
        }
    }

    /// `text` as a number from 0 to `maximum` when it is only ASCII digits; nil for
    /// anything else (a sign, a longer number), without ever computing a larger value.
    static func boundedNumber(_ text: String, maximum: Int) -> Int? {
        var value = 0
        for byte in text.utf8 {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 48)
            guard value <= maximum else { return nil }
        }
        return text.isEmpty ? nil : value
    }

    private struct Refusal: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    // MARK: - Helpers

    /// `digest-….@triage.invalid`, MAC or not.
    static func looksLikeDigestID(_ id: String) -> Bool {
        id.hasPrefix("digest-") && id.lowercased().hasSuffix("@" + DigestMessageBuilder.messageIDDomain)
    }

    /// `Re: triage · Mon 30 Nov: ...`: the subject of a reply to a digest.
    static func repliesToDigestSubject(_ subject: String?) -> Bool {
        guard var s = subject?.trimmingCharacters(in: .whitespaces) else { return false }
        var replied = false
        while let colon = s.firstIndex(of: ":"), ["re", "aw", "sv", "fwd", "fw"].contains(s[..<colon].lowercased()) {
            s = s[s.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            replied = true
        }
        return replied && s.hasPrefix("triage · ")
    }

    /// What a sender wrote, made safe to show: one line, at most 40 characters.
    static func quoted(_ text: String) -> String {
        DigestFormat.oneLine(text, limit: 40)
    }
}
