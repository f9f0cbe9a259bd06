import Foundation
import TriageCore
import TriageICS

/// `triage export ics [--output FILE]`: the open reminders as iCalendar VTODOs.
enum ExportCommand: Command {
    static let spec = CommandSpec(
        name: "export",
        summary: "export open reminders as iCalendar (.ics)",
        usage: ["export ics [--output FILE] [--config FILE]"],
        about: """
        Writes the open reminders as an iCalendar file (RFC 5545) of VTODOs, for
        Apple Reminders, Thunderbird or Nextcloud Tasks. Each reminder keeps the same
        UID on every export, so importing again updates rather than duplicates.
        Reminders with a place carry GEO, LOCATION, Apple's structured location and a
        proximity alarm (arriving or leaving).
        """,
        options: [
            .value("--output", "FILE", help: "write to FILE (mode 0600, replaced atomically) instead of standard output"),
            .config,
        ])

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        guard a.positional == ["ics"] else {
            throw SimpleError(.usage, "export: the only format is ics; usage: triage export ics [--output FILE]")
        }
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
}
