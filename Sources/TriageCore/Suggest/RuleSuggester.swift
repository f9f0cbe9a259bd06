import Foundation

/// `triage suggest`'s analysis: from a `MailHistory` to the rules it is sure of.
///
/// Mail is grouped by List-Id, else by sender address; a group with enough messages
/// and a clear pattern (filed by hand into one folder, bulk headers, automatic
/// senders) becomes a candidate rule. Every candidate is then compiled with the real
/// `RuleCompiler` and evaluated over the whole history: a rule that would have touched
/// a message the user answered or flagged, or mail from a person the user writes to,
/// gets `-from:` exceptions for those people, or is dropped when none would do. Pure:
/// no I/O, `now` comes with the history.
public struct RuleSuggester: Sendable {
    /// Who `me` is and the time zone: the configuration's, as the rules are compiled.
    public var environment: RuleEnvironment
    /// The current rules, to leave out what they already handle; nil for none.
    public var current: CompiledRules?
    /// Suggest what the current rules already cover too (`--all`).
    public var includeCovered = false
    /// The fewest messages a pattern needs to be suggested.
    public var minimumMessages = 3

    /// Creates an analysis with the configuration's environment and the current rules.
    public init(environment: RuleEnvironment, current: CompiledRules?, includeCovered: Bool = false) {
        self.environment = environment
        self.current = current
        self.includeCovered = includeCovered
    }

    /// The suggestions for `history`.
    public func suggest(_ history: MailHistory) -> SuggestionReport {
        var report = SuggestionReport()
        let me = Set((environment.identities + history.identities).map { $0.lowercased() })
        func isMine(_ m: HistoryMessage) -> Bool { m.message.from.contains { me.contains($0.address.lowercased()) } }
        let sent = history.messages.filter { $0.isSent || isMine($0) }
        let received = history.received.filter { !isMine($0) }
        report.received = received.count
        report.sent = sent.count

        // Whom the user writes to, and which messages the user's own mail answers.
        var people = Set<String>()
        var replied = Set<String>()
        for m in sent {
            for a in m.message.to + m.message.cc + m.message.bcc { people.insert(a.address.lowercased()) }
            if let id = m.message.inReplyTo { replied.insert(Self.normalizedID(id)) }
            for id in m.message.references { replied.insert(Self.normalizedID(id)) }
        }
        let answered = received.map { m in
            m.isAnswered || m.message.messageID.map { replied.contains(Self.normalizedID($0)) } == true
        }
        // Whoever the user answered outside a list is a person too.
        let written = people
        var answeredSenders = Set<String>()
        for (i, m) in received.enumerated() where answered[i] && m.message.listID == nil {
            for a in m.message.from { answeredSenders.insert(a.address.lowercased()) }
        }
        people.formUnion(answeredSenders)
        people.subtract(me)
        report.people = people.count
        let protected = received.indices.map { answered[$0] || received[$0].isFlagged }
        report.protected = protected.filter { $0 }.count
        let personal = received.map { m in
            (m.message.from + m.message.replyTo).contains { people.contains($0.address.lowercased()) }
        }

        // What the current rules already do to each message.
        let covered: [Bool] = received.map { m in
            guard let current else { return false }
            return !RuleEvaluator.evaluate(m.message, rules: current, now: history.now).planned.isEmpty
        }

        // Groups: by List-Id, else by sender.
        var groups: [String: [Int]] = [:]
        var order: [String] = []
        for (i, m) in received.enumerated() {
            let key: String
            if let list = m.message.listID?.lowercased() {
                key = "list:" + list
            } else if let sender = m.message.from.first?.address.lowercased(), !sender.isEmpty {
                key = "from:" + sender
            } else {
                continue
            }
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(i)
        }

        // Lists the user unsubscribed from that still send: a rule each, however few of
        // their messages the window holds (the unsubscribe is the evidence).
        let unsubscribed = Self.stillSending(history.unsubscribes)
        for key in unsubscribed.keys.sorted() where groups[key] == nil {
            order.append(key)
            groups[key] = []
        }

        // Small groups pooled, so a pattern spread thin still shows: one sender's mail over
        // several lists (a no-reply sender per repository) becomes that sender's; bulk
        // senders of one domain (not a mail provider's) with few messages each, the domain's.
        for key in order where (groups[key]?.count ?? 0) < minimumMessages && unsubscribed[key] == nil {
            let members = groups[key] ?? []
            let senders = Set(members.compactMap { received[$0].message.from.first?.address.lowercased() })
            guard senders.count == 1, let sender = senders.first else { continue }
            var pool: String
            if key.hasPrefix("list:") {
                pool = "from:" + sender
            } else {
                let domain = Address(address: sender).domain
                guard !domain.isEmpty, !Self.isMailProvider(domain), !people.contains(sender),
                      members.allSatisfy({ Self.isBulk(received[$0]) }) else { continue }
                pool = "from:@" + domain
            }
            if groups[pool] == nil { order.append(pool) }
            groups[pool, default: []].append(contentsOf: members)
        }

        var candidates: [SuggestedRule] = []
        var taken = Set((current?.rules ?? []).map { $0.name.lowercased() })
        for key in order {
            let members = groups[key] ?? []
            let isList = key.hasPrefix("list:")
            let subject = String(key.dropFirst(5))
            let evidence = Self.evidence(members.map { received[$0] }, answered: members.map { answered[$0] },
                                         personal: members.map { personal[$0] })
            let record = unsubscribed[key]
            guard evidence.messages >= minimumMessages || record != nil else { continue }
            guard Self.isSafeValue(subject) else {
                report.leftOut.append(.init(subject: subject, reason: "its address cannot be written in a rule safely"))
                continue
            }
            if !isList, people.contains(subject) || me.contains(subject) {
                report.leftOut.append(.init(subject: subject, reason: answeredSenders.contains(subject) && !written.contains(subject)
                    ? "you answered its mail" : "you write to this sender"))
                continue
            }
            let classified: (SuggestionKind, String?)? = record != nil ? (SuggestionKind.unsubscribed, nil)
                : classify(evidence, isList: isList, subject: subject, history: history)
            guard let (kind, folder) = classified else { continue }
            // A list with one sender (a newsletter tool's) is named after the sender, as people know it.
            let shown = isList && kind == .newsletter ? (evidence.onlySender.flatMap { Self.isSafeValue($0) ? $0 : nil } ?? subject) : subject
            var rule = SuggestedRule(name: Self.uniqueName("\(kind.rawValue) \(shown)", taken: &taken), kind: kind,
                                     subject: subject, isList: isList, query: "", actions: Self.actions(kind, folder: folder, evidence: evidence),
                                     evidence: evidence)
            rule.folder = folder
            if let record, let done = record.done, let still = record.stillSending {
                rule.unsubscribe = UnsubscribeEvidence(list: record.list, done: done, method: record.method?.rawValue ?? "?",
                                                       stillSending: still, since: 0)
            }
            // People in the group are left out from the start: a list's posts of a friend,
            // a newsletter tool's mail with a friend in Reply-To.
            for i in members where personal[i] || protected[i] {
                Self.except(received[i], in: &rule, people: people, protected: protected[i])
            }
            // A domain's rule leaves out everyone there you write to, whether or not they wrote lately.
            if subject.hasPrefix("@") {
                let domain = String(subject.dropFirst())
                for person in people.sorted() where person.hasSuffix("@" + domain) || person.hasSuffix("." + domain) {
                    if Self.isSafeValue(person), !rule.exceptions.contains(person) { rule.exceptions.append(person) }
                }
            }
            rule.query = Self.query(rule)
            candidates.append(rule)
        }

        // Checked against the whole history with the real compiler and evaluator.
        var kept = candidates
        var final: [[Int]?]?
        for _ in 0..<3 {
            let touched = Self.matches(kept, over: received, environment: environment, now: history.now)
            var next: [SuggestedRule] = []
            var changed = false
            for (position, var rule) in kept.enumerated() {
                guard let hits = touched[position] else {
                    report.leftOut.append(.init(subject: rule.subject, reason: "the rule did not compile"))
                    changed = true
                    continue
                }
                let bad = hits.filter { protected[$0] || personal[$0] }
                if bad.isEmpty {
                    guard hits.count >= minimumMessages || rule.unsubscribe != nil else {
                        // Its exceptions left too little for a pattern.
                        report.leftOut.append(.init(subject: rule.subject, reason: rule.exceptsAnswered
                            ? "you answered or flagged its mail" : "its mail comes from people you write to"))
                        changed = true
                        continue
                    }
                    rule.matched = hits.count
                    if let folder = rule.folder {
                        rule.alreadyThere = hits.filter { received[$0].folder.lowercased() == folder.lowercased() }.count
                    }
                    next.append(rule)
                    continue
                }
                changed = true
                // Another sender behind the touched messages can be an exception; the rule's own cannot.
                var added = false
                for i in bad where Self.except(received[i], in: &rule, people: people, protected: protected[i]) { added = true }
                if added, rule.exceptions.count <= 10 {
                    rule.query = Self.query(rule)
                    next.append(rule)
                } else {
                    let reason = bad.contains { protected[$0] } ? "you answered or flagged its mail" : "its mail comes from people you write to"
                    report.leftOut.append(.init(subject: rule.subject, reason: reason))
                }
            }
            kept = next
            if !changed {
                // This round checked exactly the rules kept, and none touched such mail.
                final = touched
                break
            }
        }
        // Else a last check of the final set: anything still touching such mail goes.
        let checked = final ?? Self.matches(kept, over: received, environment: environment, now: history.now)
        report.rules = kept.enumerated().compactMap { position, rule in
            guard let hits = checked[position], !hits.contains(where: { protected[$0] || personal[$0] }) else {
                report.leftOut.append(.init(subject: rule.subject, reason: "you answered or flagged its mail"))
                return nil
            }
            // Covered: the current rules already act on every message this one matches.
            var rule = rule
            rule.covered = !hits.isEmpty && hits.allSatisfy { covered[$0] }
            // A list left with no mail in the window: do the current rules act on its kind of message?
            if let unsubscribe = rule.unsubscribe {
                // What it still sent: the mail since that this rule archives.
                rule.unsubscribe?.since = hits.filter { (received[$0].seconds ?? Int64.max) >= unsubscribe.done.secondsSince1970 }.count
                // A list with no mail in the window: do the current rules act on its kind of message?
                if hits.isEmpty, let current {
                    rule.covered = !RuleEvaluator.evaluate(Self.probe(unsubscribe, in: history), rules: current, now: history.now)
                        .planned.isEmpty
                }
            }
            if rule.covered, !includeCovered {
                report.leftOut.append(.init(subject: rule.subject, reason: Self.coveredReason))
                return nil
            }
            return rule
        }
        report.rules.sort { ($0.kind.order, -$0.evidence.messages, $0.subject) < ($1.kind.order, -$1.evidence.messages, $1.subject) }
        return report
    }

    /// The unsubscribes carried out whose list still sends, by group key (`list:ID` or
    /// `from:ADDRESS`, as the history's mail is grouped); the latest of a list's.
    static func stillSending(_ records: [UnsubscribeRecord]) -> [String: UnsubscribeRecord] {
        var result: [String: UnsubscribeRecord] = [:]
        for record in records where record.succeeded && record.stillSending != nil && record.done != nil && !record.list.isEmpty {
            let key = (record.message.list != nil ? "list:" : "from:") + record.list.lowercased()
            if let other = result[key], let a = other.done, let b = record.done, a >= b { continue }
            result[key] = record
        }
        return result
    }

    /// A message of an unsubscribed list as the record knows it (List-Id, sender,
    /// subject), for asking the current rules when the window holds none of its mail.
    static func probe(_ unsubscribe: UnsubscribeEvidence, in history: MailHistory) -> Message {
        let record = history.unsubscribes.first { $0.list.lowercased() == unsubscribe.list.lowercased() && $0.done == unsubscribe.done }
        var m = Message()
        if let from = record?.message.from { m.from = [from] }
        m.listID = record?.message.list
        m.subject = record?.message.subject
        m.server.mailbox = "INBOX"
        return m
    }

    /// The reason of a pattern the current rules already handle.
    public static let coveredReason = "your rules already handle all its mail"

    // MARK: - Classification

    /// The kind of a group's mail and the folder it is filed into, or nil when the
    /// pattern is not clear enough to be sure of.
    func classify(_ e: SuggestionEvidence, isList: Bool, subject: String, history: MailHistory) -> (SuggestionKind, String?)? {
        let n = e.messages
        // Filed by hand: at least four in five in one folder that is the user's own.
        if let main = e.mainFolder, main.count * 5 >= n * 4, main.name.uppercased() != "INBOX",
           !Self.isSystemFolder(main.name, history: history), Self.isSafeFolder(main.name) {
            if isList { return (.filedList, main.name) }
            if e.receiptSubjects * 2 >= n || Self.receiptWords.contains(where: { main.name.lowercased().contains($0) }) {
                return (.receipt, main.name)
            }
            return (.filed, main.name)
        }
        // Mail spread over the user's own folders is no pattern to move or archive.
        let userFiled = e.folders.filter { $0.key.uppercased() != "INBOX" && !Self.isSystemFolder($0.key, history: history) }
            .values.reduce(0, +)
        guard userFiled * 5 < n else { return nil }
        if e.autoSubmitted * 2 >= n || e.noReply * 2 >= n { return (.notification, nil) }
        if isList, e.listPost * 2 >= n, e.listUnsubscribe * 2 < n || e.precedence * 2 >= n { return (.list, nil) }
        if e.listUnsubscribe * 2 >= n || e.precedence * 2 >= n || isList { return (.newsletter, nil) }
        return nil
    }

    /// The actions of a kind.
    static func actions(_ kind: SuggestionKind, folder: String?, evidence: SuggestionEvidence) -> [String] {
        switch kind {
        case .newsletter: return ["label \"no push\"", "archive", "digest \"Newsletters\""]
        case .list, .unsubscribed: return ["label \"no push\"", "archive", "digest \"Lists\""]
        case .filedList, .filed, .receipt: return ["move " + SuggestedRule.quoted(folder ?? "")]
        case .notification: return ["digest \"Notifications\""] + (evidence.opened == 0 ? ["mark read"] : [])
        }
    }

    /// The query of a rule: its list or sender, less its exceptions (`-from:`, and
    /// `-replyto:` for an address seen in Reply-To).
    static func query(_ rule: SuggestedRule) -> String {
        var terms = [(rule.isList ? "list:" : "from:") + SuggestedRule.quoted(rule.subject)]
        for address in rule.exceptions {
            terms.append("-from:" + SuggestedRule.quoted(address))
            if rule.replyToExceptions.contains(address) { terms.append("-replyto:" + SuggestedRule.quoted(address)) }
        }
        return terms.joined(separator: " ")
    }

    /// Adds to `rule`'s exceptions the senders of `m` (From, Reply-To) that are people,
    /// or, for a list's answered or flagged post, its poster; never the rule's own sender.
    /// Returns whether one was added.
    @discardableResult
    static func except(_ m: HistoryMessage, in rule: inout SuggestedRule, people: Set<String>, protected: Bool) -> Bool {
        var added = false
        let own = rule.isList ? rule.evidence.onlySender : rule.subject
        for (field, addresses) in [("from", m.message.from), ("replyto", m.message.replyTo)] {
            for a in addresses {
                let address = a.address.lowercased()
                guard address != own, address != rule.subject, Self.isSafeValue(address),
                      people.contains(address) || (rule.isList && protected && field == "from") else { continue }
                if !rule.exceptions.contains(address) {
                    rule.exceptions.append(address)
                    added = true
                }
                if field == "replyto", rule.replyToExceptions.insert(address).inserted { added = true }
                if protected, !people.contains(address) { rule.exceptsAnswered = true }
            }
        }
        return added
    }

    /// The counts of a group.
    static func evidence(_ messages: [HistoryMessage], answered: [Bool], personal: [Bool]) -> SuggestionEvidence {
        var e = SuggestionEvidence()
        for (i, m) in messages.enumerated() {
            e.messages += 1
            if m.isSeen { e.opened += 1 }
            if answered[i] { e.answered += 1 }
            if m.isFlagged { e.flagged += 1 }
            if personal[i] { e.fromPeople += 1 }
            if m.header("list-unsubscribe") != nil { e.listUnsubscribe += 1 }
            if m.header("list-unsubscribe-post") != nil { e.listUnsubscribePost += 1 }
            if m.header("list-post") != nil { e.listPost += 1 }
            if let p = m.header("precedence")?.lowercased().trimmingCharacters(in: .whitespaces), ["bulk", "list", "junk"].contains(p) {
                e.precedence += 1
                e.precedenceValues[p, default: 0] += 1
            }
            if let sender = m.message.from.first?.address.lowercased() { e.senders[sender, default: 0] += 1 }
            if let auto = m.header("auto-submitted")?.lowercased().trimmingCharacters(in: .whitespaces), !auto.hasPrefix("no") {
                e.autoSubmitted += 1
            }
            if let sender = m.message.from.first, isNoReply(sender.localPart) { e.noReply += 1 }
            let subject = WordSplitter.words(m.message.subject ?? "").map { $0.lowercased() }
            if subject.contains(where: { word in receiptWords.contains(where: { word.hasPrefix($0) }) }) { e.receiptSubjects += 1 }
            e.folders[m.folder, default: 0] += 1
            for label in m.message.server.labels { e.labels[label, default: 0] += 1 }
        }
        return e
    }

    /// Whether a message carries a bulk or automatic sender's marks: List-Unsubscribe,
    /// Precedence bulk/list/junk, Auto-Submitted, a no-reply address.
    static func isBulk(_ m: HistoryMessage) -> Bool {
        if m.header("list-unsubscribe") != nil { return true }
        if let p = m.header("precedence")?.lowercased().trimmingCharacters(in: .whitespaces), ["bulk", "list", "junk"].contains(p) { return true }
        if let auto = m.header("auto-submitted")?.lowercased().trimmingCharacters(in: .whitespaces), !auto.hasPrefix("no") { return true }
        return m.message.from.first.map { isNoReply($0.localPart) } ?? false
    }

    /// Domains of mail providers, where a domain says nothing of who writes: never a
    /// domain rule there.
    static func isMailProvider(_ domain: String) -> Bool {
        let exact: Set<String> = ["gmail.com", "googlemail.com", "icloud.com", "me.com", "mac.com", "aol.com", "msn.com", "web.de",
                                  "proton.me", "protonmail.com", "pm.me", "mail.ru", "fastmail.com", "fastmail.fm", "zoho.com",
                                  "t-online.de", "orange.fr", "free.fr", "qq.com", "163.com", "126.com", "posteo.de", "mailbox.org",
                                  "hey.com", "tutanota.com", "tuta.io", "seznam.cz", "naver.com", "rediffmail.com"]
        if exact.contains(domain) { return true }
        let first = domain.split(separator: ".").first.map(String.init) ?? domain
        return ["yahoo", "hotmail", "outlook", "live", "gmx", "yandex", "ymail", "libero", "wanadoo"].contains(first)
    }

    /// Words of a receipt's or an invoice's subject (or folder).
    static let receiptWords = ["receipt", "invoice", "rechnung", "quittung", "facture", "order", "payment", "bill"]

    /// Whether a local part is an automatic sender's: `noreply`, `no-reply`,
    /// `donotreply`, `notifications`, `alerts`, `mailer-daemon` and the like.
    static func isNoReply(_ local: Substring) -> Bool {
        let plain = local.lowercased().filter { $0.isLetter }
        if plain.contains("noreply") || plain.contains("donotreply") || plain.contains("dontreply") { return true }
        return ["notification", "notifications", "notify", "alert", "alerts", "mailerdaemon", "automated", "bounce",
                "bounces", "postmaster", "system", "robot"].contains(plain)
    }

    /// Folders that are no one's filing: archive, trash, junk, drafts, sent, Gmail's
    /// system folders, and those the server marks so (`MailHistory.systemFolders`).
    static func isSystemFolder(_ name: String, history: MailHistory) -> Bool {
        if history.systemFolders.contains(where: { $0.lowercased() == name.lowercased() }) { return true }
        let lower = name.lowercased()
        if lower.hasPrefix("[gmail]") || lower.hasPrefix("[google mail]") { return true }
        let last = lower.split(separator: "/").last.map(String.init) ?? lower
        return ["archive", "archives", "trash", "deleted", "deleted items", "deleted messages", "junk", "spam", "junk e-mail",
                "drafts", "sent", "sent items", "sent mail", "sent messages", "outbox", "all mail", "templates"].contains(last)
    }

    /// Whether an address or List-Id can stand in a rule's quotes as it is: printable
    /// ASCII without quotes, backslashes, spaces or `*` (a wildcard), with letters or digits.
    static func isSafeValue(_ value: String) -> Bool {
        !value.isEmpty && value.count <= 200 && value.unicodeScalars.allSatisfy { s in
            s.value > 0x20 && s.value < 0x7F && s != "\"" && s != "\\" && s != "*" && s != "(" && s != ")"
        } && value.contains { $0.isLetter || $0.isNumber }
    }

    /// Whether a folder name can be written in a `move` as it is: no control characters.
    static func isSafeFolder(_ name: String) -> Bool {
        !name.isEmpty && !name.unicodeScalars.contains { ControlCharacters.isControl($0) }
    }

    /// A Message-ID without its brackets, in lower case, to compare.
    static func normalizedID(_ id: String) -> String {
        id.trimmingCharacters(in: CharacterSet(charactersIn: "<> \t")).lowercased()
    }

    /// `base`, or `base (2)`, ... : a name no current rule or other suggestion has.
    static func uniqueName(_ base: String, taken: inout Set<String>) -> String {
        var name = base
        var n = 2
        while taken.contains(name.lowercased()) {
            name = "\(base) (\(n))"
            n += 1
        }
        taken.insert(name.lowercased())
        return name
    }

    // MARK: - Checking against the history

    /// For each rule, the indexes of the messages of `received` it matches, compiled
    /// with the real compiler and evaluated by the compiled program; nil for a rule that
    /// does not compile. The rules are compiled together (one index per message) but
    /// each is asked on its own, as if it were the only one.
    static func matches(_ rules: [SuggestedRule], over received: [HistoryMessage], environment: RuleEnvironment,
                        now: Date) -> [[Int]?] {
        guard !rules.isEmpty else { return [] }
        var definitions: [RuleDefinition] = []
        var position: [Int?] = []
        for rule in rules {
            let (parsed, problems) = RuleParser.parse(rule.text, path: "suggest", today: nil)
            if parsed.count == 1, !problems.contains(where: { $0.severity == .error }) {
                position.append(definitions.count)
                definitions.append(parsed[0])
            } else {
                position.append(nil)
            }
        }
        let (compiled, problems) = RuleCompiler.compile(definitions, environment: environment)
        guard !problems.contains(where: { $0.severity == .error }) else { return rules.map { _ in nil } }
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        var hits = [[Int]](repeating: [], count: definitions.count)
        for (i, m) in received.enumerated() {
            let index = compiled.index(m.message)
            for r in definitions.indices where compiled.matches(ruleAt: r, in: index, now: seconds) { hits[r].append(i) }
        }
        return position.map { $0.map { hits[$0] } }
    }
}

extension SuggestionKind {
    /// Where its rules stand in the output: moves first (they decide the folder), then bulk mail.
    var order: Int {
        switch self {
        case .unsubscribed: return -1
        case .filedList: return 0
        case .receipt: return 1
        case .filed: return 2
        case .notification: return 3
        case .list: return 4
        case .newsletter: return 5
        }
    }
}
