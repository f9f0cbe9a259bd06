import Foundation

/// Recognises command messages in the inbox and decides whether to obey them:
/// the message a Done link makes (`Subject: triage: done 0162 7kq3m9x2`) and a
/// reply to the digest with command lines (`done 0162`, `snooze 21c1 3 days`).
///
/// Anyone can put the user's address in From, so From is only the first filter:
/// a Done message must carry the token of exactly that action on that record
/// (`DigestKey.token`), and a reply must answer a digest whose Message-ID carries
/// a MAC under the same key. Either acts only on records that a digest sent in the
/// last `replyDays` days showed (a reply: the digest it answers). Whatever does
/// not prove itself is refused with the reason (the run reports it in Problems
/// and the rules sort the message like any other); a reason never repeats what
/// the sender wrote, but the subject's start.
public struct DigestCommandReader: Sendable {
    /// The user's addresses, lower-cased: command messages come from one of them
    /// (and a link's message goes to one of them).
    public var addresses: Set<String>
    /// The key of the tokens and digest Message-IDs.
    public var key: DigestKey
    /// For how many days after a digest was sent its replies and links are obeyed.
    public var replyDays = DigestSection.defaultReplyDays

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

    /// Whether `message` is meant as a command: from one of the user's addresses,
    /// and either a Done message (`Subject: triage: ...`, to one of them) or a reply
    /// to a digest (its In-Reply-To or References name a digest's Message-ID, or
    /// its subject is a digest's with `Re:`), to whatever address: a mail app may
    /// answer the digest's `From`. A digest itself never is one.
    public func isCandidate(_ message: Message) -> Bool {
        guard message.from.count == 1, addresses.contains(message.from[0].address.lowercased()) else { return false }
        if let id = message.messageID, Self.looksLikeDigestID(id) { return false }
        if Self.subjectWords(message.subject) != nil {
            return message.to.contains(where: { addresses.contains($0.address.lowercased()) })
        }
        if ([message.inReplyTo].compactMap { $0 } + message.references).contains(where: Self.looksLikeDigestID) { return true }
        return Self.repliesToDigestSubject(message.subject)
    }

    /// The verdict on a candidate whose text is `body`, a whole text/plain reply
    /// (tests; a run reads through `ReplyReader`).
    public func read(_ message: Message, body: String, reminderIDs: [String], queueIDs: [String], digestIDs: [String] = [],
                     digests: [DigestShownLedger.Shown], now: Date) -> Verdict {
        read(message, reply: ReplyReader.read(ReplyBody(plain: body), complete: true), reminderIDs: reminderIDs, queueIDs: queueIDs,
             digestIDs: digestIDs, digests: digests, now: now)
    }

    /// The verdict on a candidate whose text `ReplyReader` read as `reply`;
    /// `reminderIDs` and `queueIDs` are every id of those kinds in the store (any
    /// status); `digestIDs` every digest entry's id (an Unsubscribe link names one);
    /// `digests` what the digests on record showed (`DigestShownLedger`); `now` when it
    /// is read; `entryIDs` the digest entries a Snooze link or `snooze ID until DAY` may name.
    public func read(_ message: Message, reply: ReplyText, reminderIDs: [String], queueIDs: [String], digestIDs: [String] = [],
                     digests: [DigestShownLedger.Shown], now: Date, entryIDs: [String] = []) -> Verdict {
        if let words = Self.subjectWords(message.subject) {
            if words.first?.lowercased() == "unsubscribe" {
                return readUnsubscribe(words, digestIDs: digestIDs, digests: digests, now: now)
            }
            return readLink(words, reminderIDs: reminderIDs, queueIDs: queueIDs, digests: digests, now: now, entryIDs: entryIDs)
        }
        switch answered(message, digests: digests, now: now) {
        case .failure(let refusal): return .refuse(refusal.reason)
        case .success(let digest):
            switch reply {
            case .refused(let reason): return .refuse(reason)
            case .userLines(let lines):
                return readReply(lines, digest: digest, reminderIDs: reminderIDs, queueIDs: queueIDs, entryIDs: entryIDs)
            }
        }
    }

    /// Whether `digest` was sent at most `replyDays` days before `now`.
    func isRecent(_ digest: DigestShownLedger.Shown, now: Date) -> Bool {
        guard let sent = digest.sentSeconds else { return false }
        return Int64(now.timeIntervalSince1970.rounded(.down)) - sent <= Int64(replyDays) * 86_400
    }

    /// The digest a reply answers: the one its In-Reply-To names when that is a
    /// digest of this key (a direct reply); else, of the digests its References name
    /// (a reply in a thread, where References also keep older digests), the one on
    /// record sent last. It must be on record (`DigestShownLedger`) and recent.
    private func answered(_ message: Message, digests: [DigestShownLedger.Shown], now: Date)
        -> Result<DigestShownLedger.Shown, Refusal> {
        let direct = message.inReplyTo.flatMap { Self.looksLikeDigestID($0) ? $0 : nil }
        let referenced = message.references.filter(Self.looksLikeDigestID)
        guard direct != nil || !referenced.isEmpty else {
            return .failure(Refusal("a reply with digest commands must answer a digest triage sent, and this one's In-Reply-To names none"))
        }
        let verified = ([direct].compactMap { $0 } + referenced).filter(key.isDigestMessageID)
        guard let newest = verified.first else {
            return .failure(Refusal("the digest this reply answers was not sent by this triage (its Message-ID's MAC does not verify)"))
        }
        let byID = Dictionary(digests.map { ($0.messageID, $0) }, uniquingKeysWith: { a, _ in a })
        let chosen: DigestShownLedger.Shown?
        if let direct, key.isDigestMessageID(direct) {
            chosen = byID[direct]
        } else {
            chosen = referenced.compactMap { byID[$0] }.max { ($0.sentSeconds ?? .min) < ($1.sentSeconds ?? .min) }
        }
        guard let digest = chosen else {
            // Its day is in its Message-ID, which the MAC proves triage made.
            let named = direct.flatMap { key.isDigestMessageID($0) ? $0 : nil } ?? verified.last ?? newest
            let day = Self.day(ofDigestID: named)
            let name = day.map { "the digest of " + DigestFormat.shortDay($0) } ?? "the digest this reply answers"
            if let day, Int64(now.timeIntervalSince1970.rounded(.down)) - Int64(day.daysSince1970) * 86_400
                > Int64(replyDays + 1) * 86_400 {
                return .failure(Refusal("\(name) is older than \(Counted.of(replyDays, "day")): reply to today's digest"))
            }
            return .failure(Refusal("\(name) is not on record (sent before this triage kept what each digest showed, or its record is gone): reply to today's digest"))
        }
        let name = CivilDate(iso: digest.day).map { "the digest of " + DigestFormat.shortDay($0) } ?? "the digest this reply answers"
        guard isRecent(digest, now: now) else {
            return .failure(Refusal("\(name) is older than \(Counted.of(replyDays, "day")): reply to today's digest"))
        }
        return .success(digest)
    }

    /// `2026-11-30` of `digest-2026-11-30.….@triage.invalid`.
    static func day(ofDigestID id: String) -> CivilDate? {
        let rest = id.dropFirst("digest-".count)
        guard rest.count >= 10 else { return nil }
        return CivilDate(iso: rest.prefix(10))
    }

    // MARK: - Done links

    /// `done 0162 7kq3m9x2` of `triage: done 0162 7kq3m9x2`.
    static func subjectWords(_ subject: String?) -> [String]? {
        guard let subject else { return nil }
        let text = subject.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("triage:") else { return nil }
        return text.dropFirst("triage:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    }

    private func readLink(_ words: [String], reminderIDs: [String], queueIDs: [String],
                          digests: [DigestShownLedger.Shown], now: Date, entryIDs: [String] = []) -> Verdict {
        if words.count == 3, words[0].lowercased() == Self.snoozeLinkVerb {
            return readSnoozeLink(short: words[1].lowercased(), token: words[2], entryIDs: entryIDs, digests: digests, now: now)
        }
        guard words.count == 3, ["done", "tomorrow"].contains(words[0].lowercased()) else {
            return .refuse("the subject is not a Done or Tomorrow link's (triage: done|tomorrow ID TOKEN)")
        }
        let verb = words[0].lowercased(), short = words[1].lowercased(), token = words[2]
        let match = ShortIDIndex(reminderIDs + queueIDs).match(short)
        if match == .malformed { return .refuse("the link's subject names no record id") }
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
            return .refuse("its token does not fit the record it names (forged, or for another item or action)")
        }
        // The token names no day: the link counts while a recent digest showed its item.
        guard digests.contains(where: { isRecent($0, now: now) && $0.ids.contains(id) }) else {
            return .refuse("its item was in no digest of the last \(Counted.of(replyDays, "day")): use the links of today's digest")
        }
        let kind = reminders.contains(id) ? Reminder.kindFolder : QueueEntry.kindFolder
        return .apply([DigestCommand(verb: verb == "done" ? .done : .snooze(days: 1), kind: kind, id: id)])
    }

    /// An Unsubscribe link's message: `triage: unsubscribe ID TOKEN`, where ID is a
    /// digest entry's short id and TOKEN `DigestKey.token(verb: "unsubscribe", kind: "digest", id:)`.
    private func readUnsubscribe(_ words: [String], digestIDs: [String], digests: [DigestShownLedger.Shown], now: Date) -> Verdict {
        guard words.count == 3 else { return .refuse("the subject is not an Unsubscribe link's (triage: unsubscribe ID TOKEN)") }
        let short = words[1].lowercased(), token = words[2]
        var candidates: [String] = []
        switch ShortIDIndex(digestIDs).match(short) {
        case .one(let id): candidates = [id]
        case .many(let ids): candidates = ids
        case .none: break
        case .malformed: return .refuse("the link's subject names no record id")
        }
        let fits = candidates.filter { key.verify(token, verb: "unsubscribe", kind: DigestEntry.kindFolder, id: $0) }
        guard fits.count == 1, let id = fits.first else {
            return .refuse("its token does not fit the record it names (forged, or for another item or action)")
        }
        guard digests.contains(where: { isRecent($0, now: now) && $0.ids.contains(id) }) else {
            return .refuse("its item was in no digest of the last \(Counted.of(replyDays, "day")): use the links of today's digest")
        }
        return .apply([DigestCommand(verb: .unsubscribe, kind: DigestEntry.kindFolder, id: id)])
    }

    /// The verb of a listed message's Snooze link (`triage: snooze 21ae TOKEN`): out of
    /// INBOX until tomorrow at `SnoozeSpec.defaultTime`.
    public static let snoozeLinkVerb = "snooze"

    /// A Snooze link's message: its token must fit a digest entry that a recent digest listed.
    private func readSnoozeLink(short: String, token: String, entryIDs: [String], digests: [DigestShownLedger.Shown],
                                now: Date) -> Verdict {
        var candidates: [String] = []
        switch ShortIDIndex(entryIDs).match(short) {
        case .one(let id): candidates = [id]
        case .many(let ids): candidates = ids
        case .none: break
        case .malformed: return .refuse("the link's subject names no record id")
        }
        let fits = candidates.filter { key.verify(token, verb: Self.snoozeLinkVerb, kind: DigestEntry.kindFolder, id: $0) }
        guard fits.count == 1, let id = fits.first else {
            return .refuse("its token does not fit the record it names (forged, or for another item or action)")
        }
        guard digests.contains(where: { isRecent($0, now: now) && ($0.entries ?? []).contains(id) }) else {
            return .refuse("its message was in no digest of the last \(Counted.of(replyDays, "day")): use the links of today's digest")
        }
        return .apply([DigestCommand(verb: .snoozeMessage(.until(.inDays(1), at: nil)), kind: DigestEntry.kindFolder, id: id)])
    }

    // MARK: - Replies

    /// Whether `line` (trimmed) is meant as a command: its first word is a verb.
    /// Other lines of the user's part ("Thanks!") are skipped.
    public static func isCommandLine(_ line: String) -> Bool {
        guard let first = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first else { return false }
        return ["done", "reopen", "snooze"].contains(first.lowercased())
    }

    /// The commands of the user's lines (`ReplyReader` has cut the quote off), on
    /// the records `digest` showed.
    private func readReply(_ lines: [String], digest: DigestShownLedger.Shown, reminderIDs: [String], queueIDs: [String],
                           entryIDs: [String] = []) -> Verdict {
        let index = ShortIDIndex(reminderIDs + queueIDs)
        let reminders = Set(reminderIDs)
        let shown = Set(digest.ids)
        // Hints show an id of the digest answered, as the user sees it there.
        let example = digest.ids.first(where: { index.match($0) != .none }).map { index.short($0) } ?? "ID"
        var commands: [DigestCommand] = []
        var number = 0
        for raw in lines {
            number += 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let verb = words.first?.lowercased(), ["done", "reopen", "snooze"].contains(verb) else { continue }
            // Only records the answered digest showed; what was typed is never repeated
            // (a refusal's words are in the next digest, which a reply quotes).
            func resolve(_ text: String) -> Result<DigestCommand, Refusal> {
                var found: String?
                switch index.match(text.lowercased()) {
                case .one(let id): found = id
                case .many(let ids):
                    let listed = ids.filter(shown.contains)
                    guard listed.count == 1 else {
                        return .failure(Refusal(listed.isEmpty ? "line \(number) names an item that digest did not show"
                                                               : "line \(number) names more than one item; give more digits"))
                    }
                    found = listed[0]
                case .none: break
                case .malformed:
                    return .failure(Refusal("line \(number): an id is 4 or more hex digits, as in \(verb) \(example)"))
                }
                guard let id = found, shown.contains(id) else {
                    return .failure(Refusal("line \(number) names an item that digest did not show"))
                }
                let kind = reminders.contains(id) ? Reminder.kindFolder : QueueEntry.kindFolder
                return .success(DigestCommand(verb: .done, kind: kind, id: id))
            }
            var ids = Array(words.dropFirst())
            var snooze: Int?
            if verb == "snooze", ids.count >= 2, ids[1].lowercased() == "until" {
                // `snooze ID until DAY [at TIME]`: a message the digest listed, put out of INBOX.
                switch snoozeMessage(ids, number: number, digest: digest, entryIDs: entryIDs) {
                case .failure(let refusal): return .refuse(refusal.reason)
                case .success(let command): commands.append(command)
                }
                continue
            }
            if verb == "snooze" {
                guard ids.count >= 2, let days = Self.days(Array(ids.dropFirst())) else {
                    return .refuse("line \(number): snooze wants an id and a time of at most \(Self.maximumSnoozeDays) days, "
                                   + "as in snooze \(example) 3 days (or tomorrow, 2 weeks)")
                }
                snooze = days
                ids = [ids[0]]
            }
            guard !ids.isEmpty else { return .refuse("line \(number): \(verb) wants one or more ids, as in \(verb) \(example)") }
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
            return .refuse("the reply holds no command (one a line, as in done \(example), snooze \(example) 3 days, reopen \(example))")
        }
        return .apply(commands)
    }

    /// `ID until DAY [at TIME]` of line `number`: the digest entry `digest` showed, and
    /// when its message wakes, in the words the `snooze` action takes (read by the
    /// rule parser itself, so both say the same).
    private func snoozeMessage(_ words: [String], number: Int, digest: DigestShownLedger.Shown,
                               entryIDs: [String]) -> Result<DigestCommand, Refusal> {
        let usage = "line \(number): snooze a listed message with snooze ID until DAY, as in snooze 3f2a until monday "
            + "(or tomorrow, YYYY-MM-DD, at 9am)"
        let shown = Set(digest.entries ?? [])
        let candidates: [String]
        switch ShortIDIndex(entryIDs).match(words[0].lowercased()) {
        case .one(let id): candidates = [id]
        case .many(let ids): candidates = ids.filter(shown.contains)
        case .none: candidates = []
        case .malformed: return .failure(Refusal(usage))
        }
        guard candidates.count == 1, let id = candidates.first, shown.contains(id) else {
            return .failure(Refusal(candidates.count > 1 ? "line \(number) names more than one message; give more digits"
                                                         : "line \(number) names a message that digest did not list"))
        }
        // Only plain words reach the parser: a quote or a brace is no part of a day.
        let rest = words.dropFirst().joined(separator: " ")
        guard words.count <= 6, rest.allSatisfy({ $0.isLetter || $0.isNumber || " -:".contains($0) }) else {
            return .failure(Refusal(usage))
        }
        let (rules, errors) = RuleParser.parse("rule \"r\" when x then snooze " + rest, path: "reply")
        guard errors.isEmpty, case .snooze(let spec)? = rules.first?.actions.first, rules.first?.actions.count == 1 else {
            return .failure(Refusal(usage))
        }
        return .success(DigestCommand(verb: .snoozeMessage(spec), kind: DigestEntry.kindFolder, id: id))
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
