import Foundation
import TriageApp
import TriageConfig
import TriageCore

/// `triage check [--config FILE]`: validates the configuration and every rule file.
enum CheckCommand: Command {
    static let spec = CommandSpec(
        name: "check",
        summary: "validate the configuration and every rule file",
        usage: ["check [--connect] [--config FILE]"],
        about: """
        Reads the configuration and every *.rules file of its rules folder, and looks at
        who may write the store's folders (as every command that opens it does). Prints
        nothing and exits 0 when all is well; otherwise prints every problem to
        standard error, each with its file, line and column, and exits 78 (66 when
        the configuration file is missing, unreadable or a directory). Warnings (a
        query that may not mean what it looks like) are printed too, and alone leave
        the exit status 0 (so does a reminder due on a day already past).
        """,
        options: [
            .flag("--connect", help: """
                also log in to each account (TLS verified), list its folders and show what \
                each folder of `mailboxes =` and of the move actions is called on the server \
                (`Lists/dev` is `INBOX.Lists.dev` on Courier); a folder that does not exist \
                there (with a close match: did you mean) or a label the server cannot take \
                as a keyword is a problem (78); and log in to each CalDAV server ([caldav NAME]), \
                list its task lists and say which list each reminder and queue goes to
                """),
            .config,
        ])

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        try a.expectNoPositional()
        let configuration: Configuration
        do {
            configuration = try RunSetup.configuration(a.value("--config"), context: context)
        } catch let error as ConfigError {
            context.err(error.problems.map { $0.rendered + "\n" }.joined())
            return error.exitStatus  // 66 when the file is missing or unreadable, as in every command
        }
        // Today, so that a reminder due on a day already past is a warning.
        let today = Timestamp.day(of: context.now, in: configuration.triage.timeZone ?? TimeZone.current)
        // A ca_file that cannot be read fails only when a run connects: say so now.
        let fileProblems = TrustFileCheck.problems(configuration) + CalDAVCheck.problems(configuration)
        if !fileProblems.isEmpty { context.err(fileProblems.map { $0.rendered + "\n" }.joined()) }
        // A store others may write is refused by every command that opens it: say so before cron finds out.
        let storePath = configuration.triage.store ?? context.defaultStorePath()
        let storeProblem = FileTrust.storeProblem(Store(path: storePath, timeZone: configuration.triage.timeZone ?? TimeZone.current))
        if let storeProblem { context.err("triage: \(storeProblem)\n") }
        // A reply to the digest that lands where triage does not read it is never obeyed.
        if let warning = DigestReplyAddress.warning(configuration) {
            context.err("triage: \(configuration.path): warning: \(warning)\n")
        }
        // SMTP settings with sendmail or file: are not used; whoever set them thinks they are.
        if let warning = DigestIgnoredKeys.warning(configuration) {
            context.err("triage: \(configuration.path): warning: \(warning)\n")
        }
        let loaded = RulesFolder.load(configuration, today: today)
        // Warnings (a rule that may not mean what it says) are shown; only errors fail.
        if !loaded.diagnostics.isEmpty { context.err(loaded.rendered) }
        for warning in CalDAVCheck.warnings(configuration, rules: loaded.rules) {
            context.err("triage: \(configuration.path): warning: \(warning)\n")
        }
        if loaded.hasErrors || !fileProblems.isEmpty || storeProblem != nil { return .config }
        guard a.has("--connect") else { return .ok }
        let mail = try connect(configuration, rules: loaded.rules, context: context)
        return max(mail, CalDAVCheck.connect(configuration, context: context))
    }

    /// Whether a run narrows by the server's SEARCH, for `check --connect`: said as
    /// what it means for the user (what is downloaded), the IMAP search in parentheses.
    private static func narrowingLine(_ narrowing: ServerNarrowing, account: AccountSection, on connection: MailConnection) -> String {
        guard let key = narrowing.key else { return "a run downloads every new message: " + (narrowing.reason ?? "") }
        if let refusal = account.serverSearch.refusal(capabilities: connection.serverCapabilities) {
            return "a run downloads every new message: " + refusal
        }
        return "a run with many new messages (100 or more) first asks \(connection.serverName) which of them can match "
            + "a rule, by their addresses, and downloads only those (UID SEARCH \(key.imap)"
            + (account.serverSearch == .auto ? "); only once a test search shows the server finds parts of addresses, "
                + "as most do (server_search = auto)" : "; server_search = substring)")
    }

    /// Logs in to each account, lists its folders and shows each named folder's name
    /// on the server; a missing folder (with a close match) or a label the server
    /// cannot take as a keyword is a configuration problem, a failed connection its
    /// own exit status.
    private static func connect(_ configuration: Configuration, rules: CompiledRules?, context: Context) throws -> ExitStatus {
        var worst = ExitStatus.ok
        for account in configuration.accounts {
            do {
                let connection = try AccountSession.connect(account, credential: nil, context: context, verbose: false)
                defer { connection.close() }
                try FolderNames.checkImportant(rules, on: connection)
                let server = connection.serverName
                let existing = try FolderNames.existing(on: connection)
                if let existing {
                    // Quoted with control characters escaped: the names are the server's.
                    context.out("\(account.name): folders on \(server): \(existing.map { String(reflecting: $0) }.joined(separator: ", "))\n")
                }
                let names = FolderNames.named(mailboxes: account.mailboxes, rules: rules)
                for pair in try FolderNames.resolved(names, on: connection) {
                    context.out(FolderNames.line(account: account.name, pair, server: server) + "\n")
                }
                let missing = try FolderNames.missing(names, existing: existing, on: connection)
                for folder in missing {
                    context.err("triage: account \(account.name): \(try FolderNames.missingLine(folder, on: connection)); create it or fix the rule\n")
                    worst = max(worst, .config)
                }
                // Archive: where it goes (Gmail: the \Inbox label), and that the folder is there.
                if ArchiveFolder.used(by: rules) {
                    switch try ArchiveFolder.target(for: account, on: connection, create: false) {
                    case nil:
                        context.err("triage: account \(account.name): \(ArchiveFolder.missingLine(account: account, server: server))\n")
                        worst = max(worst, .config)
                    case .removeInboxLabel?:
                        context.out("\(account.name): archive removes the \\Inbox label on \(server) (Gmail)\n")
                    case .folder(let folder)?:
                        context.out("\(account.name): archive moves to \(String(reflecting: folder)) on \(server)\n")
                        // A Maildir's default Archive is made by the first run that archives.
                        let madeByRun = connection.traits.makesArchiveFolder && account.archive == nil
                        if !madeByRun, !names.contains(folder) {
                            for gone in try FolderNames.missing([folder], existing: existing, on: connection) {
                                context.err("triage: account \(account.name): \(try FolderNames.missingLine(gone, on: connection)); "
                                            + "create it or fix archive = in [account \(account.name)]\n")
                                worst = max(worst, .config)
                            }
                        }
                    }
                }
                // in:Sent (issue 29): which folder a run reads for it, and that it is there.
                if rules?.readsSent ?? false {
                    if let sent = try AccountSession.sentFolder(account, on: connection) {
                        context.out("\(account.name): in:Sent reads \(String(reflecting: sent)) on \(server)\n")
                        for gone in try FolderNames.missing([sent], existing: existing, on: connection) {
                            context.err("triage: account \(account.name): \(try FolderNames.missingLine(gone, on: connection)); "
                                        + "create it or fix sent = in [account \(account.name)]\n")
                            worst = max(worst, .config)
                        }
                    } else {
                        context.err("triage: account \(account.name): a rule reads in:Sent, but \(server) marks no folder \\Sent "
                                    + "(SPECIAL-USE), has none named " + AccountSession.sentNames.joined(separator: ", ")
                                    + ", and [account \(account.name)] sets no sent = FOLDER: set sent = FOLDER\n")
                        worst = max(worst, .config)
                    }
                }
                // Narrowing on the server (issue 14): what a run asks the server's SEARCH, or why not.
                if let rules, connection.canSearch {
                    context.out("\(account.name): \(narrowingLine(ServerNarrowing.plan(rules), account: account, on: connection))\n")
                }
                // Labels: a server whose PERMANENTFLAGS lack \* takes no new keywords. Only SELECT
                // says so (EXAMINE's PERMANENTFLAGS are empty); SELECT changes no message.
                // (A Maildir takes any keyword: nothing to ask.)
                let labels = connection.traits.takesAnyKeyword ? [] : FolderNames.literalLabels(rules)
                for mailbox in account.mailboxes where !labels.isEmpty && !missing.contains(where: { $0.name == mailbox }) {
                    guard let allowed = try connection.open(mailbox, readOnly: false).allowedKeywords else { continue }
                    for label in labels where !allowed.contains(where: { LabelCodec.same(LabelCodec.label(for: $0), label) }) {
                        context.err("triage: account \(account.name): label \(String(reflecting: label)) cannot be a keyword in "
                                    + "\(String(reflecting: mailbox)) on \(server): the server takes no new keywords there "
                                    + "(PERMANENTFLAGS without \\*); create the keyword with another client or remove the action\n")
                        worst = max(worst, .config)
                    }
                }
            } catch let error as TriageError {
                context.err("triage: account \(account.name): \(error.message)\n")
                worst = max(worst, error.exitStatus)
            }
        }
        return worst
    }
}
