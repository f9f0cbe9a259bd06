import CEtPan
import TriageCore
import TriageMIME
#if canImport(Glibc)
import Glibc
#endif

/// `UID SEARCH` with a condition, for narrowing a run (`ServerNarrowing`).
extension IMAPConnection {
    /// `UID SEARCH UID first:last KEY`, the UIDs in `uids` that match, ascending; nil
    /// when the server refuses the command (NO or BAD: a key it does not take), so
    /// the run fetches everything instead. An explicit range, not `n:*`, whose `*`
    /// always matches the highest UID.
    public func search(_ key: SearchKey, uids range: ClosedRange<UInt32>) throws -> [UInt32]? {
        guard range.lowerBound > 0 else { return try search(key, uids: 1...max(1, range.upperBound)) }
        _ = try liveSession()
        let all = mailimap_search_key_new_multiple_empty()
        defer { mailimap_search_key_free(all) }
        _ = mailimap_search_key_multiple_add(all, mailimap_search_key_new_uid(mailimap_set_new_interval(range.lowerBound,
                                                                                                         range.upperBound)))
        _ = mailimap_search_key_multiple_add(all, Self.searchKey(key))
        var list: UnsafeMutablePointer<clist>?
        do {
            try perform("UID SEARCH") { mailimap_uid_search($0, nil, all, &list) }
        } catch let failure as MailError where isRefusal(failure) {
            return nil
        }
        defer { mailimap_search_result_free(list) }
        return Set(CList.items(list, as: UInt32.self).map(\.pointee).filter(range.contains)).sorted()
    }

    /// libetpan's form of `key` (it quotes the values; they are ASCII, `ServerNarrowing`).
    /// An OR of several keys nests to the right, as IMAP's OR takes two.
    private static func searchKey(_ key: SearchKey) -> UnsafeMutablePointer<mailimap_search_key> {
        switch key {
        case .header(let field, let value):
            let text = strdup(value)
            switch field {
            case .from: return mailimap_search_key_new_from(text)
            case .to: return mailimap_search_key_new_to(text)
            case .cc: return mailimap_search_key_new_cc(text)
            case .bcc: return mailimap_search_key_new_bcc(text)
            }
        case .or(let keys):
            guard let first = keys.first else { return mailimap_search_key_new_all() }
            guard keys.count > 1 else { return searchKey(first) }
            return mailimap_search_key_new_or(searchKey(first), searchKey(.or(Array(keys.dropFirst()))))
        }
    }
}

/// Finding a message by its Message-ID, and making a folder: what the snooze's wake
/// asks of the server.
extension IMAPConnection {
    /// `UID SEARCH HEADER Message-ID "ID"` (a substring search on most servers), then
    /// the candidates' Message-ID fetched and compared whole, so `a@b` never finds `xa@b`.
    public func messageUIDs(withMessageID messageID: String) throws -> [UInt32] {
        _ = try liveSession()
        let key = mailimap_search_key_new_header(strdup("Message-ID"), strdup(messageID))
        defer { mailimap_search_key_free(key) }
        var list: UnsafeMutablePointer<clist>?
        try perform("UID SEARCH") { mailimap_uid_search($0, nil, key, &list) }
        let found = Set(CList.items(list, as: UInt32.self).map(\.pointee)).sorted()
        mailimap_search_result_free(list)
        guard !found.isEmpty else { return [] }
        return try fetch(found, parts: [], headerFields: ["MESSAGE-ID"])
            .filter { HeaderField.messageID(in: $0.header) == messageID }.map(\.uid).sorted()
    }
}
