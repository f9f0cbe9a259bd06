/// Every subcommand, in the order `triage --help` lists them: the cron job first,
/// then the commands for getting rules right, then the store's, then the tools.
enum CommandTable {
    static let all: [Command.Type] = [
        RunCommand.self,
        CheckCommand.self,
        TestCommand.self,
        QueueCommand.self,
        RemindCommand.self,
        DigestCommand.self,
        ExportCommand.self,
        InspectCommand.self,
    ]

    /// The command called `name`, if any.
    static func find(_ name: String) -> Command.Type? {
        all.first { $0.name == name }
    }
}
