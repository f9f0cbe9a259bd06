import Foundation
import TriageConfig
import TriageCore
import TriageMIME
import TriageMaildir

/// `triage test [--config FILE] [--now RFC3339] [--json] MESSAGE...`: shows what
/// the rules would do to messages, without doing it.
enum TestCommand: Command {
    static let name = "test"
    static let summary = "show which rules match messages and what they would do"
    static let help = """
    usage: triage test [--config FILE] [--now RFC3339] [--mailbox NAME] [--json] MESSAGE...

    Runs the rules on each message file ('-' reads standard input) and shows which
    rules matched, why (the terms that matched), the planned actions, and any
    action dropped because an earlier rule already planned it or a conflicting
    one (a second move). Nothing is changed anywhere.

      --config FILE   the configuration (default: $XDG_CONFIG_HOME/triage/triage.conf)
      --now TIME      evaluate as if it were TIME, e.g. 2026-03-02T09:00:00-06:00
      --mailbox NAME  evaluate as if the messages were in folder NAME (for in:)
      --json          one JSON object per message, one per line:
                      {"file", "message_id", "matched": [{"rule", "actions": [...]}]}

    """

    static func run(_ args: [String], context: Context) throws -> ExitStatus {
        let a = try Arguments(args, flags: ["--json"], options: ["--config", "--now", "--mailbox"], command: name)
        guard !a.positional.isEmpty else {
            throw SimpleError(.usage, "test: name at least one message file, or - for standard input")
        }
        var now = context.now
        if let text = a.value("--now") {
            guard let date = parseRFC3339(text) else {
                throw SimpleError(.usage, "test: --now needs an RFC 3339 time such as 2026-03-02T09:00:00-06:00, not '\(text)'")
            }
            now = date
        }
        let configuration = try ConfigLoader.load(path: context.configPath(a.value("--config")))
        let loaded = RulesFolder.load(configuration)
        guard let rules = loaded.rules else {
            context.err(loaded.rendered)
            return .config
        }
        if !loaded.diagnostics.isEmpty { context.err(loaded.rendered) }  // warnings
        let today = rules.today(at: now)
        var status = ExitStatus.ok
        for file in a.positional {
            let data: Data
            if file == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else if let contents = FileManager.default.contents(atPath: file) {
                data = contents
            } else {
                context.err("triage: test: cannot read \(file): \(FileManager.default.fileExists(atPath: file) ? "permission denied" : "no such file")\n")
                status = max(status, .noInput)
                continue
            }
            var message = MessageParser.parse([UInt8](data), keepingHeaders: rules.headerNames)
            message.server.mailbox = a.value("--mailbox")
            // A file in a Maildir carries its flags and keywords in its name: use them,
            // so `is:unread` and `label:` answer as they will in `triage run`.
            if file != "-", let facts = MaildirConnection.serverFacts(ofFile: file) {
                message.server.flags = facts.flags
                message.server.labels = facts.labels
            }
            let evaluation = RuleEvaluator.evaluate(message, rules: rules, now: now, explain: true)
            if a.has("--json") {
                context.out(RuleTestReport.json(file: file, message: message, evaluation: evaluation, today: today).serialized + "\n")
            } else {
                context.out(RuleTestReport.text(file: file, message: message, evaluation: evaluation))
            }
        }
        return status
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`.
    static func parseRFC3339(_ text: String) -> Date? {
        let chars = Array(text)
        guard chars.count >= 20, chars[4] == "-", chars[7] == "-", "Tt ".contains(chars[10]), chars[13] == ":", chars[16] == ":",
              let day = CivilDate(iso: String(chars[0..<10])),
              let hour = Int(String(chars[11..<13])), let minute = Int(String(chars[14..<16])),
              let second = Int(String(chars[17..<19])), hour < 24, minute < 60, second < 61 else { return nil }
        var i = 19
        if chars[i] == "." {
            i += 1
            while i < chars.count, chars[i].isASCII, chars[i].isNumber { i += 1 }
        }
        var offset = 0
        let zone = String(chars[i...])
        if zone == "Z" || zone == "z" {
            offset = 0
        } else {
            let z = Array(zone)
            guard z.count == 6, z[0] == "+" || z[0] == "-", z[3] == ":",
                  let h = Int(String(z[1...2])), let m = Int(String(z[4...5])), h < 24, m < 60 else { return nil }
            offset = (h * 3600 + m * 60) * (z[0] == "-" ? -1 : 1)
        }
        let instant = MessageDate(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute,
                                  second: second, utcOffsetSeconds: offset)
        return Date(timeIntervalSince1970: TimeInterval(instant.secondsSince1970))
    }
}
