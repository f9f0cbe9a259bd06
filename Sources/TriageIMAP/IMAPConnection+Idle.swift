import CEtPan
import Glibc
import TriageCore

/// IDLE (RFC 2177) and NOTIFY (RFC 5465) for `triage watch`: wait on the open
/// mailbox (or, with NOTIFY, on every watched one) until the server says something,
/// then DONE. The caller waits on `idleDescriptor` itself (poll), so that one thread
/// can watch several connections and a stop signal at once. And STATUS, to look at
/// a mailbox without opening it.
extension IMAPConnection {
    /// Whether the server announced IDLE after login.
    public var hasIdle: Bool { capabilities.contains("IDLE") }

    /// IDLE, for `MailConnection`.
    public var canIdle: Bool { hasIdle }

    /// NOTIFY, for `MailConnection`.
    public var canNotify: Bool { capabilities.contains("NOTIFY") }

    /// STATUS is IMAP4rev1's: every server has it.
    public var canPollStatus: Bool { true }

    /// Sends IDLE on the open mailbox and reads the server's `+` continuation.
    /// Throws `MailError` as every command does.
    public func startIdle() throws {
        guard selected != nil, session?.pointee.imap_selection_info != nil else {
            throw MailError(.protocol, server: serverName, "IDLE needs an open mailbox")
        }
        do {
            try perform("IDLE", mailbox: selected?.name) { mailimap_idle($0) }
        } catch {
            // Half in IDLE or not: the two sides may disagree; nothing more goes on this session.
            streamBroken = true
            throw error
        }
    }

    /// The socket to wait on (readable: the server said something) while idling; -1 when closed.
    public var idleDescriptor: Int32 {
        guard let session, session.pointee.imap_stream != nil else { return -1 }
        return mailimap_idle_get_fd(session)
    }

    /// Whether bytes the server sent are already read into libetpan's buffer (they
    /// came with the `+` continuation): the socket would not show them as readable.
    public var hasBufferedInput: Bool {
        guard let stream = session?.pointee.imap_stream else { return false }
        return stream.pointee.read_buffer_len > 0
    }

    /// Ends IDLE (DONE) and reads the server's answer, with whatever it announced
    /// meanwhile (EXISTS, EXPUNGE), within the command timeout: a server that does not
    /// answer DONE is a dead connection (`MailError`, kind `.timeout` or `.connect`).
    public func finishIdle() throws {
        do {
            try perform("DONE", mailbox: selected?.name) { mailimap_idle_done($0) }
        } catch {
            streamBroken = true
            throw error
        }
    }

    // MARK: - NOTIFY

    /// `NOTIFY SET (selected (MessageNew MessageExpunge)) (mailboxes (A B ...) (MessageNew
    /// MessageExpunge))`: from now on the server says `* STATUS name (...)` when mail comes
    /// to or goes from one of `mailboxes`, and EXISTS / EXPUNGE for the selected one.
    /// libetpan has no NOTIFY: the command goes as written (`mailimap_custom_command`);
    /// the notices are taken from the stream (`StreamGuard.collectsNotices`).
    public func notify(_ mailboxes: [String]) throws {
        var wires: [String: String] = [:]
        var quoted: [String] = []
        for mailbox in mailboxes {
            let wire = ModifiedUTF7.encode(try serverFolder(mailbox))
            // A name a quoted string cannot carry cannot be watched this way (the caller
            // watches without NOTIFY then).
            guard !wire.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 > 0x7E }) else {
                throw MailError(.protocol, server: serverName, "mailbox \(ControlCharacters.replaced(in: mailbox)) cannot be named in NOTIFY")
            }
            wires[wire.uppercased() == "INBOX" ? "INBOX" : wire] = mailbox
            quoted.append("\"" + wire.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"")
        }
        let command = "NOTIFY SET (selected (MessageNew MessageExpunge)) (mailboxes (\(quoted.joined(separator: " "))) "
            + "(MessageNew MessageExpunge))"
        streamGuard?.collectsNotices = true
        try perform("NOTIFY") { mailimap_custom_command($0, command) }
        notifyNames = wires
    }

    /// What the server said of the watched mailboxes since the last call: the names
    /// of its STATUS notices (as the rules name them), the open mailbox's on EXISTS, and
    /// whether something could not be tied to a mailbox.
    public func takeMailboxNews() -> MailboxNews {
        guard let streamGuard else { return MailboxNews() }
        let (lines, overflowed) = streamGuard.takeNotices()
        var news = MailboxNews(mailboxes: leftBehind, unclear: overflowed)
        leftBehind = []
        for (line, selected) in lines {
            let text = String(decoding: line, as: UTF8.self)
            guard text.uppercased().hasPrefix("* STATUS ") else {
                // EXISTS: new mail in the mailbox open then.
                if let selected { news.mailboxes.insert(selected) }
                continue
            }
            guard let wire = Self.statusName(text.dropFirst(9)) else {
                news.unclear = true
                continue
            }
            if let name = notifyNames[wire.uppercased() == "INBOX" ? "INBOX" : wire] {
                news.mailboxes.insert(name)
            } else if let namespace {
                news.mailboxes.insert(namespace.ruleName(ModifiedUTF7.decode(wire)))
            } else {
                news.unclear = true
            }
        }
        return news
    }

    /// With NOTIFY, mail that came to the mailbox just left while it was open is
    /// announced by an EXISTS that a server may drop when another mailbox is selected
    /// before it was sent (Dovecot does), and no STATUS follows: so, after the SELECT
    /// (from then on a notice would come), `STATUS left (UIDNEXT)` beyond the UIDNEXT
    /// its own SELECT saw is news of it. (Mail its pass took costs one pass more.)
    func noteMailLeftBehind(_ left: String, uidNext: UInt32) throws {
        guard streamGuard?.collectsNotices == true, uidNext > 0 else { return }
        let wire = ModifiedUTF7.encode(try serverFolder(left))
        do {
            let now = try status(wire, [MAILIMAP_STATUS_ATT_UIDNEXT])[MAILIMAP_STATUS_ATT_UIDNEXT] ?? 0
            if now != uidNext { leftBehind.insert(left) }
        } catch let failure as MailError where isRefusal(failure) {
            // Deleted meanwhile, say: its own pass will say so.
            leftBehind.insert(left)
        }
    }

    /// The mailbox name at the start of a STATUS notice's rest: an atom or a quoted
    /// string; nil for a literal (`{n}`, the name on the next line) or anything else.
    static func statusName(_ rest: Substring) -> String? {
        if rest.hasPrefix("\"") {
            var name = "", escaped = false
            for character in rest.dropFirst() {
                if escaped { name.append(character); escaped = false }
                else if character == "\\" { escaped = true }
                else if character == "\"" { return name }
                else { name.append(character) }
            }
            return nil
        }
        guard !rest.hasPrefix("{"), let end = rest.firstIndex(of: " ") else { return nil }
        let atom = rest[..<end]
        return atom.isEmpty ? nil : String(atom)
    }

    // MARK: - STATUS

    /// `STATUS name (UIDVALIDITY UIDNEXT MESSAGES)` of a mailbox as the rules name it.
    /// The open mailbox is synced first (NOOP): a server answers STATUS of it from the
    /// session's view, which does not see new mail until then (Dovecot).
    public func pollStatus(_ mailbox: String) throws -> MailboxCounters {
        if selected?.name == mailbox { try perform("NOOP") { mailimap_noop($0) } }
        let wire = ModifiedUTF7.encode(try serverFolder(mailbox))
        let values = try status(wire, [MAILIMAP_STATUS_ATT_UIDVALIDITY, MAILIMAP_STATUS_ATT_UIDNEXT, MAILIMAP_STATUS_ATT_MESSAGES],
                                failure: { self.selectFailure($0, mailbox: mailbox, wire: wire) })
        return MailboxCounters(uidValidity: values[MAILIMAP_STATUS_ATT_UIDVALIDITY] ?? 0,
                               uidNext: values[MAILIMAP_STATUS_ATT_UIDNEXT] ?? 0,
                               messages: values[MAILIMAP_STATUS_ATT_MESSAGES] ?? 0)
    }
}
