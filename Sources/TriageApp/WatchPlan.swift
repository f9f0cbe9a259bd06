import TriageCore

/// How `triage watch` watches one account within `[account] max_connections`
/// (issue 26): which connections it holds and what each one does. Servers refuse
/// logins beyond their own limit (Dovecot: 10 per user and address by default),
/// and a mailbox whose connection is refused would never be watched.
///
/// - With NOTIFY (RFC 5465) and IDLE: one connection watches every mailbox.
/// - With IDLE only: each mailbox its own connection and IDLE while there are fewer
///   mailboxes than `max_connections`; else IDLE on `max_connections - 1` of them
///   (INBOX first, then in the order given) and one connection that looks at the rest
///   with STATUS every `poll_interval`. So with `max_connections = 1` that one
///   connection polls every mailbox, and there is always a connection free for a
///   folder the Sieve script files into that appears later.
/// - Without IDLE (or a Maildir): one connection looks at every mailbox.
///
/// Each mailbox's passes run on the connection that watches it: never more than the
/// plan's connections, Sieve-filed folders included (they are among `mailboxes`).
package struct WatchPlan: Equatable {
    /// One connection and its work.
    package enum Channel: Equatable {
        /// NOTIFY for all these mailboxes, and IDLE to hear it.
        case notify([String])
        /// IDLE on this one mailbox.
        case idle(String)
        /// A look at each of these every `poll_interval` (STATUS where the server has it).
        case poll([String])

        /// The mailboxes this connection watches.
        package var mailboxes: [String] {
            switch self {
            case .notify(let names), .poll(let names): return names
            case .idle(let name): return [name]
            }
        }
    }

    /// The connections, the first one the one made first.
    package var channels: [Channel]

    /// The plan for `mailboxes` (configured ones, then Sieve-filed folders) on a server
    /// that has IDLE and NOTIFY or not, with at most `maxConnections` (at least 1).
    package static func make(mailboxes: [String], maxConnections: Int, idle: Bool, notify: Bool) -> WatchPlan {
        let ordered = inboxFirst(mailboxes)
        guard !ordered.isEmpty else { return WatchPlan(channels: []) }
        if idle && notify { return WatchPlan(channels: [.notify(ordered)]) }
        guard idle else { return WatchPlan(channels: [.poll(ordered)]) }
        let budget = max(1, maxConnections)
        if ordered.count < budget { return WatchPlan(channels: ordered.map { .idle($0) }) }
        let idling = ordered.prefix(budget - 1)
        return WatchPlan(channels: idling.map { .idle($0) } + [.poll(Array(ordered.dropFirst(budget - 1)))])
    }

    /// INBOX (any case) first, the rest in their order, each once.
    package static func inboxFirst(_ mailboxes: [String]) -> [String] {
        var seen: Set<String> = []
        let unique = mailboxes.filter { seen.insert($0.uppercased() == "INBOX" ? "INBOX" : $0).inserted }
        return unique.filter { $0.uppercased() == "INBOX" } + unique.filter { $0.uppercased() != "INBOX" }
    }
}
