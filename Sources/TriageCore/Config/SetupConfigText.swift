/// The triage.conf `triage init` writes from checked `SetupAnswers`: one account,
/// the shipped rules in `rules/` beside it, and a digest.
///
/// Every value but the password command is written as one quoted string
/// (triage.conf(5), "Quoting": `\"` and `\\` escaped), so a `;`, `#` or quote in a
/// value stays in it; control characters, which no quoting can hold, were refused
/// by `SetupAnswers.problems` and are replaced by spaces here all the same, so no
/// value can ever add a line. The password command is written as typed (the shell
/// does its quoting; `SetupAnswers.commandProblem` refused what would cut it).
public enum SetupConfigText {
    /// The account's name in the file.
    public static let accountName = "mail"

    /// The folder of rule files, beside the configuration.
    public static let rulesFolder = "rules"

    /// The file's text.
    public static func render(_ answers: SetupAnswers) -> String {
        let provider = MailProvider.of(imapURL: answers.url)
        var lines = [
            "; triage configuration, written by triage init. Every key: man triage.conf.",
            "; It must stay yours and writable by you alone (chmod 600), like the rule files.",
            "; A value in double quotes is the text inside (\\\" and \\\\ escape).",
            "",
            "[triage]",
            "me = " + quoted(answers.me) + "                 ; who `me` is in rules; more: comma separated",
            "rules = " + rulesFolder + "                 ; the folder of *.rules files beside this file (man triage-rules)",
            "; timezone = Europe/Berlin       ; for dates and the digest hour; default: the system's",
            "; quiet_failures = 1h            ; say a temporary failure only once it lasted 1h (cron)",
            "",
            "[account \(accountName)]",
            "url = " + quoted(answers.url),
        ]
        if !answers.isMaildir {
            lines.append("user = " + quoted(answers.user ?? answers.me))
            if let note = provider?.passwordNote { lines.append("; " + plain(note)) }
            if let command = answers.passwordCommand {
                lines.append("password_command = " + plain(command) + "   ; its standard output is the password")
            } else {
                lines.append("; password_command = pass show mail/personal   ; its standard output is the password: set it")
            }
        }
        lines += [
            "; mailboxes = INBOX              ; comma separated; default INBOX",
            "",
            "[digest]",
            "to = " + quoted(answers.digestTo),
            "from = " + quoted(answers.me),
            "hour = \(answers.hour)                        ; the local hour from which the day's digest is due",
            "smtp = " + quoted(answers.smtp) + smtpComment(answers.smtp),
        ]
        if answers.smtp.hasPrefix("smtps://") || answers.smtp.hasPrefix("smtp://") {
            lines.append("user = " + quoted(answers.user ?? answers.me))
            if let command = answers.passwordCommand {
                lines.append("password_command = " + plain(command))
            } else {
                lines.append("; password_command = pass show mail/personal   ; set it")
            }
        }
        lines += [
            "send_empty = no                 ; no digest on a day with nothing in it",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    /// `text` as one quoted string: `"` and `\` escaped, controls made spaces.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for c in plain(text) {
            if c == "\"" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out + "\""
    }

    /// `text` with every control character a space: never a second line.
    static func plain(_ text: String) -> String {
        ControlCharacters.replaced(in: text, keepingLineBreaks: false)
    }

    private static func smtpComment(_ smtp: String) -> String {
        if smtp == "sendmail" || smtp.hasPrefix("sendmail:") { return "   ; through this machine's mail system" }
        if smtp.hasPrefix("file:") {
            return "   ; each digest as an .eml file there; to mail it: smtps://HOST with user and password_command"
        }
        return ""
    }
}
