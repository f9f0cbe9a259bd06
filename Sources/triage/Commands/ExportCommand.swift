import Foundation
import TriageCore
import TriageICS

/// `triage export ics [--output FILE]`: the open reminders as iCalendar VTODOs.
enum ExportCommand: Command {
    static let name = "export"
    static let summary = "export open reminders as iCalendar (.ics)"
    static let help = """
    usage: triage export ics [--output FILE] [--config FILE]

    Writes the open reminders as an iCalendar file (RFC 5545) of VTODOs, for
    Apple Reminders, Thunderbird or Nextcloud Tasks. Each reminder keeps the same
    UID on every export, so importing again updates rather than duplicates.
    Reminders with a place carry GEO, LOCATION, Apple's structured location and a
    proximity alarm (arriving or leaving).

      --output FILE  write to FILE (mode 0600, replaced atomically) instead of standard output
      --config FILE  the configuration file (default $XDG_CONFIG_HOME/triage/triage.conf)

    """

    static func run(_ args: [String], context: Context) throws -> ExitStatus {
        let a = try Arguments(args, options: ["--output", "--config"], command: name)
        guard a.positional == ["ics"] else {
            throw SimpleError(.usage, "export: the only format is ics; usage: triage export ics [--output FILE]")
        }
        let access = try StoreAccess(configOption: a.value("--config"), context: context)
        let listing = access.store.openReminders()
        access.report(listing.problems, context)
        let text = ICSExporter.calendar(listing.records.sorted(by: RemindCommand.order), timeZone: access.timeZone, now: context.now)
        guard let output = a.value("--output") else {
            context.out(text)
            return .ok
        }
        try PrivateFile.write(Data(text.utf8), to: output)
        return .ok
    }
}
