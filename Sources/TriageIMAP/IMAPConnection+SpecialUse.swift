import CEtPan
import TriageCore
import TriageMIME

/// Folders by their SPECIAL-USE attribute (RFC 6154): where `archive` goes when the
/// account names no folder (`\Archive`), and the digest's handled command messages (`\Trash`).
extension IMAPConnection {
    /// The folder (as the rules name folders) that `LIST "" "*"` marks with
    /// `attribute` (`\Trash`, without case), or nil when none is. Servers with
    /// SPECIAL-USE (Dovecot, Gmail, Fastmail, Cyrus) put it in plain LIST answers; one
    /// that sends it only for `LIST RETURN (SPECIAL-USE)` is not asked so (libetpan
    /// cannot send it): name the folder in the configuration there.
    public func specialUseFolder(_ attribute: String) throws -> String? {
        let namespace = try folderNamespace()
        let wanted = attribute.hasPrefix("\\") ? String(attribute.dropFirst()).lowercased() : attribute.lowercased()
        var list: UnsafeMutablePointer<clist>?
        try perform("LIST") { mailimap_list($0, "", "*", &list) }
        defer { mailimap_list_result_free(list) }
        for entry in CList.items(list, as: mailimap_mailbox_list.self) {
            guard let wire = CString.string(entry.pointee.mb_name), let flags = entry.pointee.mb_flag else { continue }
            for flag in CList.items(flags.pointee.mbf_oflags, as: mailimap_mbx_list_oflag.self)
            where flag.pointee.of_type == Int32(MAILIMAP_MBX_LIST_OFLAG_FLAG_EXT) {
                // libetpan gives the flag without its backslash; accept either.
                let name = (CString.string(flag.pointee.of_flag_ext) ?? "").lowercased()
                if name == wanted || name == "\\" + wanted {
                    return namespace.ruleName(ModifiedUTF7.decode(wire))
                }
            }
        }
        return nil
    }

    /// The SPECIAL-USE `\\Archive` folder; a server's folders are never made here
    /// (`create` is for a local store's default).
    public func archiveFolder(create: Bool) throws -> String? {
        try specialUseFolder("\\Archive")
    }
}
