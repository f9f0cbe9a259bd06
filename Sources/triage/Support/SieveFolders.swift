import TriageCore
import TriageIMAP

/// The folders `triage export sieve`'s script files mail into, which `triage run`
/// reads besides `mailboxes =`: mail filed at delivery still gets its rule's local
/// actions (queue, remind, digest, webhook); record identity keeps each single.
enum SieveFolders {
    /// Those of the account's script folders that `mailboxes =` lacks and that exist on
    /// the account (none on Gmail, which runs no Sieve). A LIST on IMAP, only when the
    /// rules file into some folder at all. `archive` is where `archive` goes on the account
    /// (`ArchiveFolder.target`), as `deploy sieve` wrote it into the script.
    /// Folders for which `known` says yes (a run read them before) are taken without
    /// the LIST; one gone since is skipped where its SELECT fails (`RunCommand`).
    static func extra(for account: AccountSection, rules: CompiledRules?, archive: ArchiveTarget?,
                      on connection: MailConnection, known: (String) -> Bool = { _ in false }) throws -> [String] {
        guard let rules, !((connection as? IMAPConnection)?.isGmail ?? false) else { return [] }
        var archiveFolder = account.archive ?? ArchiveFolder.maildirDefault
        if case .folder(let folder)? = archive { archiveFolder = folder }
        let folders = SieveExporter.export(rules, archiveFolder: archiveFolder).folders
        let named = Set(account.mailboxes.map { $0.uppercased() == "INBOX" ? "INBOX" : $0 })
        let wanted = folders.filter { !named.contains($0) }
        guard !wanted.isEmpty else { return [] }
        // The cron case: every folder was read before, so no LIST on each run.
        if wanted.allSatisfy(known) { return wanted }
        let missing = Set(try FolderNames.missing(wanted, existing: try FolderNames.existing(on: connection), on: connection).map(\.name))
        return wanted.filter { !missing.contains($0) }
    }
}
