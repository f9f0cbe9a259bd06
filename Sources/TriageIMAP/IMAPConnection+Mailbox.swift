import CEtPan
import TriageCore
import TriageMIME
#if canImport(Glibc)
import Glibc
#endif

/// The open mailbox: SELECT or EXAMINE, its UIDs, and fetching messages.
extension IMAPConnection {
    public func open(_ mailbox: String, readOnly: Bool) throws -> MailboxStatus {
        let session = try liveSession()
        let name = ModifiedUTF7.encode(try serverFolder(mailbox))
        var modSeq: UInt64 = 0
        let condstore = capabilities.contains("CONDSTORE")
        // SELECT's own EXISTS is no news (NOTIFY, `takeMailboxNews`); later ones are.
        streamGuard?.selectedMailbox = nil
        let left = selected.map { (name: $0.name, uidNext: selectedUIDNext) }
        try perform(readOnly ? "EXAMINE" : "SELECT", mailbox: mailbox,
                    failure: { self.selectFailure($0, mailbox: mailbox, wire: name) }) { session in
            switch (readOnly, condstore) {
            case (false, false): mailimap_select(session, name)
            case (true, false): mailimap_examine(session, name)
            case (false, true): mailimap_select_condstore(session, name, &modSeq)
            case (true, true): mailimap_examine_condstore(session, name, &modSeq)
            }
        }
        guard let info = session.pointee.imap_selection_info?.pointee else {
            throw MailError(.protocol, server: serverName, "no mailbox information after selecting \(mailbox)")
        }
        selectedReadOnly = readOnly || Int(info.sel_perm) == MAILIMAP_MAILBOX_READONLY
        selected = (mailbox, info.sel_uidvalidity)
        streamGuard?.selectedMailbox = mailbox
        // EXAMINE answers PERMANENTFLAGS () for any server; Gmail labels are no keywords.
        // (Read before any other command: the list belongs to the session's selection.)
        let keywords = !selectedReadOnly && !isGmail ? allowedKeywords(info.sel_perm_flags) : nil
        // Courier's SELECT has no UIDNEXT: without it a first run would remember UID 0
        // and the next run take the whole mailbox for new mail. STATUS says it.
        let uidNext = info.sel_uidnext > 0 ? info.sel_uidnext : try statusUIDNext(name)
        selectedUIDNext = uidNext
        if let left, left.name != mailbox { try noteMailLeftBehind(left.name, uidNext: left.uidNext) }
        var status = MailboxStatus(name: mailbox, uidValidity: info.sel_uidvalidity, uidNext: uidNext,
                                   exists: info.sel_exists, highestModSeq: condstore && modSeq > 0 ? modSeq : nil,
                                   readOnly: selectedReadOnly)
        status.allowedKeywords = keywords
        return status
    }

    /// The keywords PERMANENTFLAGS allows, or nil when it allows new ones (`\*`) or
    /// was not sent (RFC 3501: then every flag is permanent).
    private func allowedKeywords(_ list: UnsafeMutablePointer<clist>?) -> Set<String>? {
        guard let list else { return nil }
        var keywords: Set<String> = []
        for permission in CList.items(list, as: mailimap_flag_perm.self) {
            switch Int(permission.pointee.fl_type) {
            case MAILIMAP_FLAG_PERM_ALL:
                return nil
            case MAILIMAP_FLAG_PERM_FLAG:
                if let flag = permission.pointee.fl_flag, Int(flag.pointee.fl_type) == MAILIMAP_FLAG_KEYWORD,
                   let name = CString.string(flag.pointee.fl_data.fl_keyword) {
                    keywords.insert(name)
                }
            default:
                break
            }
        }
        return keywords
    }

    /// The next UID of a mailbox (wire name) by `STATUS name (UIDNEXT)`, for servers
    /// whose SELECT leaves it out; 0 when the server does not say it there either, or
    /// refuses the command.
    private func statusUIDNext(_ wireName: String) throws -> UInt32 {
        do {
            return try status(wireName, [MAILIMAP_STATUS_ATT_UIDNEXT])[MAILIMAP_STATUS_ATT_UIDNEXT] ?? 0
        } catch let failure as MailError where isRefusal(failure) {
            // A server that refuses STATUS on the selected mailbox: UIDNEXT stays unknown
            // (the runner then searches), which is no reason to give up on the mailbox.
            return 0
        }
    }

    public func uids(above uid: UInt32) throws -> [UInt32] {
        guard uid < UInt32.max else { return [] }
        let session = try liveSession()
        // UID n:* always matches the highest UID, even when it is below n: filter.
        let key = mailimap_search_key_new_uid(mailimap_set_new_interval(uid + 1, 0))
        defer { mailimap_search_key_free(key) }
        var list: UnsafeMutablePointer<clist>?
        try perform("UID SEARCH") { mailimap_uid_search($0, nil, key, &list) }
        defer { mailimap_search_result_free(list) }
        let found = CList.items(list, as: UInt32.self).map(\.pointee).filter { $0 > uid }.sorted()
        // GNU Mailutils answers `UID SEARCH UID 1:*` with nothing while EXISTS says
        // 200: an answer that contradicts the mailbox (fewer than EXISTS from the start,
        // or none though UIDNEXT says there is more) is checked by `UID FETCH n:* (UID)`.
        let exists = Int(session.pointee.imap_selection_info?.pointee.sel_exists ?? 0)
        let short = uid == 0 ? found.count < exists : found.isEmpty && exists > 0 && (selectedUIDNext == 0 || selectedUIDNext - 1 > uid)
        guard short else { return found }
        let fetched = try fetchUIDs(above: uid)
        guard fetched.count > found.count else { return found }
        notices.append("the server's UID SEARCH found \(found.count) of the messages above UID \(uid) but UID FETCH found "
                       + "\(fetched.count) (\(exists) in the mailbox); going by UID FETCH (a server bug, seen in GNU Mailutils imap4d)")
        return fetched
    }

    /// The UIDs above `uid` by `UID FETCH uid+1:* (UID)` (the highest message always
    /// answers `*`, even below `uid`: filtered).
    private func fetchUIDs(above uid: UInt32) throws -> [UInt32] {
        let set = mailimap_set_new_interval(uid + 1, 0)
        defer { mailimap_set_free(set) }
        let messages = try uidFetch(set, [mailimap_fetch_att_new_uid()])
        return Set(messages.map(\.uid).filter { $0 > uid }).sorted()
    }

    /// One `UID FETCH` for `request`: its text capped at the connection's body prefix
    /// length (bounded memory), and at `request.textPrefix` below that.
    public func fetch(_ request: FetchRequest) throws -> [FetchedMessage] {
        try fetch(request.uids, parts: request.parts, headerFields: request.headerFields,
                  textBytes: min(request.textPrefix ?? settings.bodyPrefixBytes, settings.bodyPrefixBytes))
    }

    /// The fetch with at most `textBytes` of each text. The named fields replace the
    /// whole header (with the text, the caller names the Content-* fields the text's
    /// MIME parse needs).
    private func fetch(_ uids: [UInt32], parts: MessageParts, headerFields: [String]?, textBytes: Int) throws -> [FetchedMessage] {
        guard !uids.isEmpty else { return [] }
        _ = try liveSession()
        // One command, all with PEEK so nothing becomes \Seen:
        // UID FLAGS RFC822.SIZE INTERNALDATE [BODYSTRUCTURE] BODY.PEEK[HEADER] [BODY.PEEK[TEXT]<0.N>]
        // The full header (never cut) plus a body prefix: a size limit on BODY[] could cut a long header.
        // The text prefix is most of the cost (on a 10,000-message INBOX it doubles the
        // server's work and sends 7 times the bytes): only when asked for.
        var attributes = [mailimap_fetch_att_new_uid(), mailimap_fetch_att_new_flags(),
                          mailimap_fetch_att_new_rfc822_size(), mailimap_fetch_att_new_internaldate()]
        if parts.contains(.structure) {
            attributes.append(mailimap_fetch_att_new_bodystructure())
        }
        // With the text, the request names the Content-* fields its MIME parse needs
        // (`fetch(_:parts:headerFields:)` asks for the whole header then).
        if let headerFields, !headerFields.isEmpty {
            // HEADER.FIELDS of the fields the rules read: a tenth of the bytes, and of the parse.
            let names = clist_new()
            for name in headerFields { clist_insert_after(names, names?.pointee.last, strdup(name)) }
            attributes.append(mailimap_fetch_att_new_body_peek_section(
                mailimap_section_new_header_fields(mailimap_header_list_new(names))))
        } else {
            attributes.append(mailimap_fetch_att_new_body_peek_section(mailimap_section_new_header()))
        }
        if parts.contains(.text) {
            attributes.append(mailimap_fetch_att_new_body_peek_section_partial(
                mailimap_section_new_text(), 0, UInt32(max(0, textBytes))))
        }
        if isGmail {
            attributes.append(mailimap_fetch_att_new_xgmlabels())
        }
        let set = IMAPSet.make(uids)
        defer { mailimap_set_free(set) }
        // A batch's answer is rightly bigger than any other: allow for its body prefixes.
        streamGuard?.expect(extra: uids.count * (textBytes + 64 * 1024))
        defer { streamGuard?.expect(extra: 0) }
        let wanted = Set(uids)
        // A server may add unsolicited FETCH answers (a flag change by another client,
        // with or without UID): keep one answer per UID asked for, the full one.
        var byUID: [UInt32: FetchedMessage] = [:]
        for message in try uidFetch(set, attributes, gmail: isGmail) where wanted.contains(message.uid) {
            // (A HEADER.FIELDS answer may rightly be empty: the size tells the full one too.)
            func isFull(_ m: FetchedMessage) -> Bool { !m.header.isEmpty || m.size > 0 }
            if let seen = byUID[message.uid], isFull(seen), !isFull(message) { continue }
            byUID[message.uid] = message
        }
        return byUID.keys.sorted().compactMap { byUID[$0] }
    }

    /// `UID FETCH set (attributes)` (the attributes are the command's to free), its
    /// answers read with X-GM-LABELS when `gmail`.
    func uidFetch(_ set: UnsafeMutablePointer<mailimap_set>?, _ attributes: [UnsafeMutablePointer<mailimap_fetch_att>?],
                  gmail: Bool = false) throws -> [FetchedMessage] {
        let type = mailimap_fetch_type_new_fetch_att_list_empty()
        defer { mailimap_fetch_type_free(type) }
        for attribute in attributes { mailimap_fetch_type_new_fetch_att_list_add(type, attribute) }
        var list: UnsafeMutablePointer<clist>?
        try perform("UID FETCH") { mailimap_uid_fetch($0, set, type, &list) }
        defer { mailimap_fetch_list_free(list) }
        return FetchResponseReader.messages(list, gmail: gmail)
    }
}
