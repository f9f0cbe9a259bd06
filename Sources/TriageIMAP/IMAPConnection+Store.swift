import CEtPan
import Glibc
import TriageCore

/// Flags, keywords and Gmail labels: `UID STORE`.
extension IMAPConnection {
    public func store(_ change: FlagChange, uids: [UInt32]) throws {
        guard !uids.isEmpty, !change.isEmpty else { return }
        _ = try liveSession()
        try requireWritable("STORE")
        let sign: Int32 = change.operation == .add ? 1 : -1
        var keywords: [String] = []
        var gmailLabels: [String] = []
        for label in change.labels.sorted() {
            if isGmail {
                gmailLabels.append(ModifiedUTF7.encode(label))
            } else if sign > 0 {
                if let keyword = LabelCodec.keyword(for: label) { keywords.append(keyword) }
            } else {
                // Removing takes off the legacy `+20` spelling too (mail triaged by an earlier version).
                keywords += LabelCodec.keywords(for: label)
            }
        }
        let flags = change.flags.sorted()
        if !flags.isEmpty || !keywords.isEmpty {
            guard let list = mailimap_flag_list_new_empty() else { throw MailError(.protocol, server: serverName, "out of memory") }
            for flag in flags { mailimap_flag_list_add(list, try systemFlag(flag)) }
            for keyword in keywords { mailimap_flag_list_add(list, mailimap_flag_new_flag_keyword(strdup(keyword))) }
            let attribute = sign > 0 ? mailimap_store_att_flags_new_add_flags_silent(list)
                                     : mailimap_store_att_flags_new_remove_flags_silent(list)
            defer { mailimap_store_att_flags_free(attribute) }
            let set = IMAPSet.make(uids)
            defer { mailimap_set_free(set) }
            try perform("UID STORE", failure: storeFailure) { mailimap_uid_store($0, set, attribute) }
        }
        if !gmailLabels.isEmpty {
            let labels = mailimap_msg_att_xgmlabels_new_empty()
            defer { mailimap_msg_att_xgmlabels_free(labels) }
            for label in gmailLabels { mailimap_msg_att_xgmlabels_add(labels, strdup(label)) }
            let set = IMAPSet.make(uids)
            defer { mailimap_set_free(set) }
            try perform("UID STORE X-GM-LABELS", failure: storeFailure) { mailimap_uid_store_xgmlabels($0, set, sign, 1, labels) }
        }
    }

    /// Dovecot answers `OK Store ignored with read-only mailbox`: refuse here instead,
    /// so a caller that opened read-only (`--dry-run`) learns of its mistake.
    func requireWritable(_ command: String) throws {
        guard !selectedReadOnly else {
            throw MailError(.protocol, server: serverName, "\(command) refused: the mailbox is open read-only (EXAMINE)")
        }
    }

    private func systemFlag(_ flag: String) throws -> UnsafeMutablePointer<mailimap_flag> {
        switch flag.lowercased() {
        case "\\seen": return mailimap_flag_new_seen()
        case "\\flagged": return mailimap_flag_new_flagged()
        case "\\answered": return mailimap_flag_new_answered()
        case "\\deleted": return mailimap_flag_new_deleted()
        case "\\draft": return mailimap_flag_new_draft()
        default:
            guard flag.hasPrefix("\\"), flag.count > 1, flag.utf8.dropFirst().allSatisfy(LabelCodec.isPlain) else {
                throw MailError(.protocol, server: serverName, "'\(flag)' is not a system flag; labels go in FlagChange.labels")
            }
            return mailimap_flag_new_flag_extension(strdup(String(flag.dropFirst())))
        }
    }
}
