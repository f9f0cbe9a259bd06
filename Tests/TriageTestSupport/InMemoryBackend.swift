import Foundation
import TriageCore

/// An account on an `InMemoryMailConnection` server (INBOX and `Archive`), for the
/// `MailConnectionContract` in a unit-test target.
public struct InMemoryBackend: ContractBackend {
    public let name = "in-memory"
    /// The first session; `connect()` opens others to the same server.
    public let first = InMemoryMailConnection(folders: ["Archive"])

    public init() {}

    public func connect() throws -> MailConnection { first.session() }

    public func seed(_ message: String, mailbox: String, flags: String, date: Date) throws {
        let letters: [Character: String] = ["S": "\\Seen", "F": "\\Flagged", "R": "\\Answered", "T": "\\Deleted", "D": "\\Draft"]
        first.deliver(raw: message, to: mailbox, flags: Set(flags.compactMap { letters[$0] }),
                      arrived: Int64(date.timeIntervalSince1970))
    }
}
