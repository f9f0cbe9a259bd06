import CShims
import Foundation
import TriageApp
import TriageCore

// The only place that exits. Commands return an ExitStatus or throw a TriageError.

// Before any thread: the run's fetch thread shares the main malloc arena (CShims.h says why).
triage_single_malloc_arena()
// The one read of the environment: the default paths and the test hooks (`TestHooks`).
let context = Context.standard(environment: ProcessInfo.processInfo.environment, now: Date())
do {
    switch try CommandTable.request(Array(CommandLine.arguments.dropFirst())) {
    case .print(let text):
        context.out(text)
        exit(0)
    case .run(let command, let args):
        let status = try command.run(Arguments(args, spec: command.spec), context: context)
        exit(status.rawValue)
    }
} catch let error as TriageError {
    context.err("triage: \(error.message)\n")
    exit(error.exitStatus.rawValue)
} catch {
    context.err("triage: \(error)\n")
    exit(ExitStatus.software.rawValue)
}
