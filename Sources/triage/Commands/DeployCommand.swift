import Foundation
import TriageApp
import TriageConfig
import TriageCore
import TriageIMAP

/// `triage deploy sieve`: uploads `triage export sieve`'s script over ManageSieve
/// (RFC 5804) as the script `triage`, with the account's TLS check and credentials.
enum DeployCommand: Command {
    /// The script's name on the server.
    static let scriptName = "triage"

    static let spec = CommandSpec(
        name: "deploy",
        summary: "upload the rules Sieve can run at delivery to the server (ManageSieve)",
        usage: ["deploy sieve [--account NAME] [--activate] [--config FILE]"],
        about: """
        Uploads the script `triage export sieve` writes to the account's server over
        ManageSieve (STARTTLS, the certificate verified as for IMAP, the account's
        user and password), as the script named triage. Other scripts are left as
        they are. With --activate it becomes the active script; without, when
        another script is active, triage says how to include its script there.
        """,
        options: [
            .value("--account", "NAME", help: "the IMAP account (default: the first one)"),
            .flag("--activate", help: "make the triage script the active one"),
            .config,
        ],
        notes: """
        The ManageSieve port is sieve_port in the [account] section (default 4190).
        Exit status: 0 uploaded; 64 usage error; 75 server unreachable or TLS
        refused; 77 login refused; 78 rule errors, or the server refused the script.
        """)

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        guard a.positional == ["sieve"] else {
            throw SimpleError(.usage, "deploy: the only target is sieve; usage: triage deploy sieve [--account NAME] [--activate]")
        }
        let (setup, context) = try RunSetup.load(a, context: context, withRules: true)
        guard let rules = setup.rules else { return .config }
        let accounts = setup.config.accounts.filter { account in
            if case .imap = account.endpoint { return true }
            return false
        }
        let account: AccountSection
        if let only = a.value("--account") {
            guard let named = setup.config.accounts.first(where: { $0.name == only }) else {
                throw SimpleError(.usage, "deploy: no [account \(only)] in \(setup.config.path)")
            }
            account = named
        } else if let first = accounts.first {
            account = first
        } else {
            throw SimpleError(.usage, "deploy: \(setup.config.path) has no IMAP account; Sieve runs on a mail server")
        }
        guard case .imap(let url) = account.endpoint else {
            throw SimpleError(.usage, "deploy: [account \(account.name)] is a Maildir; Sieve runs on a mail server")
        }
        let credential = try AccountSession.credential(for: account)
        // The server's own names: its archive folder (as `run` finds it) and its namespace.
        let imap = try AccountSession.connect(account, credential: .success(credential), context: context, verbose: false)
        defer { imap.close() }
        if imap.traits.isGmail {
            throw SimpleError(.config, "deploy: \(imap.serverName) is Gmail, which runs no Sieve; use triage export gmail-filters")
        }
        var archive: String?
        if ArchiveFolder.used(by: rules) {
            guard case .folder(let folder)? = try ArchiveFolder.target(for: account, on: imap, create: false) else {
                throw SimpleError(.config, "deploy: account \(account.name): \(ArchiveFolder.missingLine(account: account, server: imap.serverName))")
            }
            archive = folder
        }
        let namespace = try FolderNames.namespace(for: "Archive", on: imap)
        let script = ExportCommand.sieveScript(rules, account: account, archive: archive, namespace: namespace, context: context).script
        // Where each folder the script files into ends before the script can file
        // anything: the first run of such a folder starts there (SieveFolders.starts).
        let deployed = Timestamp(context.now, timeZone: setup.timeZone)
        let folders = SieveFolders.folders(of: rules, archive: archive ?? account.archive ?? ArchiveFolder.maildirDefault)
        let starts = try SieveFolders.starts(folders, account: account.name, store: setup.store.root, on: imap, deployed: deployed)
        let connection = try ManageSieveConnection.connect(host: url.host, port: account.sievePort ?? 4190, credential: credential,
                                                           caFile: account.caFile, timeout: account.timeout ?? 30)
        defer { connection.close() }
        try connection.putScript(scriptName, content: script)
        // From now on `run` reads the folders the script files into (SieveFolders).
        let deployment = SieveDeployment(folders: folders, deployed: deployed)
        try LockWait.holding(setup.store, context: context) {
            try deployment.save(store: setup.store.root, account: account.name)
            // A run since the measure keeps its own state.
            for (folder, start) in starts where try MailboxState.load(store: setup.store.root, account: account.name, mailbox: folder) == nil {
                try start.save(store: setup.store.root, account: account.name, mailbox: folder)
            }
        }
        if a.has("--activate") { try connection.setActive(scriptName) }
        let scripts = try connection.scripts()
        let active = scripts.first { $0.active }?.name
        let server = connection.serverName
        if active == scriptName {
            context.out("\(account.name): script \"\(scriptName)\" uploaded to \(server) and active\n")
        } else if let active {
            context.out("\(account.name): script \"\(scriptName)\" uploaded to \(server); the active script is "
                        + "\(String(reflecting: active)), left as it is\n")
            context.err("triage: deploy: to run triage's rules at delivery, add to \(String(reflecting: active)): "
                        + "require \"include\"; include :personal \"\(scriptName)\"; (or use --activate to make "
                        + "\"\(scriptName)\" the active script instead of it)\n")
        } else {
            context.out("\(account.name): script \"\(scriptName)\" uploaded to \(server); no script is active\n")
            context.err("triage: deploy: nothing runs at delivery until a script is active: run again with --activate\n")
        }
        return .ok
    }
}
