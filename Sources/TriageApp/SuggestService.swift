import Foundation
import TriageConfig
import TriageCore

/// `triage suggest` between the adapters and the command line: reads the history of
/// each account (`HistoryCollector`), then asks `RuleSuggester` with the current rules.
package enum SuggestService {
    /// What one `triage suggest` found.
    package struct Outcome {
        package var report: SuggestionReport
        /// The accounts read.
        package var accounts: [String]
    }

    /// Reads `accounts` (connecting to each; a failing account stops the command, as
    /// its mail is part of what the suggestions promise not to touch) and analyses the
    /// `days` before `context.now`. `rules` are the current rules (nil: none yet).
    package static func suggest(accounts: [AccountSection], setup: RunSetup, rules: CompiledRules?, days: Int, all: Bool,
                                context: Context) throws -> Outcome {
        let now = context.now
        let since = Int64(now.timeIntervalSince1970) - Int64(days) * 86_400
        var messages: [HistoryMessage] = []
        var systemFolders = Set<String>()
        var identities: [String] = []
        for account in accounts {
            let connection: MailConnection
            let collected: HistoryCollector.Collected
            do {
                connection = try AccountSession.connect(account, credential: nil, context: context, verbose: false)
                collected = try HistoryCollector.collect(account, on: connection, since: since, keep: rules?.headerNames ?? [],
                                                         fields: rules?.neededHeaderFields ?? [])
            } catch let error as TriageError {
                // Not skipped: the rules act on every account, so its answered and flagged mail
                // and its people are part of what the suggestions must leave alone.
                let others = accounts.count > 1 ? ", or learn from another with --account NAME" : ""
                throw SimpleError(error.exitStatus, "suggest: account \(account.name): \(error.message); nothing was suggested, "
                                  + "as the rules act on this account's mail too: fix it\(others)")
            }
            defer { connection.close() }
            if collected.sent == nil {
                context.err("triage: account \(account.name): no Sent folder (no \\Sent folder on \(connection.serverName), none named "
                    + AccountSession.sentNames.joined(separator: ", ") + ", and no sent = FOLDER in [account \(account.name)]): whom you write to is known only from the mail you answered\n")
            }
            for folder in collected.unreadable {
                context.err("triage: account \(account.name): folder \(String(reflecting: folder.name)) was not read: \(folder.reason)\n")
            }
            messages += collected.messages
            systemFolders.formUnion(collected.systemFolders)
            if let user = account.user, user.contains("@") { identities.append(user) }
        }
        // Lists unsubscribed from that still send (issue 28): each gets a rule archiving it.
        let unsubscribes = setup.store.unsubscribesStillSending()
        setup.report(unsubscribes.problems, context)
        let names = Set(accounts.map(\.name))
        let stillSending = unsubscribes.records.filter { $0.message.account.map(names.contains) ?? true }
        let history = MailHistory(messages: messages, days: days, now: now, identities: identities, systemFolders: systemFolders,
                                  unsubscribes: stillSending)
        let environment = rules?.environment ?? RulesFolder.environment(for: setup.config)
        let suggester = RuleSuggester(environment: environment, current: rules, includeCovered: all)
        return Outcome(report: suggester.suggest(history), accounts: accounts.map(\.name))
    }
}
