import TriageCore

/// The folders a Sieve script that `triage deploy sieve` put on the server files mail
/// into (`SieveDeployment`), which `triage run` reads besides `mailboxes =`: mail filed at
/// delivery still gets its rule's local actions (queue, remind, digest, webhook); record
/// identity keeps each single. Without a deployment, none: a message triage moved there
/// itself is not read again.
package enum SieveFolders {
    /// Those of `deployment`'s folders that `mailboxes =` lacks and that exist on the
    /// account (none on Gmail, which runs no Sieve). Folders for which `known` says yes
    /// (a run read them before) are taken without a LIST; one gone since is skipped
    /// where its SELECT fails (`RunCommand`).
    package static func extra(for account: AccountSection, deployment: SieveDeployment?, on connection: MailConnection,
                      known: (String) -> Bool = { _ in false }) throws -> [String] {
        guard let deployment, !connection.traits.isGmail else { return [] }
        let named = Set(account.mailboxes.map { $0.uppercased() == "INBOX" ? "INBOX" : $0 })
        let wanted = deployment.folders.filter { !named.contains($0) }
        guard !wanted.isEmpty else { return [] }
        // The cron case: every folder was read before, so no LIST on each run.
        if wanted.allSatisfy(known) { return wanted }
        let missing = Set(try FolderNames.missing(wanted, existing: try FolderNames.existing(on: connection), on: connection).map(\.name))
        return wanted.filter { !missing.contains($0) }
    }

    /// Where the first run of each of `folders` that has no run state yet starts (call
    /// before the script is uploaded, so nothing it files is before that point): where
    /// the folder ends now (UIDNEXT), so the mail the script files into it from now on is
    /// read, and what was there before is left alone as on any first run. A folder not
    /// there yet gets UIDVALIDITY 0: all it will hold arrives after the deployment.
    package static func starts(_ folders: [String], account: String, store: String, on connection: MailConnection,
                       deployed: Timestamp) throws -> [String: MailboxState] {
        var states: [String: MailboxState] = [:]
        for folder in folders where try MailboxState.load(store: store, account: account, mailbox: folder) == nil {
            let status: MailboxStatus
            do {
                status = try connection.open(folder, readOnly: true)
            } catch let error as MailError where error.kind == .missingFolder {
                states[folder] = MailboxState(uidValidity: 0, lastUID: 0, lastRun: deployed)
                continue
            }
            let last = status.uidNext > 0 ? status.uidNext - 1 : try connection.uids(above: 0).max() ?? 0
            states[folder] = MailboxState(uidValidity: status.uidValidity, lastUID: last, lastRun: deployed)
        }
        return states
    }

    /// The folders the script of `rules` files into, as the rules name them (what
    /// `deploy sieve` records); `archive` is the folder `archive` files into.
    package static func folders(of rules: CompiledRules, archive: String) -> [String] {
        SieveExporter.export(rules, archiveFolder: archive).folders
    }
}
