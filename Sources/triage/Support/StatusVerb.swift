import Foundation
import TriageCore

/// `done`, `reopen` and `remove` followed by ids, as `queue` and `remind` both
/// take them: one way to change the status of a record by hand.
enum StatusVerb {
    /// Each verb and the status it sets.
    static let all: [(verb: String, status: WorkStatus)] = [("done", .done), ("reopen", .open), ("remove", .removed)]

    /// When `a`'s first word is a verb, sets the status of the records named after
    /// it (full ids or unique prefixes) and returns .ok; nil for any other word.
    /// An unknown or ambiguous id is a data error (65) that changes nothing.
    static func apply<R: StoreRecord>(_ a: Arguments, _ type: R.Type, context: Context,
                                      set: (Store, [String], WorkStatus, Date) throws -> Void) throws -> ExitStatus? {
        guard let verb = a.positional.first, let status = all.first(where: { $0.verb == verb })?.status else { return nil }
        guard !a.has("--all"), !a.has("--json") else {
            throw SimpleError(.usage, "\(a.command) \(verb): --all and --json are for listing; see 'triage \(a.command) --help'")
        }
        let typed = Array(a.positional.dropFirst())
        guard !typed.isEmpty else {
            throw SimpleError(.usage, "\(a.command) \(verb): name at least one \(R.noun) id (see 'triage \(a.command) list')")
        }
        let (setup, context) = try RunSetup.load(a, context: context)
        try set(setup.store, try setup.store.resolve(type, typed), status, context.now)
        return .ok
    }
}
