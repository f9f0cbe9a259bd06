import Foundation
import TriageCore

/// The keys of each section: what the loader reads, and what an unknown key's
/// message lists.
enum SectionKeys {
    /// `[triage]`.
    static let triage: [ConfigKey<TriageSection>] = [
        ConfigKey("me") { s, e, v in s.me = v.list(e.value) },
        ConfigKey("rules") { s, e, v in
            s.ruleFolders = v.list(e.value).map(v.resolve)
            if s.ruleFolders.isEmpty { v.problem(e.line, "rules is empty; name a folder of *.rules files") }
            s.rulesLine = e.line
        },
        ConfigKey("store") { s, e, v in s.store = v.resolve(e.value) },
        ConfigKey("timezone") { s, e, v in
            guard let zone = TimeZone(identifier: e.value) else {
                return v.problem(e.line, "unknown time zone '\(e.value)'; use an IANA name such as Europe/Berlin")
            }
            s.timeZone = zone
        },
        ConfigKey("webhook_budget") { s, e, v in s.webhookBudget = v.seconds(e) },
        ConfigKey("webhook_timeout") { s, e, v in s.webhookTimeout = v.seconds(e) },
        ConfigKey("quiet_failures") { s, e, v in
            guard let parsed = QuietFailures.parse(e.value) else {
                return v.problem(e.line, "quiet_failures must be off or a duration such as 30m, 1h or 1d (at most 30d), not '\(e.value)'")
            }
            s.quietFailures = parsed
        },
        // `triage watch` (docs/watch.md).
        ConfigKey("poll_interval") { s, e, v in s.pollInterval = v.seconds(e) },
        ConfigKey("idle_interval") { s, e, v in s.idleInterval = v.number(e, 5...1740, "seconds") },
    ]

    /// `[account NAME]`.
    static let account: [ConfigKey<AccountSection>] = [
        ConfigKey("url") { s, e, v in
            if e.value.hasPrefix("maildir:") {
                s.endpoint = .maildir(path: v.resolve(String(e.value.dropFirst(8))))
            } else if e.value.hasPrefix("imaps://") || e.value.hasPrefix("imap://") {
                do {
                    s.endpoint = .imap(try MailServerURL.parse(e.value))
                } catch let error as MailError {
                    v.problem(e.line, "url \(error.message)")
                } catch {
                    v.problem(e.line, "url \(e.value): \(error)")
                }
            } else {
                v.problem(e.line, "url must start with imaps://, imap:// or maildir:, not '\(e.value)'")
            }
        },
        ConfigKey("user") { s, e, _ in s.user = e.value },
        ConfigKey("password_command") { s, e, _ in s.passwordCommand = e.value },
        ConfigKey("password") { s, e, v in s.password = v.password(e) },
        ConfigKey("oauth2_token_command") { s, e, _ in s.oauth2TokenCommand = e.value },
        ConfigKey("mailboxes") { s, e, v in
            s.mailboxes = v.list(e.value)
            if s.mailboxes.isEmpty { v.problem(e.line, "mailboxes is empty; leave it out for INBOX") }
        },
        ConfigKey("ca_file") { s, e, v in s.caFile = v.resolve(e.value) },
        ConfigKey("tls") { s, e, v in s.tlsOff = v.bool(e) == false },
        ConfigKey("timeout") { s, e, v in s.timeout = v.seconds(e) },
        ConfigKey("command_timeout") { s, e, v in s.commandTimeout = v.seconds(e) },
        ConfigKey("archive") { s, e, v in
            let folder = e.value.trimmingCharacters(in: .whitespaces)
            if folder.isEmpty { return v.problem(e.line, "archive is empty; name a folder, or leave it out for the server's \\Archive folder") }
            s.archive = folder
        },
        // Issue 28, one-tap unsubscribe (docs/digest.md).
        ConfigKey("authserv_id") { s, e, v in
            let id = e.value.trimmingCharacters(in: .whitespaces)
            guard !id.isEmpty, id.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != ";" && $0 != "\"" }) else {
                return v.problem(e.line, "authserv_id must be the name your server writes first in its Authentication-Results "
                                 + "(such as mx.example.net: no spaces, quotes or semicolons), not '\(e.value)'")
            }
            s.authservID = id
        },
        // Issue 29: the folder `in:Sent` reads (follow-ups on sent mail, docs/rules.md).
        ConfigKey("sent") { s, e, v in
            let folder = e.value.trimmingCharacters(in: .whitespaces)
            if folder.isEmpty { return v.problem(e.line, "sent is empty; name a folder, or leave it out for the server's \\Sent folder") }
            s.sent = folder
        },
        ConfigKey("snoozed") { s, e, v in
            let folder = e.value.trimmingCharacters(in: .whitespaces)
            if folder.isEmpty { return v.problem(e.line, "snoozed is empty; name a folder, or leave it out for \"Snoozed\"") }
            if folder.uppercased() == "INBOX" { return v.problem(e.line, "snoozed cannot be INBOX: snoozed mail leaves INBOX until it wakes") }
            s.snoozed = folder
        },
        ConfigKey("sieve_port") { s, e, v in
            guard let port = UInt16(e.value.trimmingCharacters(in: .whitespaces)), port > 0 else {
                return v.problem(e.line, "sieve_port must be a port number (1-65535; ManageSieve's usual port is 4190), not '\(e.value)'")
            }
            s.sievePort = port
        },
        // Issue 14, narrowing on the server (docs/run.md).
        ConfigKey("server_search") { s, e, v in
            guard let mode = ServerSearchMode(rawValue: e.value.trimmingCharacters(in: .whitespaces).lowercased()) else {
                return v.problem(e.line, "server_search must be auto, substring or off, not '\(e.value)'")
            }
            s.serverSearch = mode
        },
        // Issue 26: `triage watch` within the server's connection limit (docs/watch.md).
        ConfigKey("max_connections") { s, e, v in s.maxConnections = v.number(e, 1...100, "connections") },
    ]

    /// `[place NAME]`: a named place for reminders (`near "NAME"`).
    static let place: [ConfigKey<Place>] = [
        ConfigKey("at") { s, e, v in
            guard let c = ReminderSyntax.coordinates(e.value) else {
                return v.problem(e.line, "at must be LAT,LON in decimal degrees (latitude -90..90, longitude -180..180), as in at = 38.9717,-95.2353; not '\(e.value)'")
            }
            (s.latitude, s.longitude) = (c.latitude, c.longitude)
        },
        ConfigKey("radius") { s, e, v in
            guard let metres = ReminderSyntax.radius(e.value) else {
                return v.problem(e.line, "radius must be a number above 0 and a unit (m, km, mi), as in radius = 200 m; not '\(e.value)'")
            }
            s.radiusMeters = metres
        },
    ]

    /// The radius of a `[place NAME]` without `radius`, in metres.
    static let defaultPlaceRadius = 100.0

    /// `[digest]`.
    static let digest: [ConfigKey<DigestSection>] = [
        ConfigKey("to") { s, e, _ in s.to = e.value },
        ConfigKey("from") { s, e, _ in s.from = e.value },
        ConfigKey("hour") { s, e, v in if let hour = v.number(e, 0...23) { s.hour = hour } },
        ConfigKey("smtp") { s, e, v in
            guard e.value.hasPrefix("smtps://") || e.value.hasPrefix("smtp://") || e.value.hasPrefix("file:")
                    || e.value == "sendmail" || e.value.hasPrefix("sendmail:") else {
                return v.problem(e.line, "smtp must start with smtps://, smtp:// or file:, or be sendmail or sendmail:PATH, not '\(e.value)'")
            }
            do {
                s.smtp = try DeliveryEndpoint(parsing: e.value)
                if case .directory(let path) = s.smtp { s.smtp = .directory(path: v.resolve(path)) }
            } catch let error as ConfigError {
                for problem in error.problems { v.problem(e.line, problem.message) }
            } catch {
                v.problem(e.line, "smtp: \(error)")
            }
        },
        ConfigKey("user") { s, e, _ in s.user = e.value },
        ConfigKey("password_command") { s, e, _ in s.passwordCommand = e.value },
        ConfigKey("password") { s, e, v in s.password = v.password(e) },
        ConfigKey("ca_file") { s, e, v in s.caFile = v.resolve(e.value) },
        ConfigKey("send_empty") { s, e, v in s.sendEmpty = v.bool(e) ?? false },
        ConfigKey("command_timeout") { s, e, v in s.commandTimeout = v.seconds(e) },
        ConfigKey("tls") { s, e, v in s.tlsOff = v.bool(e) == false },
        // The actionable digest (docs/digest.md).
        ConfigKey("compact") { s, e, v in
            let names = v.list(e.value)
            s.compact = names.count == 1 && names[0].lowercased() == "none" ? [] : names
        },
        ConfigKey("trash") { s, e, v in
            guard !e.value.isEmpty else { return v.problem(e.line, "trash wants a folder name, as in trash = Trash") }
            s.trash = e.value
        },
        ConfigKey("reply_days") { s, e, v in
            if let days = v.number(e, 1...DigestSection.maximumReplyDays, "days") { s.replyDays = days }
        },
    ]

    /// `[caldav NAME]` (docs/caldav.md); `queue.NAME = LIST` keys are read by the loader.
    static let caldav: [ConfigKey<CalDAVSection>] = [
        ConfigKey("url") { s, e, v in
            let lower = e.value.lowercased()
            guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else {
                return v.problem(e.line, "url must start with https:// (or http:// to this machine), not '\(e.value)'")
            }
            s.url = e.value
        },
        ConfigKey("user") { s, e, _ in s.user = e.value },
        ConfigKey("password_command") { s, e, _ in s.passwordCommand = e.value },
        ConfigKey("password") { s, e, v in s.password = v.password(e) },
        ConfigKey("ca_file") { s, e, v in s.caFile = v.resolve(e.value) },
        ConfigKey("reminders") { s, e, _ in
            s.remindersList = e.value.lowercased() == "off" || e.value.isEmpty ? nil : e.value
        },
        ConfigKey("queues") { s, e, v in
            for queue in v.list(e.value) where s.queueLists[queue] == nil { s.queueLists[queue] = queue }
        },
        ConfigKey("create_lists") { s, e, v in if let b = v.bool(e) { s.createLists = b } },
        ConfigKey("timeout") { s, e, v in s.timeout = v.seconds(e) },
        ConfigKey("command_timeout") { s, e, v in s.commandTimeout = v.seconds(e) },
        ConfigKey("interval") { s, e, v in s.interval = v.number(e, 10...86400, "seconds") },
    ]

    /// The keys `[digest]` cannot do without.
    static let digestRequired = ["to", "from", "smtp"]
}
