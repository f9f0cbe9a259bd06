import CEtPan
import TriageCore
import TriageMIME

/// Folders by name: the server's names for rule names (NAMESPACE), whether a folder
/// exists (LIST), and what STATUS says of one.
extension IMAPConnection {
    /// The server's name of a folder written as in rules (`Lists/dev` is `INBOX.Lists.dev`
    /// on Courier), by the server's personal NAMESPACE (RFC 2342), asked for once.
    public func serverFolder(_ ruleName: String) throws -> String {
        if ruleName.uppercased() == "INBOX" { return "INBOX" }
        return try folderNamespace().serverName(ruleName)
    }

    /// The personal namespace: NAMESPACE's first personal entry; without the extension
    /// the separator `LIST "" ""` reports and no prefix.
    public func folderNamespace() throws -> FolderNamespace {
        if let namespace { return namespace }
        var found = FolderNamespace.plain
        if capabilities.contains("NAMESPACE") {
            var data: UnsafeMutablePointer<mailimap_namespace_data>?
            do {
                try perform("NAMESPACE") { mailimap_namespace($0, &data) }
            } catch let failure as MailError where isRefusal(failure) {
                // Refused though advertised: names as written, as before NAMESPACE was asked.
                namespace = found
                return found
            }
            defer { mailimap_namespace_data_free(data) }
            if let personal = data?.pointee.ns_personal,
               let first = CList.items(personal.pointee.ns_data_list, as: mailimap_namespace_info.self).first {
                let delimiter = first.pointee.ns_delimiter
                found = FolderNamespace(prefix: CString.string(first.pointee.ns_prefix) ?? "",
                                        separator: delimiter == 0 ? nil : Character(Unicode.Scalar(UInt8(bitPattern: delimiter))))
            }
        } else {
            var list: UnsafeMutablePointer<clist>?
            try perform("LIST") { mailimap_list($0, "", "", &list) }
            defer { mailimap_list_result_free(list) }
            if let first = CList.items(list, as: mailimap_mailbox_list.self).first {
                let delimiter = first.pointee.mb_delimiter
                found = FolderNamespace(prefix: "", separator: delimiter == 0 ? nil : Character(Unicode.Scalar(UInt8(bitPattern: delimiter))))
            }
        }
        // Quoted with control characters escaped: the prefix is the server's to choose.
        tracer?.note("personal namespace: prefix \(String(reflecting: found.prefix)), separator \(found.separator.map { String(reflecting: String($0)) } ?? "none")")
        namespace = found
        return found
    }

    /// Every folder of the account as the rules name them (`Lists/dev`, not
    /// `INBOX.Lists.dev`), by `LIST "" "*"`, in the server's order: for
    /// `triage check --connect` and `run --dry-run` to name missing folders and close
    /// matches. Folders marked `\Noselect` are left out (nothing can be moved there).
    public func folderList() throws -> [String] {
        let namespace = try folderNamespace()
        var list: UnsafeMutablePointer<clist>?
        try perform("LIST") { mailimap_list($0, "", "*", &list) }
        defer { mailimap_list_result_free(list) }
        return CList.items(list, as: mailimap_mailbox_list.self).compactMap { entry in
            guard let wire = CString.string(entry.pointee.mb_name) else { return nil }
            if let flags = entry.pointee.mb_flag, flags.pointee.mbf_type == Int32(MAILIMAP_MBX_LIST_FLAGS_SFLAG),
               flags.pointee.mbf_sflag == Int32(MAILIMAP_MBX_LIST_SFLAG_NOSELECT) {
                return nil
            }
            return namespace.ruleName(ModifiedUTF7.decode(wire))
        }
    }

    /// `folderList()`, for `MailConnection` (`triage suggest`).
    public func listFolders() throws -> [String]? { try folderList() }

    /// Whether a mailbox (wire name) exists, by `LIST "" name`.
    func folderExists(_ wireName: String) throws -> Bool {
        var list: UnsafeMutablePointer<clist>?
        try perform("LIST") { mailimap_list($0, "", wireName, &list) }
        defer { mailimap_list_result_free(list) }
        return list.map { $0.pointee.count > 0 } ?? false
    }

    /// `STATUS wireName (attributes)`: the values the server gave, by attribute
    /// (`MAILIMAP_STATUS_ATT_...`); one it leaves out is absent.
    func status(_ wireName: String, _ attributes: [Int], failure: ((FailedCommand) -> MailError)? = nil) throws -> [Int: UInt32] {
        guard let list = mailimap_status_att_list_new_empty() else { throw MailError(.protocol, server: serverName, "out of memory") }
        defer { mailimap_status_att_list_free(list) }
        for attribute in attributes { mailimap_status_att_list_add(list, Int32(attribute)) }
        var data: UnsafeMutablePointer<mailimap_mailbox_data_status>?
        try perform("STATUS", failure: failure) { mailimap_status($0, wireName, list, &data) }
        defer { if let data { mailimap_mailbox_data_status_free(data) } }
        var values: [Int: UInt32] = [:]
        for info in CList.items(data?.pointee.st_info_list, as: mailimap_status_info.self) where values[Int(info.pointee.st_att)] == nil {
            values[Int(info.pointee.st_att)] = info.pointee.st_value
        }
        return values
    }
}
