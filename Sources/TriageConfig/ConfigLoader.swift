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
                : "no configuration file; run 'triage init' to write one, or pass --config FILE")],
                exitStatus: .noInput)
        }
        if let problem = FileTrust.problem(file.info, path: path, what: "the configuration file",
                                           consequence: "whoever can change it can make triage run commands as you") {
            throw ConfigError([ConfigProblem(path: path, line: 0, message: problem)])
        }
        return try parse(String(decoding: file.data, as: UTF8.self), path: path, fileIsPrivate: file.info.st_mode & 0o077 == 0)
    }

    /// Parses configuration text; `path` names it in messages and anchors relative paths.
    ///
    /// Every value is parsed here, once, into its type (`AccountEndpoint`,
    /// `DeliveryEndpoint`, `TimeZone`, seconds): the commands never re-read the text.
    public static func parse(_ text: String, path: String, fileIsPrivate: Bool = true) throws -> Configuration {
        let ini = INIReader.read(text)
        var values = ConfigValues(path: path, fileIsPrivate: fileIsPrivate)
        if let line = ini.errorLine { values.problem(line, "this line is not 'key = value' or '[section]'") }

        var triage = TriageSection(rules: values.resolve("Rules"))
        var sawTriage = false
        // Each account with the keys it was given (for the required ones).
        var accounts: [(section: AccountSection, keys: Set<String>)] = []
        var digest: (section: DigestSection, keys: Set<String>, line: Int)?
        var places: [(place: Place, keys: Set<String>, line: Int)] = []
        var caldavs: [(section: CalDAVSection, keys: Set<String>)] = []

        for section in ini.sections {
            let words = section.name.split(separator: " ", maxSplits: 1).map(String.init)
            switch words.first?.lowercased() {
            case "triage" where words.count == 1: sawTriage = true
            case "digest" where words.count == 1:
                // Placeholders until the keys are read; a missing required key is a problem, so they never escape.
                digest = (DigestSection(to: "", from: "", smtp: .directory(path: "")), [], section.line)
            case "account" where words.count == 2:
                let name = words[1].trimmingWhitespace
                if accounts.contains(where: { $0.section.name == name }) { values.problem(section.line, "account '\(name)' is defined twice") }
                var account = AccountSection(name: name, endpoint: .maildir(path: ""))
                account.line = section.line
                accounts.append((account, []))
            case "account": values.problem(section.line, "an account section needs a name: [account NAME]")
            case "place" where words.count == 2:
                let name = words[1].trimmingWhitespace
                if places.contains(where: { $0.place.title?.lowercased() == name.lowercased() }) {
                    values.problem(section.line, "place '\(name)' is defined twice")
                }
                places.append((Place(latitude: 0, longitude: 0, radiusMeters: SectionKeys.defaultPlaceRadius, title: name), [], section.line))
            case "place": values.problem(section.line, "a place section needs a name: [place NAME], as in [place Office]")
            case "caldav" where words.count == 2:
                let name = words[1].trimmingWhitespace
                if caldavs.contains(where: { $0.section.name == name }) { values.problem(section.line, "caldav '\(name)' is defined twice") }
                if name.isEmpty || !name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) {
                    values.problem(section.line, "a caldav section's name is letters, digits, - and _ (it names a file), not '\(name)'")
                }
                var caldav = CalDAVSection(name: name, url: "")
                caldav.line = section.line
                caldavs.append((caldav, []))
            case "caldav": values.problem(section.line, "a caldav section needs a name: [caldav NAME], as in [caldav phone]")
            default: values.problem(section.line, "unknown section [\(section.name)]; known: [triage], [account NAME], [digest], [place NAME], [caldav NAME]")
            }
        }

        for e in ini.entries {
            let words = e.section.split(separator: " ", maxSplits: 1).map(String.init)
            switch words.first?.lowercased() {
            case "triage" where words.count == 1:
                ConfigKey.read(e, into: &triage, by: SectionKeys.triage, in: &values)
            case "account" where words.count == 2:
                guard let index = accounts.lastIndex(where: { $0.section.name == words[1].trimmingWhitespace }) else { continue }
                if ConfigKey.read(e, into: &accounts[index].section, by: SectionKeys.account, in: &values) {
                    accounts[index].keys.insert(e.key)
                }
            case "digest" where words.count == 1:
                guard digest != nil else { continue }
                if ConfigKey.read(e, into: &digest!.section, by: SectionKeys.digest, in: &values) { digest!.keys.insert(e.key) }
            case "place" where words.count == 2:
                let name = words[1].trimmingWhitespace
                guard let index = places.lastIndex(where: { $0.place.title == name }) else { continue }
                if ConfigKey.read(e, into: &places[index].place, by: SectionKeys.place, in: &values) { places[index].keys.insert(e.key) }
            case "caldav" where words.count == 2:
                guard let index = caldavs.lastIndex(where: { $0.section.name == words[1].trimmingWhitespace }) else { continue }
                if e.key.hasPrefix("queue."), e.key.count > 6 {
                    // `queue.rec = LIST NAME`: the queue's own list, quoted like any value.
                    switch QuotedValue.read(e) {
                    case .value(let list):
                        if list.isEmpty { values.problem(e.line, "\(e.key) needs a list name") }
                        caldavs[index].section.queueLists[String(e.key.dropFirst(6))] = list
                    case .problem(let message):
                        values.problem(e.line, message)
                    }
                    continue
                }
                if ConfigKey.read(e, into: &caldavs[index].section, by: SectionKeys.caldav, in: &values) {
                    caldavs[index].keys.insert(e.key)
                }
            default: break  // the section itself was reported
            }
        }
        for caldav in caldavs where !caldav.keys.contains("url") {
            values.problem(caldav.section.line, "[caldav \(caldav.section.name)] needs a url (https://HOST of the CalDAV server)")
        }
        for place in places where !place.keys.contains("at") {
            values.problem(place.line, "[place \(place.place.title ?? "")] needs 'at = LAT,LON', as in at = 38.9717,-95.2353")
        }

        for account in accounts where !account.keys.contains("url") {
            values.problem(account.section.line, "[account \(account.section.name)] needs a url (imaps://HOST, imap://HOST or maildir:PATH)")
        }
        if let digest {
            for key in SectionKeys.digestRequired where !digest.keys.contains(key) {
                values.problem(digest.line, "[digest] needs '\(key)'")
            }
        }
        // `tls = off` in [digest]: plain SMTP, as for IMAP only to this machine.
        if let digest, digest.section.tlsOff {
            switch digest.section.smtp {
            case .smtp(let host, _) where MailServerURL.isLoopback(host: host):
                break
            case .smtp(let host, _):
                values.problem(digest.line, "[digest] tls = off is only allowed for a loopback host (localhost, 127.0.0.1, ::1), "
                    + "not \(host): triage never sends mail in clear text over the network; remove tls = off")
            default:
                values.problem(digest.line, "[digest] tls = off goes only with smtp://localhost (plain SMTP to this machine); remove it")
            }
        }
        if !sawTriage { values.problem(0, "no [triage] section; it says who 'me' is and where the rules are") }

        guard values.problems.isEmpty else {
            throw ConfigError(values.problems.sorted { $0.line < $1.line })
        }
        var configuration = Configuration(path: path, triage: triage, accounts: accounts.map(\.section), digest: digest?.section)
        configuration.places = places.map(\.place)
        configuration.caldav = caldavs.map(\.section)
        return configuration
    }
}
