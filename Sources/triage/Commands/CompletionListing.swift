import Foundation
import TriageApp
import TriageCore

/// `triage --complete WHAT`: the words the shell completions (completions/) offer,
/// one per line. Hidden from `--help`: it is for the completion scripts, which
/// ask it at completion time so that they follow the command tables, the
/// configuration and the store instead of copying them.
///
/// - `commands`: every command, and `help`
/// - `options COMMAND`: every option name of that command (nothing for an unknown one)
/// - `sections`: the section headers of the configuration (`account personal`)
/// - `accounts`: the account names (for `--account`)
/// - `queues`: the queues that have open entries
/// - `ids queue|remind [open|done]`: the short ids of the open (or done) records
/// - `ids unsubscribe`: the short ids of the digest entries that offer an unsubscribe not yet done
/// - `ids snooze`: the short ids of the snoozed messages
///
/// It never writes and never takes the store lock. Names that hold control
/// characters are left out, so nothing odd reaches the terminal.
enum CompletionListing: Command {
    static let spec = CommandSpec(
        name: "--complete",
        summary: "list words for shell completion",
        usage: ["--complete commands | options COMMAND | sections | accounts | queues | ids queue|remind [open|done] "
            + "| ids unsubscribe | ids snooze [--config FILE]"],
        about: "Lists, one per line, the words the shell completions offer.",
        options: [.config])

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        let words = a.positional
        var lines: [String]
        switch (words.first, words.count) {
        case ("commands", 1):
            // Closures, not key paths: a key path through the `Command.Type` existential crashes swiftc 6.3's SILGen.
            lines = CommandTable.all.map { $0.spec.name } + ["help"]
        case ("options", 2):
            let spec = CommandTable.find(words[1]).map { $0.spec }
            lines = spec?.allOptions.flatMap { $0.names } ?? []
        case ("sections", 1):
            let config = try RunSetup.configuration(a.value("--config"), context: context)
            lines = ["triage"] + config.accounts.map { "account " + $0.name }
                + config.places.compactMap { $0.title.map { "place " + $0 } } + (config.digest == nil ? [] : ["digest"])
        case ("accounts", 1):
            lines = try RunSetup.configuration(a.value("--config"), context: context).accounts.map(\.name)
        case ("queues", 1):
            let (setup, _) = try RunSetup.load(a, context: context)
            lines = Array(Set(setup.store.openQueueEntries().records.map(\.queue))).sorted()
        case ("ids", 2) where words[1] == "unsubscribe":
            let (setup, _) = try RunSetup.load(a, context: context)
            let index = setup.store.shortIDs(DigestEntry.self)
            let done = Set(setup.store.allIDs(UnsubscribeRecord.self))
            lines = setup.store.digestEntries().records
                .filter { $0.message.unsubscribe != nil && !done.contains($0.id) && $0.section != MailboxRunner.problemsSection }
                .sorted { $0.created.secondsSince1970 > $1.created.secondsSince1970 }.map { index.short($0.id) }
        case ("ids", 2), ("ids", 3):
            let status = words.count == 3 ? WorkStatus(rawValue: words[2]) : .open
            guard let status, status != .removed else { throw usage }
            let (setup, _) = try RunSetup.load(a, context: context)
            switch words[1] {
            case "queue":
                let index = setup.store.shortIDs(QueueEntry.self)
                lines = QueueCommand.sorted(setup.store.queueEntries([status]).records).map { index.short($0.id) }
            case "remind":
                let index = setup.store.shortIDs(Reminder.self)
                lines = setup.store.reminders([status]).records.sorted(by: RemindCommand.order).map { index.short($0.id) }
            case "snooze":
                // Only what is still snoozed can be woken.
                guard status == .open else { throw usage }
                let index = setup.store.shortIDs(SnoozeRecord.self)
                lines = setup.store.records(SnoozeRecord.self, in: [SnoozeRecord.activeFolder]).records
                    .sorted { ($0.wake.secondsSince1970, $0.id) < ($1.wake.secondsSince1970, $1.id) }.map { index.short($0.id) }
            default: throw usage
            }
        default:
            throw usage
        }
        lines = lines.filter { line in !line.unicodeScalars.contains { $0.properties.generalCategory == .control } }
        context.out(lines.map { $0 + "\n" }.joined())
        return .ok
    }

    private static var usage: SimpleError {
        SimpleError(.usage, "--complete: usage: triage " + spec.usage[0])
    }
}
