/// `[caldav NAME]`: a CalDAV server whose task lists hold the reminders and queues
/// (docs/caldav.md).
public struct CalDAVSection: Sendable {
    /// The NAME in `[caldav NAME]` (also names the sync state file).
    public var name: String
    /// `url`: the server (discovery through `/.well-known/caldav`), a principal, or the calendar home.
    public var url: String
    /// The login name.
    public var user: String?
    /// A shell command whose standard output is the password.
    public var passwordCommand: String?
    /// The password itself (only allowed when the file is private).
    public var password: String?
    /// An extra trust anchor (PEM), absolute path.
    public var caFile: String?
    /// `reminders = LIST NAME`: the list of the reminders (default "Reminders"); nil with `reminders = off`.
    public var remindersList: String? = "Reminders"
    /// The queues synced, each to its list: `queues = rec, invitations` (list named after
    /// the queue) or `queue.rec = LIST NAME`.
    public var queueLists: [String: String] = [:]
    /// `create_lists = yes|no`: create a missing list (MKCALENDAR), or report it (default yes).
    public var createLists = true
    /// `timeout = SECONDS` for each request; nil for the default (60 s).
    public var timeout: Int?
    /// `command_timeout = SECONDS` for `password_command`; nil for the default (30 s).
    public var commandTimeout: Int?
    /// `interval = SECONDS`: how often `triage watch` syncs at the least, for changes
    /// made on the phone (it also syncs after every pass that took mail); nil for the
    /// default, `defaultInterval`.
    public var interval: Int?
    /// `interval`'s default: five minutes.
    public static let defaultInterval = 300
    /// The line of the section header, for messages.
    public var line = 0

    /// Creates a section.
    public init(name: String, url: String) {
        self.name = name
        self.url = url
    }

    /// The lists to sync: each list's name with whether it holds the reminders and which queues.
    public var lists: [(name: String, reminders: Bool, queues: Set<String>)] {
        var out: [(name: String, reminders: Bool, queues: Set<String>)] = []
        func add(_ list: String, reminders: Bool, queue: String?) {
            if let i = out.firstIndex(where: { $0.name == list }) {
                out[i].reminders = out[i].reminders || reminders
                if let queue { out[i].queues.insert(queue) }
            } else {
                out.append((list, reminders, queue.map { [$0] } ?? []))
            }
        }
        if let remindersList { add(remindersList, reminders: true, queue: nil) }
        for (queue, list) in queueLists.sorted(by: { $0.key < $1.key }) { add(list, reminders: false, queue: queue) }
        return out
    }
}
