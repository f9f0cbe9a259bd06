import Foundation
import TriageApp
import TriageCore

/// `done`, `reopen` and `remove` followed by ids, as `queue` and `remind` both
/// take them: one way to change the status of a record by hand.
enum StatusVerb {
    /// Each verb and the status it sets.
    static let all: [(verb: String, status: WorkStatus)] = [("done", .done), ("reopen", .open), ("remove", .removed)]

    /// When `a`'s first word is a verb, sets the status of the records named after
    /// it (full ids or unique prefixes), prints one line per record it names
    /// (`done: 0162 Invoice for your order #10078`) and returns .ok; nil for any other word.
    /// An unknown or ambiguous id is a data error (65) that changes nothing; an id
    /// of the other kind (a reminder given to `queue done`) says which command takes it.
    /// The store lock is waited for a few seconds (`LockWait`).
    static func apply<R: StoreRecord>(_ a: Arguments, _ type: R.Type, context: Context,
                                      set: (Store, [String], WorkStatus, Date) throws -> [R]) throws -> ExitStatus? {
        guard let verb = a.positional.first, let status = all.first(where: { $0.verb == verb })?.status else { return nil }
        guard !a.has("--all"), !a.has("--json") else {
            throw SimpleError(.usage, "\(a.command) \(verb): --all and --json are for listing; see 'triage \(a.command) --help'")
        }
        let typed = Array(a.positional.dropFirst())
        guard !typed.isEmpty else {
            throw SimpleError(.usage, "\(a.command) \(verb): name at least one \(R.noun) id (see 'triage \(a.command) list')")
        }
        let (setup, context) = try RunSetup.load(a, context: context)
        let store = setup.store
        let changed = try LockWait.holding(store, context: context) { () throws -> [R] in
            let ids: [String]
            do {
                ids = try store.resolve(type, typed)
            } catch StoreError.ids(let problems) {
                if let hint = otherKind(problems, verb: verb, command: a.command, store: store) { throw hint }
                throw StoreError.ids(problems)
            }
            return try set(store, ids, status, context.now)
        }
        let index = store.shortIDs(R.self)
        context.out(changed.map { "\(verb): \(index.short($0.id)) \(title(of: $0))\n" }.joined())
        return .ok
    }

    /// What a line names a record by: a queue entry's subject, a reminder's title;
    /// one line, control characters as spaces.
    static func title(of record: some StoreRecord) -> String {
        let text: String
        switch record {
        case let entry as QueueEntry: text = entry.message.subject ?? "(no subject)"
        case let reminder as Reminder: text = reminder.title
        default: text = record.candidateLabel
        }
        return ControlCharacters.replaced(in: text)
    }

    /// `0162 is a reminder: triage remind done 0162` when every unknown id names a
    /// record of the other kind (`queue` ↔ `remind`); nil otherwise.
    private static func otherKind(_ problems: [StoreError.IDProblem], verb: String, command: String,
                                  store: Store) -> SimpleError? {
        var unknown: [String] = []
        for problem in problems {
            guard case .unknown(let id, _) = problem else { return nil }
            unknown.append(id)
        }
        let other = command == "queue" ? "remind" : "queue"
        let found = command == "queue" ? (try? store.resolve(Reminder.self, unknown)) : (try? store.resolve(QueueEntry.self, unknown))
        guard found != nil else { return nil }
        let noun = other == "remind" ? "a reminder" : "a queue entry"
        let lines = unknown.map { "\($0) is \(noun): triage \(other) \(verb) \($0)" }
        return SimpleError(.dataError, lines.joined(separator: "\ntriage: "))
    }
}
