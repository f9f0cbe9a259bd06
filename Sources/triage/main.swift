import Foundation
import TriageCore

// The only place that exits. Commands return an ExitStatus or throw a TriageError.

let context = Context(environment: ProcessInfo.processInfo.environment, now: Date())
var args = Array(CommandLine.arguments.dropFirst())

func usageText() -> String {
    var text = "usage: triage COMMAND [OPTIONS]\n\nCommands:\n"
    for command in CommandTable.all {
        text += "  " + command.name + String(repeating: " ", count: max(1, 10 - command.name.count)) + command.summary + "\n"
    }
    text += "\nRun 'triage COMMAND --help' for a command's options.\n"
    return text
}

guard let first = args.first else {
    context.err(usageText())
    exit(ExitStatus.usage.rawValue)
}
if first == "--help" || first == "-h" || first == "help" {
    context.out(usageText())
    exit(0)
}
if first == "--version" {
    context.out("triage \(TriageVersion.string)\n")
    exit(0)
}
guard let command = CommandTable.find(first) else {
    context.err("triage: unknown command '\(first)'\n\n" + usageText())
    exit(ExitStatus.usage.rawValue)
}
let rest = Array(args.dropFirst())
if rest.contains("--help") || rest.contains("-h") {
    context.out(command.help)
    exit(0)
}
do {
    let status = try command.run(rest, context: context)
    exit(status.rawValue)
} catch let error as TriageError {
    context.err("triage: \(error.message)\n")
    exit(error.exitStatus.rawValue)
} catch {
    context.err("triage: \(error)\n")
    exit(ExitStatus.software.rawValue)
}
