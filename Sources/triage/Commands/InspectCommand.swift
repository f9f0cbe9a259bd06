import Foundation
import TriageApp
import TriageCore
import TriageMIME

/// `triage inspect [--json] FILE...`: shows what triage reads from messages.
enum InspectCommand: Command {
    static let spec = CommandSpec(
        name: "inspect",
        summary: "show what triage reads from message files",
        usage: ["inspect [--json] FILE..."],
        about: """
        Parses each message file (RFC 5322 / MIME; '-' reads standard input) and
        prints what triage sees: addresses, subject, date, ids, attachments, snippet.

        A file that cannot be read (missing, unreadable, a directory) is reported on
        standard error and skipped; the other files are still shown, and the exit
        status is then 66.
        """,
        options: [
            .flag("--json", help: "one JSON object per message, one per line, with the keys from, to, cc, bcc, "
                + "reply_to, subject, date, message_id, in_reply_to, list_id, delivered_to, attachments, snippet, size"),
        ])

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        guard !a.positional.isEmpty else {
            throw SimpleError(.usage, "inspect: name at least one message file, or - for standard input")
        }
        var status = ExitStatus.ok
        var first = true
        for path in a.positional {
            let bytes: [UInt8]
            do {
                bytes = [UInt8](try FileArgument.read(path))
            } catch let error as SimpleError {
                context.err("triage: \(error.message)\n")
                status = max(status, error.exitStatus)
                continue
            }
            let message = MessageParser.parse(bytes)
            if a.has("--json") {
                context.out(MessageJSON.object(message).serialized + "\n")
            } else {
                context.out((first ? "" : "\n") + summary(message, source: path == "-" ? "(standard input)" : path))
            }
            first = false
        }
        return status
    }

    /// A readable, aligned summary of one message.
    static func summary(_ m: Message, source: String) -> String {
        var lines = ["\(source)"]
        func add(_ label: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            lines.append("  " + label + String(repeating: " ", count: max(1, 14 - label.count)) + value)
        }
        func list(_ addresses: [Address]) -> String { addresses.map(\.displayString).joined(separator: ", ") }
        add("From:", list(m.from))
        add("To:", list(m.to))
        add("Cc:", list(m.cc))
        add("Bcc:", list(m.bcc))
        add("Reply-To:", list(m.replyTo))
        add("Subject:", m.subject ?? "(none)")
        add("Date:", m.date?.rfc3339 ?? "(none or unreadable)")
        add("Message-ID:", m.messageID ?? "(none; header hash \(m.headerHash.prefix(16)))")
        add("In-Reply-To:", m.inReplyTo)
        add("List-Id:", m.listID)
        add("Delivered-To:", m.deliveredTo.joined(separator: ", "))
        add("Attachments:", m.attachments.joined(separator: ", "))
        add("Size:", "\(m.size) bytes")
        add("Snippet:", m.snippet)
        return lines.joined(separator: "\n") + "\n"
    }
}
