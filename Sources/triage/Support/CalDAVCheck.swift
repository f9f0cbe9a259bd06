import Foundation
import TriageApp
import TriageCalDAV
import TriageCore
import TriageCurl

/// What `triage check` says of the `[caldav NAME]` sections (its `ca_file` is
/// `TrustFileCheck`'s): with no connection, a url a sync would refuse and queues
/// no rule fills; with `--connect`, the login and the task lists a sync would use.
enum CalDAVCheck {
    /// A url a sync refuses before any request (plain http:// to another machine): exit 78.
    static func problems(_ configuration: Configuration) -> [ConfigProblem] {
        configuration.caldav.filter { !HTTPClient.isSafe($0.url) }.map { section in
            ConfigProblem(path: configuration.path, line: section.line,
                          message: "[caldav \(section.name)] url \(WebhookPoster.origin(of: section.url)) is plain http:// to another "
                              + "machine: the password would cross the network in clear; use https:// (http:// only to localhost)")
        }
    }

    /// A queue synced to a list that no rule queues to: a typo syncs nothing, silently.
    /// Only a warning: the store may hold entries from rules since removed.
    static func warnings(_ configuration: Configuration, rules: CompiledRules?) -> [String] {
        guard let rules else { return [] }
        var queued = Set<String>()
        for rule in rules.rules {
            for case .queue(let name, _) in rule.actions { queued.insert(name) }
        }
        var found: [String] = []
        for section in configuration.caldav {
            for queue in section.queueLists.keys.sorted() where !queued.contains(queue) {
                let known = queued.isEmpty ? "no rule queues anything" : "the rules queue to " + queued.sorted().joined(separator: ", ")
                found.append("[caldav \(section.name)] queue \(queue): no rule queues to it (\(known)), so its list "
                             + "\(String(reflecting: section.queueLists[queue] ?? queue)) stays empty; fix the name in queues = or queue.NAME =")
            }
        }
        return found
    }

    /// `check --connect`: logs in to each CalDAV server (discovery, as a sync does, within
    /// the section's timeout), lists its task lists and says where each list of the
    /// section is. A list that is missing with `create_lists = no`, or holds no tasks, is
    /// a problem (78); a failed login its own status.
    static func connect(_ configuration: Configuration, context: Context) -> ExitStatus {
        var worst = ExitStatus.ok
        for section in configuration.caldav where HTTPClient.isSafe(section.url) {
            let name = "caldav \(section.name)"
            let where_ = "[caldav \(section.name)]"
            do {
                var password = section.password
                if let command = section.passwordCommand {
                    password = try SecretCommand.run(command, purpose: "password_command of \(where_)", section: where_,
                                                     timeout: section.commandTimeout)
                }
                let http = HTTPClient(trust: TLSTrust(caFile: section.caFile), user: section.user, password: password,
                                      timeout: Double(section.timeout ?? 60))
                let client = CalDAVClient(http: http, configuredURL: section.url)
                let home = try client.calendarHome(section.url)
                let calendars = try client.calendars(in: home)
                let server = WebhookPoster.origin(of: section.url)
                let tasks = calendars.filter(\.takesTodos).map { String(reflecting: $0.displayName ?? CalDAVURLName.last($0.url)) }
                context.out("\(name): logged in to \(server); task lists there: \(tasks.isEmpty ? "none" : tasks.joined(separator: ", "))\n")
                for list in section.lists {
                    let parts = (list.reminders ? ["the reminders"] : []) + list.queues.sorted().map { "queue \($0)" }
                    let what = parts.joined(separator: " and ")
                    let go = parts.count == 1 && !list.reminders ? "goes" : "go"
                    let quoted = String(reflecting: list.name)
                    switch CalDAVSync.calendar(named: list.name, in: calendars) {
                    case let calendar? where calendar.takesTodos:
                        context.out("\(name): \(what) \(go) to the list \(quoted)\n")
                    case _?:
                        context.err("triage: \(name): the list \(quoted) holds no tasks (VTODO); name a task list in \(where_)\n")
                        worst = max(worst, .config)
                    case nil where section.createLists:
                        context.out("\(name): \(what) \(go) to the list \(quoted), not on the server yet: the first sync creates it\n")
                    case nil:
                        context.err("triage: \(name): no list \(quoted) on the server (for \(what)); create it on the phone, "
                                    + "or set create_lists = yes in \(where_)\n")
                        worst = max(worst, .config)
                    }
                }
            } catch let error as TriageError {
                context.err("triage: \(name): \(error.message)\n")
                worst = max(worst, error.exitStatus)
            } catch {
                context.err("triage: \(name): \(error)\n")
                worst = max(worst, .tempFail)
            }
        }
        return worst
    }
}

/// The last segment of a collection's URL, for a list with no display name.
private enum CalDAVURLName {
    static func last(_ url: String) -> String {
        url.split(separator: "/").last.map { $0.removingPercentEncoding ?? String($0) } ?? url
    }
}
