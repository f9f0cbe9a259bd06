import Foundation
import TriageCore

/// Reads and validates `triage.conf`.
///
/// Unknown sections or keys, missing required values and bad values are all
/// reported together, each as `path:line: error: message`.
public enum ConfigLoader {
    /// Loads the file at `path`. Throws `ConfigError` (exit 66 when unreadable, else 78).
    ///
    /// The file (the one a symlink points to) must be the user's or root's and not
    /// writable by group or others (`FileTrust`): it names commands triage runs.
    public static func load(path: String) throws -> Configuration {
        guard let file = FileTrust.read(path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw ConfigError([ConfigProblem(path: path, line: 0, message: exists
                ? "cannot read the configuration file; check its permissions"
                : "no configuration file; create one (see Examples/demo/triage.conf) or pass --config FILE")],
                exitStatus: .noInput)
        }
        if let problem = FileTrust.problem(file.info, path: path, what: "the configuration file",
                                           consequence: "whoever can change it can make triage run commands as you") {
            throw ConfigError([ConfigProblem(path: path, line: 0, message: problem)])
        }
        return try parse(String(decoding: file.data, as: UTF8.self), path: path, fileIsPrivate: file.info.st_mode & 0o077 == 0)
    }

    /// Parses configuration text; `path` names it in messages and anchors relative paths.
    public static func parse(_ text: String, path: String, fileIsPrivate: Bool = true) throws -> Configuration {
        let ini = INIReader.read(text)
        var problems: [ConfigProblem] = []
        func problem(_ line: Int, _ message: String) { problems.append(ConfigProblem(path: path, line: line, message: message)) }
        if let line = ini.errorLine { problem(line, "this line is not 'key = value' or '[section]'") }

        let folder = (path as NSString).deletingLastPathComponent
        func resolve(_ p: String) -> String {
            let expanded = (p as NSString).expandingTildeInPath
            let joined = expanded.hasPrefix("/") ? expanded : ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent(expanded)
            // Absolute and without `..`, so messages show a path people recognise.
            let absolute = joined.hasPrefix("/") ? joined : FileManager.default.currentDirectoryPath + "/" + joined
            return (absolute as NSString).standardizingPath
        }
        func list(_ v: String) -> [String] { v.split(separator: ",").map { String($0).trimmingWhitespace }.filter { !$0.isEmpty } }
        func bool(_ e: INIEntry) -> Bool? {
            switch e.value.lowercased() {
            case "yes", "true", "on", "1": return true
            case "no", "false", "off", "0": return false
            default: problem(e.line, "'\(e.key)' must be yes or no, not '\(e.value)'"); return nil
            }
        }

        func commandTimeout(_ e: INIEntry) -> Int? {
            guard let seconds = Int(e.value), (1...3600).contains(seconds) else {
                problem(e.line, "command_timeout must be a whole number of seconds from 1 to 3600, not '\(e.value)'")
                return nil
            }
            return seconds
        }

        var triage = TriageSection(rules: resolve("Rules"))
        var sawTriage = false
        var accounts: [AccountSection] = []
        var digest: DigestSection?
        var digestLine = 0
        var digestValues: [String: INIEntry] = [:]

        for section in ini.sections {
            let words = section.name.split(separator: " ", maxSplits: 1).map(String.init)
            switch words.first?.lowercased() {
            case "triage" where words.count == 1: sawTriage = true
            case "digest" where words.count == 1: digestLine = section.line
            case "account" where words.count == 2:
                let name = words[1].trimmingWhitespace
                if accounts.contains(where: { $0.name == name }) { problem(section.line, "account '\(name)' is defined twice") }
                var account = AccountSection(name: name, url: "")
                account.line = section.line
                accounts.append(account)
            case "account": problem(section.line, "an account section needs a name: [account NAME]")
            default: problem(section.line, "unknown section [\(section.name)]; known: [triage], [account NAME], [digest]")
            }
        }

        for e in ini.entries {
            let words = e.section.split(separator: " ", maxSplits: 1).map(String.init)
            switch words.first?.lowercased() {
            case "triage" where words.count == 1:
                switch e.key {
                case "me": triage.me = list(e.value)
                case "rules":
                    triage.ruleFolders = list(e.value).map(resolve)
                    if triage.ruleFolders.isEmpty { problem(e.line, "rules is empty; name a folder of *.rules files") }
                    triage.rulesLine = e.line
                case "store": triage.store = resolve(e.value)
                case "timezone":
                    if TimeZone(identifier: e.value) == nil { problem(e.line, "unknown time zone '\(e.value)'; use an IANA name such as Europe/Berlin") }
                    triage.timezone = e.value
                case "webhook_budget", "webhook_timeout":
                    if let seconds = Int(e.value), (1...3600).contains(seconds) {
                        if e.key == "webhook_budget" { triage.webhookBudget = seconds } else { triage.webhookTimeout = seconds }
                    } else {
                        problem(e.line, "\(e.key) must be a whole number of seconds from 1 to 3600, not '\(e.value)'")
                    }
                default: problem(e.line, "unknown key '\(e.key)' in [triage]; known: me, rules, store, timezone, webhook_budget, webhook_timeout")
                }
            case "account" where words.count == 2:
                guard let index = accounts.lastIndex(where: { $0.name == words[1].trimmingWhitespace }) else { continue }
                switch e.key {
                case "url":
                    accounts[index].url = e.value
                    if e.value.hasPrefix("maildir:") {
                        accounts[index].url = "maildir:" + resolve(String(e.value.dropFirst(8)))
                    } else if !(e.value.hasPrefix("imaps://") || e.value.hasPrefix("imap://")) {
                        problem(e.line, "url must start with imaps://, imap:// or maildir:, not '\(e.value)'")
                    }
                case "user": accounts[index].user = e.value
                case "password_command": accounts[index].passwordCommand = e.value
                case "password":
                    if !fileIsPrivate { problem(e.line, "a password in the configuration needs the file to be private; run: chmod 600 \(path)") }
                    accounts[index].password = e.value
                case "oauth2_token_command": accounts[index].oauth2TokenCommand = e.value
                case "mailboxes":
                    accounts[index].mailboxes = list(e.value)
                    if accounts[index].mailboxes.isEmpty { problem(e.line, "mailboxes is empty; leave it out for INBOX") }
                case "ca_file": accounts[index].caFile = resolve(e.value)
                case "tls": accounts[index].tlsOff = bool(e) == false
                case "timeout":
                    if let seconds = Int(e.value), (1...3600).contains(seconds) { accounts[index].timeout = seconds } else {
                        problem(e.line, "timeout must be a whole number of seconds from 1 to 3600, not '\(e.value)'")
                    }
                case "command_timeout": accounts[index].commandTimeout = commandTimeout(e)
                default: problem(e.line, "unknown key '\(e.key)' in [\(e.section)]; known: url, user, password_command, password, oauth2_token_command, mailboxes, ca_file, tls, timeout, command_timeout")
                }
            case "digest" where words.count == 1:
                let known = ["to", "from", "hour", "smtp", "user", "password_command", "password", "ca_file", "send_empty", "command_timeout"]
                if known.contains(e.key) { digestValues[e.key] = e } else {
                    problem(e.line, "unknown key '\(e.key)' in [digest]; known: \(known.joined(separator: ", "))")
                }
            default: break  // the section itself was reported
            }
        }

        for account in accounts where account.url.isEmpty {
            problem(account.line, "[account \(account.name)] needs a url (imaps://HOST, imap://HOST or maildir:PATH)")
        }
        if digestLine > 0 {
            let to = digestValues["to"], from = digestValues["from"], smtp = digestValues["smtp"]
            for (key, value) in [("to", to), ("from", from), ("smtp", smtp)] where value == nil {
                problem(digestLine, "[digest] needs '\(key)'")
            }
            var d = DigestSection(to: to?.value ?? "", from: from?.value ?? "", smtp: smtp?.value ?? "")
            if let s = smtp, !(s.value.hasPrefix("smtps://") || s.value.hasPrefix("smtp://") || s.value.hasPrefix("file:")) {
                problem(s.line, "smtp must start with smtps://, smtp:// or file:, not '\(s.value)'")
            }
            if let s = smtp, s.value.hasPrefix("file:") { d.smtp = "file:" + resolve(String(s.value.dropFirst(5))) }
            if let h = digestValues["hour"] {
                if let hour = Int(h.value), (0...23).contains(hour) { d.hour = hour } else { problem(h.line, "hour must be a whole number from 0 to 23, not '\(h.value)'") }
            }
            d.user = digestValues["user"]?.value
            d.passwordCommand = digestValues["password_command"]?.value
            if let p = digestValues["password"] {
                if !fileIsPrivate { problem(p.line, "a password in the configuration needs the file to be private; run: chmod 600 \(path)") }
                d.password = p.value
            }
            d.caFile = digestValues["ca_file"].map { resolve($0.value) }
            if let e = digestValues["send_empty"] { d.sendEmpty = bool(e) ?? false }
            if let e = digestValues["command_timeout"] { d.commandTimeout = commandTimeout(e) }
            digest = d
        }
        if !sawTriage { problem(0, "no [triage] section; it says who 'me' is and where the rules are") }

        guard problems.isEmpty else {
            throw ConfigError(problems.sorted { $0.line < $1.line })
        }
        return Configuration(path: path, triage: triage, accounts: accounts, digest: digest)
    }
}
