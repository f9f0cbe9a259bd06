import Foundation
import TriageApp
import TriageCore

/// `triage init`: writes a working triage.conf and the shipped rules, from
/// questions on a terminal or from options, never over an existing file; then
/// checks them and says the next three steps.
enum InitCommand: Command {
    static let spec = CommandSpec(
        name: "init",
        summary: "write a first configuration and the shipped rules, then check them",
        usage: ["init [--me ADDR --url URL] [--user U] [--password-command CMD] [--digest-to ADDR] [--hour H] "
            + "[--smtp URL] [--config FILE]"],
        about: """
        Writes the configuration (mode 0600) and copies the shipped rule files
        (PREFIX/share/triage/Rules where triage is installed; the source tree's Rules/
        when run from a build) into the folder rules/ beside it, then runs triage check
        (which also logs in when it can: a Maildir, or a password command) and prints
        the next steps. On a terminal, unless --me and --url are both given, it asks
        for what the options do not give:
        your address, the IMAP server (the well-known server of Gmail, Fastmail,
        iCloud, Outlook and Yahoo addresses, or imaps://imap.DOMAIN), the user, the
        command that prints the password (pass, secret-tool, 1Password's op, Bitwarden's
        bw), where the digest goes and from what hour. Without a terminal it takes them
        as options: --me and --url are required.

        It never overwrites: when the configuration file exists it writes nothing and
        exits 73; a rule file that exists is left as it is (and said).
        """,
        options: [
            .value("--me", "ADDR", help: "your address (me in rules; the digest's from)"),
            .value("--url", "URL", help: "where the mail is: imaps://HOST[:PORT], imap://HOST[:PORT] (STARTTLS), "
                + "or maildir:PATH (a relative PATH is taken from the current folder)"),
            .value("--user", "U", help: "the IMAP login (default: the address; iCloud: the part before @)"),
            .value("--password-command", "CMD", help: "a command that prints the password, as in 'pass show mail' "
                + "(default: none yet; set password_command later)"),
            .value("--digest-to", "ADDR", help: "where the daily digest goes (default: --me)"),
            .value("--hour", "H", help: "the local hour (0-23) from which the day's digest is due (default 7)"),
            .value("--smtp", "URL", help: "how the digest is sent: smtps://HOST, smtp://HOST (STARTTLS), sendmail or file:DIR "
                + "(default: the provider's server when known and a password command is given, else sendmail when "
                + "/usr/sbin/sendmail exists, else file: the folder outbox of the store)"),
            .value("--config", "FILE", help: "the configuration to write (default: $XDG_CONFIG_HOME/triage/triage.conf, "
                + "else ~/.config/triage/triage.conf); the rules go in the folder rules/ beside it"),
        ],
        notes: """
        Exit status: 0 when the files are written and check passed; 73 when the
        configuration file already exists (nothing written) or cannot be written; 64
        for a value that is not valid (nothing written) or, with no terminal, a missing
        --me or --url; otherwise check's status (78, 75, 77: the files are written,
        fix what it says).
        """)

    /// The hour the digest is due from, unless told.
    static let defaultHour = 7

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        try a.expectNoPositional()
        let named = context.configPath(a.value("--config"))
        // With no HOME the default path starts with a literal ~ (Context.standard): nowhere to write.
        if named.hasPrefix("~") {
            throw SimpleError(.usage, "init: HOME is not set, so there is no default configuration path; give --config FILE")
        }
        let path = absolute(named)
        let folder = (path as NSString).deletingLastPathComponent
        var info = stat()
        if lstat(path, &info) == 0 {
            context.err("triage: init: \(path) already exists: left as it is, nothing written; "
                        + "'triage check' validates it (move it away to start over)\n")
            return .cantCreate
        }
        var hour: Int?
        if let text = a.value("--hour") {
            guard let value = SetupAnswers.hour(text) else {
                throw SimpleError(.usage, "init: --hour \(String(reflecting: text)) is not an hour of the day; give 0 to 23")
            }
            hour = value
        }
        let answers: SetupAnswers
        if let me = a.value("--me"), let url = a.value("--url") {
            answers = given(a, me: me, url: url, hour: hour, context: context)
        } else if Prompter.standardInputIsTerminal {
            answers = try asked(a, hour: hour, path: path, context: context)
        } else {
            let missing = ["--me", "--url"].filter { a.value($0) == nil }
            throw SimpleError(.usage, "init: \(missing.joined(separator: " and ")) missing, and no terminal to ask on; "
                              + "give them: triage init --me ADDR --url imaps://HOST (or maildir:PATH); see 'triage init --help'")
        }
        var problems = answers.problems
        // A Maildir that is not there would be written into the file and only found by check:
        // said now, so a typo costs no second init (which would find the file and stop).
        if problems.isEmpty, answers.isMaildir, case let folder = String(answers.url.dropFirst(8)), folder.hasPrefix("/") {
            var isFolder: ObjCBool = false
            if !FileManager.default.fileExists(atPath: folder + "/cur", isDirectory: &isFolder) || !isFolder.boolValue {
                problems.append("--url: \(folder) is not a Maildir (it has no cur/ folder); give the folder that holds cur/, new/ and tmp/")
            }
        }
        guard problems.isEmpty else {
            throw SimpleError(.usage, "init: nothing written:\n" + problems.map { "  " + $0 }.joined(separator: "\n"))
        }
        guard let executable = ShippedFiles.executable(), let shipped = ShippedFiles.root(executable: executable) else {
            throw SimpleError(.noInput, "init: the shipped rules are not where they belong (PREFIX/share/triage/Rules beside "
                              + "PREFIX/bin/triage); install triage with scripts/install; nothing written")
        }
        let rules = ShippedFiles.rules(in: shipped)
        try write(answers, to: path, folder: folder, rules: rules, context: context)

        let canConnect = answers.isMaildir || answers.passwordCommand != nil
        let configArgument = a.value("--config") == nil ? "" : " --config " + shellQuoted(path)
        context.out("\nChecking: triage check\(canConnect ? " --connect" : "")\(configArgument)\n")
        let check = try checked(path: path, connect: canConnect, context: context)
        if check != .ok {
            context.err("triage: init: the files are written, but check found the problems above; "
                        + "fix them in \(path) and run 'triage check\(canConnect ? " --connect" : "")\(configArgument)'\n")
        }
        if !answers.isMaildir && answers.passwordCommand == nil {
            context.out("\nFirst set password_command in \(path) (a command that prints the password), "
                        + "then run 'triage check --connect\(configArgument)'.\n")
        }
        context.out(nextSteps(answers, configArgument: configArgument, executable: executable))
        return check
    }

    /// The answers from the options (with their defaults).
    private static func given(_ a: Arguments, me: String, url: String, hour: Int?, context: Context) -> SetupAnswers {
        let url = absoluteMaildir(url)
        let provider = MailProvider.of(imapURL: url)
        let user = url.hasPrefix("maildir:") ? nil : a.value("--user") ?? provider?.user(for: me) ?? me
        let command = a.value("--password-command")
        return SetupAnswers(me: me, url: url, user: user, passwordCommand: command, digestTo: a.value("--digest-to") ?? me,
                            hour: hour ?? defaultHour,
                            smtp: a.value("--smtp") ?? defaultSMTP(provider: provider, passwordCommand: command, context: context))
    }

    /// The answers from questions on the terminal, for what the options left out.
    private static func asked(_ a: Arguments, hour: Int?, path: String, context: Context) throws -> SetupAnswers {
        let prompt = Prompter(context: context)
        prompt.say("triage init writes \(path) and the shipped rules beside it; Enter takes the [default].")
        let me = try a.value("--me") ?? prompt.ask("Your email address") { answer in
            SetupAnswers.addressProblem(answer).map { .failure(.init($0)) } ?? .success(answer)
        }
        let url: String
        if let given = a.value("--url") {
            url = absoluteMaildir(given)
        } else {
            let choices = MailProvider.imapChoices(for: me)
            prompt.say("Where is your mail? The IMAP server (imaps://HOST over TLS, imap://HOST with STARTTLS), or a local maildir:PATH:")
            for (i, choice) in choices.enumerated() {
                let name = MailProvider.of(imapURL: choice).map { " (\($0.name))" } ?? ""
                prompt.say("  \(i + 1)) \(choice)\(name)")
            }
            url = try prompt.ask("Number or URL", default: "1") { answer in
                if let n = Int(answer), n >= 1, n <= choices.count { return .success(choices[n - 1]) }
                let typed = absoluteMaildir(answer)
                return SetupAnswers.urlProblem(typed).map { .failure(.init($0)) } ?? .success(typed)
            }
        }
        let provider = MailProvider.of(imapURL: url)
        var user: String?
        var command = a.value("--password-command")
        if !url.hasPrefix("maildir:") {
            if let note = provider?.passwordNote { prompt.say("Note: " + note + ".") }
            user = try a.value("--user") ?? prompt.ask("User name", default: provider?.user(for: me) ?? me) { answer in
                SetupAnswers.textProblem(answer, what: "the user name").map { .failure(.init($0)) } ?? .success(answer)
            }
            if command == nil {
                prompt.say("""
                    How does triage get the password? A command that prints it (password_command), for example:
                      pass:          pass show mail/personal
                      GNOME Keyring: secret-tool lookup service triage user \(me)
                                     (store it first: secret-tool store --label=triage service triage user \(me))
                      1Password:     op read op://Personal/Mail/password
                      Bitwarden:     bw get password mail   (with BW_SESSION set: bw unlock)
                    """)
                command = try prompt.ask("Password command (Enter: set it later)", default: nil) { answer -> Result<String?, Prompter.AnswerProblem> in
                    if answer.isEmpty { return .success(nil) }
                    return SetupAnswers.commandProblem(answer).map { .failure(.init($0)) } ?? .success(answer)
                }
            }
        }
        let digestTo = try a.value("--digest-to") ?? prompt.ask("Send the daily digest to", default: me) { answer in
            SetupAnswers.addressProblem(answer).map { .failure(.init($0)) } ?? .success(answer)
        }
        let digestHour = try hour ?? prompt.ask("From what hour of the day (0-23)", default: String(defaultHour)) { answer in
            SetupAnswers.hour(answer).map { .success($0) } ?? .failure(.init("\(String(reflecting: answer)) is not an hour; give 0 to 23"))
        }
        let fallback = defaultSMTP(provider: provider, passwordCommand: command, context: context)
        let smtp = try a.value("--smtp") ?? prompt.ask("Send it how (smtps://HOST, smtp://HOST, sendmail or file:DIR)", default: fallback) { answer in
            SetupAnswers.smtpProblem(answer).map { .failure(.init($0)) } ?? .success(answer)
        }
        return SetupAnswers(me: me, url: url, user: user, passwordCommand: command, digestTo: digestTo, hour: digestHour, smtp: smtp)
    }

    /// How the digest is sent unless told: the provider's SMTP server when it is known
    /// and there is a password to log in with, else this machine's sendmail when it
    /// has one, else `.eml` files in the store's folder `outbox` (works anywhere).
    private static func defaultSMTP(provider: MailProvider?, passwordCommand: String?, context: Context) -> String {
        if let provider, passwordCommand != nil { return provider.smtp }
        if FileManager.default.isExecutableFile(atPath: DeliveryEndpoint.defaultSendmail) { return "sendmail" }
        return "file:" + context.defaultStorePath() + "/outbox"
    }

    /// Writes the configuration and copies the rules, neither over an existing file.
    private static func write(_ answers: SetupAnswers, to path: String, folder: String, rules: [String], context: Context) throws {
        let rulesFolder = folder + "/" + SetupConfigText.rulesFolder
        do {
            try FileManager.default.createDirectory(atPath: rulesFolder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw SimpleError(.cantCreate, "init: cannot make the folder \(rulesFolder): \(error.localizedDescription); nothing written")
        }
        guard try PrivateFile.create(Data(SetupConfigText.render(answers).utf8), at: path) else {
            throw SimpleError(.cantCreate, "init: \(path) appeared while init ran: left as it is, nothing written")
        }
        context.out("Wrote \(path)\n")
        for rule in rules {
            let target = rulesFolder + "/" + (rule as NSString).lastPathComponent
            guard let data = FileManager.default.contents(atPath: rule) else {
                throw SimpleError(.noInput, "init: cannot read the shipped rule file \(rule)")
            }
            if try PrivateFile.create(data, at: target) {
                context.out("Wrote \(target) (the shipped rules; man triage-rules)\n")
            } else {
                context.out("Left \(target) as it is: it exists\n")
            }
        }
    }

    /// Runs `triage check` (with `--connect`) on the new file.
    private static func checked(path: String, connect: Bool, context: Context) throws -> ExitStatus {
        let args = ["--config", path] + (connect ? ["--connect"] : [])
        do {
            let status = try CheckCommand.run(try Arguments(args, spec: CheckCommand.spec), context: context)
            if status == .ok { context.out("check: all is well\n") }
            return status
        } catch let error as TriageError {
            context.err("triage: \(error.message)\n")
            return error.exitStatus
        }
    }

    /// The next three steps: the first run, cron, the digest.
    private static func nextSteps(_ answers: SetupAnswers, configArgument: String, executable: String) -> String {
        let triage = executable.hasSuffix("/triage") ? shellQuoted(executable) : "triage"
        return """

            Next:
              1. triage run --all\(configArgument)
                 once: the rules act on the mail already there (a first plain 'triage run' leaves it alone)
              2. crontab -e, and add the line
                 */10 * * * * SWIFT_BACKTRACE=enable=no \(triage) run\(configArgument)
                 new mail every 10 minutes; triage is silent unless something fails, so cron mails only problems
              3. triage digest --preview\(configArgument)
                 the digest as it would be sent, due daily from \(answers.hour):00 to \(answers.digestTo) (\(delivery(answers.smtp)))

            """
    }

    private static func delivery(_ smtp: String) -> String {
        if smtp.hasPrefix("file:") { return "written as an .eml file into \(smtp.dropFirst(5)); smtp = in [digest] mails it instead" }
        if smtp == "sendmail" || smtp.hasPrefix("sendmail:") { return "through this machine's sendmail" }
        return "over \(smtp)"
    }

    /// `path` made absolute against the current folder.
    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// `maildir:PATH` with a relative PATH made absolute (a URL otherwise unchanged).
    private static func absoluteMaildir(_ url: String) -> String {
        guard url.hasPrefix("maildir:") else { return url }
        let path = String(url.dropFirst(8))
        if path.isEmpty || path.hasPrefix("/") || path.hasPrefix("~/") { return url }
        return "maildir:" + ((FileManager.default.currentDirectoryPath + "/" + path) as NSString).standardizingPath
    }

    /// `text` for a shell: as is when plain, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let plain = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+:=@,".contains($0)) }
        return plain && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
