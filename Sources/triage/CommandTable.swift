import TriageCore

/// Every subcommand, in the order `triage --help` lists them: the set-up first, the
/// cron job next, then the commands for getting rules right, then the store's, then the tools.
enum CommandTable {
    static let all: [Command.Type] = [
        InitCommand.self,
        RunCommand.self,
        StatusCommand.self,
        WatchCommand.self,
        CheckCommand.self,
        TestCommand.self,
        SuggestCommand.self,
        QueueCommand.self,
        RemindCommand.self,
        SnoozeCommand.self,
        DigestCommand.self,
        UnsubscribeCommand.self,
        SyncCommand.self,
        ExportCommand.self,
        DeployCommand.self,
        InspectCommand.self,
    ]

    /// The command called `name`, if any.
    static func find(_ name: String) -> Command.Type? {
        all.first { $0.spec.name == name }
    }

    /// `triage --help`: every command with its summary.
    static var usage: String {
        var text = "usage: triage COMMAND [OPTIONS]\n       triage help COMMAND\n\nCommands:\n"
        for command in all {
            let name = command.spec.name
            text += "  " + name + String(repeating: " ", count: max(1, 10 - name.count)) + command.spec.summary + "\n"
        }
        return text + "\nRun 'triage COMMAND --help' or 'triage help COMMAND' for a command's options.\n"
    }

    /// What the words after `triage` ask for, before anything runs.
    enum Request {
        /// Print `text` to standard output and exit 0.
        case print(String)
        /// Run `command` with `arguments`.
        case run(Command.Type, [String])
    }

    /// Reads the command word (and `help`, `--help`, `--version`); a usage error
    /// (64) for none, an unknown one, or `help` with anything but one command.
    static func request(_ args: [String]) throws -> Request {
        guard let first = args.first else { throw SimpleError(.usage, "no command given\n\n" + usage) }
        let rest = Array(args.dropFirst())
        switch first {
        case "--help", "-h":
            return .print(usage)
        case "--version":
            return .print("triage \(TriageVersion.string)\n")
        case CompletionListing.spec.name:
            // Hidden (not in `all`): the shell completions' listing of words.
            return .run(CompletionListing.self, rest)
        case "help":
            guard let name = rest.first else { return .print(usage) }
            guard rest.count == 1 else { throw SimpleError(.usage, "help: name one command, as in triage help run") }
            return .print(try command(name).spec.help)
        default:
            let command = try command(first)
            return Arguments.asksForHelp(rest, spec: command.spec) ? .print(command.spec.help) : .run(command, rest)
        }
    }

    private static func command(_ name: String) throws -> Command.Type {
        guard let command = find(name) else { throw SimpleError(.usage, "unknown command '\(name)'\n\n" + usage) }
        return command
    }
}
