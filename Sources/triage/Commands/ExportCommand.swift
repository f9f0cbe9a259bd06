import Foundation
import TriageApp
import TriageCore
import TriageICS

/// `triage export ics [--output FILE]`: the open reminders as iCalendar VTODOs;
/// `triage export sieve`: the rules a server can run at delivery (`SieveExporter`).
enum ExportCommand: Command {
    static let spec = CommandSpec(
        name: "export",
        summary: "export open reminders as iCalendar (.ics), or the rules as a Sieve script",
        usage: ["export ics [--output FILE] [--config FILE]",
                "export sieve [--output FILE] [--account NAME] [--config FILE]",
                "export gmail-filters [--output FILE] [--config FILE]"],
        about: """
        Writes the open reminders as an iCalendar file (RFC 5545) of VTODOs, for
        Apple Reminders, Thunderbird or Nextcloud Tasks. Each reminder keeps the same
        UID on every export, so importing again updates rather than duplicates.
        Reminders with a place carry GEO, LOCATION, Apple's structured location and a
        proximity alarm (arriving or leaving).

        export sieve writes the rules a mail server can evaluate at delivery exactly
        as triage does as one Sieve script (fileinto, imap4flags, variables), so
        mail they file never reaches the inbox (docs/no-push.md). Every rule or
        term left to triage is listed on standard error with the reason.

        export gmail-filters writes the same rules, as far as Gmail's filters can
        hold them, as the XML Gmail imports (Settings, Filters and blocked
        addresses, Import filters); what is left to triage is listed likewise.
        """,
        options: [
            .value("--output", "FILE", help: "write to FILE (mode 0600, replaced atomically) instead of standard output"),
            .value("--account", "NAME", help: "sieve: the account whose archive = folder archive files into (default: the first)"),
            .config,
        ])

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        if a.positional == ["sieve"] { return try sieve(a, context: context) }
        if a.positional == ["gmail-filters"] { return try gmailFilters(a, context: context) }
        guard a.positional == ["ics"] else {
            throw SimpleError(.usage, "export: the formats are ics, sieve and gmail-filters; usage: triage export ics [--output FILE], "
                              + "triage export sieve [--output FILE], triage export gmail-filters [--output FILE]")
        }
        if a.value("--account") != nil { throw SimpleError(.usage, "export ics: --account is for export sieve") }
        if let output = a.value("--output") { try FileArgument.checkWritableName(output) }
        let (setup, context) = try RunSetup.load(a, context: context)
        let listing = setup.store.openReminders()
        setup.report(listing.problems, context)
        let text = ICSExporter.calendar(listing.records.sorted(by: RemindCommand.order), timeZone: setup.timeZone, now: context.now)
        guard let output = a.value("--output") else {
            context.out(text)
            return .ok
        }
        try PrivateFile.write(Data(text.utf8), to: output)
        return .ok
    }

    /// `export sieve`: the script on standard output (or `--output`), what is left to
    /// triage on standard error.
    private static func sieve(_ a: Arguments, context: Context) throws -> ExitStatus {
        if let output = a.value("--output") { try FileArgument.checkWritableName(output) }
        let (setup, context) = try RunSetup.load(a, context: context, withRules: true)
        guard let rules = setup.rules else { return .config }
        var account = setup.config.accounts.first
        if let only = a.value("--account") {
            account = setup.config.accounts.first { $0.name == only }
            guard account != nil else { throw SimpleError(.usage, "export: no [account \(only)] in \(setup.config.path)") }
        }
        let result = sieveScript(rules, account: account, context: context)
        guard let output = a.value("--output") else {
            context.out(result.script)
            return .ok
        }
        try PrivateFile.write(Data(result.script.utf8), to: output)
        return .ok
    }

    /// The Sieve script of `rules` for `account` (its `archive =`), with what is left to
    /// triage and the folders `mailboxes =` lacks said on standard error.
    /// `archive` and `namespace` are the server's, when `deploy` asked it.
    static func sieveScript(_ rules: CompiledRules, account: AccountSection?, archive found: String? = nil,
                            namespace: FolderNamespace = .plain, context: Context) -> SieveExporter.Result {
        let archive = found ?? account?.archive ?? ArchiveFolder.maildirDefault
        let result = SieveExporter.export(rules, archiveFolder: archive, namespace: namespace)
        for (rule, reason) in result.leftToTriage {
            context.err("triage: export sieve: rule \(String(reflecting: rule.name)) (\(rule.path):\(rule.line)) left to triage: \(reason)\n")
        }
        if rules.rules.contains(where: { $0.actions.contains(.archive) }) {
            context.err("triage: export sieve: archive files into \(String(reflecting: archive))"
                        + (account?.archive == nil && found == nil ? " (set archive = FOLDER in the [account] section for another)" : "") + "\n")
        }
        let watched = Set(account?.mailboxes ?? ["INBOX"])
        for folder in result.folders where !watched.contains(folder) && !result.localActions.isEmpty {
            context.err("triage: export sieve: the script files mail into \(String(reflecting: folder)); once triage deploy sieve "
                        + "has put the script on the server, triage run reads that folder too (when it exists), so the rules' "
                        + "local actions (queue, remind, digest, webhook) still happen; a script installed another way: "
                        + "add the folder to mailboxes =\n")
        }
        return result
    }

    /// `export gmail-filters`: Gmail's filter XML on standard output (or `--output`).
    private static func gmailFilters(_ a: Arguments, context: Context) throws -> ExitStatus {
        if let output = a.value("--output") { try FileArgument.checkWritableName(output) }
        if a.value("--account") != nil { throw SimpleError(.usage, "export gmail-filters: --account is for export sieve") }
        let (setup, context) = try RunSetup.load(a, context: context, withRules: true)
        guard let rules = setup.rules else { return .config }
        let stamp = ISO8601DateFormatter().string(from: context.now)
        let result = GmailFilterExporter.export(rules, updated: stamp)
        for (rule, reason) in result.leftToTriage {
            context.err("triage: export gmail-filters: rule \(String(reflecting: rule.name)) (\(rule.path):\(rule.line)) left to triage: \(reason)\n")
        }
        guard let output = a.value("--output") else {
            context.out(result.xml)
            return .ok
        }
        try PrivateFile.write(Data(result.xml.utf8), to: output)
        return .ok
    }
}
