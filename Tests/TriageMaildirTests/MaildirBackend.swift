import Foundation
import TriageCore
import TriageMaildir
import TriageTestSupport

/// A Maildir in a temporary folder (removed by `remove()`), for `MailConnectionContract`.
struct MaildirBackend: ContractBackend {
    public let name = "Maildir"
    public let root = NSTemporaryDirectory() + "triage-contract-\(UUID().uuidString)"
    private static let counter = Counter()

    public init() throws {
        for folder in ["", "/.Archive"] {
            for leaf in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(atPath: root + folder + "/" + leaf, withIntermediateDirectories: true)
            }
        }
    }

    public func connect() throws -> MailConnection { try MaildirConnection(root: root) }

    public func seed(_ message: String, mailbox: String, flags: String, date: Date) throws {
        let folder = mailbox == "INBOX" ? root : root + "/." + mailbox
        // Named like Dovecot's seed: MaildirConnection numbers messages in name order.
        let path = folder + "/cur/\(Int(date.timeIntervalSince1970)).M\(Self.counter.next())P\(getpid()).contract:2,\(String(flags.sorted()))"
        guard FileManager.default.createFile(atPath: path, contents: Data(message.utf8)) else {
            throw NSError(domain: "MaildirBackend", code: 1, userInfo: [NSLocalizedDescriptionKey: "cannot write \(path)"])
        }
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }

    public func remove() { try? FileManager.default.removeItem(atPath: root) }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
    }
}
