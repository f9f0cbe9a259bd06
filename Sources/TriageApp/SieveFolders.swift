import TriageCore
import TriageIMAP

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
        guard let deployment, !((connection as? IMAPConnection)?.isGmail ?? false) else { return [] }
        let named = Set(account.mailboxes.map { $0.uppercased() == "INBOX" ? "INBOX" : $0 })
        let wanted = deployment.folders.filter { !named.contains($0) }
        guard !wanted.isEmpty else { return [] }
        // The cron case: every folder was read before, so no LIST on each run.
        if wanted.allSatisfy(known) { return wanted }
        let missing = Set(try FolderNames.missing(wanted, existing: try FolderNames.existing(on: connection), on: connection).map(\.name))
        return wanted.filter { !missing.contains($0) }
    }

    /// The folders the script of `rules` files into, as the rules name them (what
    /// `deploy sieve` records); `archive` is the folder `archive` files into.
    package static func folders(of rules: CompiledRules, archive: String) -> [String] {
        SieveExporter.export(rules, archiveFolder: archive).folders
    }
}
