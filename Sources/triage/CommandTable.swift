/// Every subcommand, in the order `triage --help` lists them.
enum CommandTable {
    static let all: [Command.Type] = [
        InspectCommand.self,
        CheckCommand.self,
        TestCommand.self,
        RunCommand.self,
        QueueCommand.self,
        RemindCommand.self,
        ExportCommand.self,
        DigestCommand.self,
    ]

    /// The command called `name`, if any.
    static func find(_ name: String) -> Command.Type? {
        all.first { $0.name == name }
    }
}
