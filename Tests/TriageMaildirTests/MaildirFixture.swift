import Foundation
import TriageCore
import TriageMaildir

/// A throw-away Maildir and store for the runner tests over a real Maildir
/// (MaildirRunTests, RefusedStoreTests): messages delivered by number, a minimal
/// header reader, and `MailboxRunner` runs of account `demo`, INBOX, that collect the
/// events.
final class MaildirFixture {
    let dir: String
    var maildir: String { dir + "/Maildir" }
    var storePath: String { dir + "/store" }
    /// The runs' clock.
    let now = Date(timeIntervalSince1970: 1_796_000_000)  // 2026-11-30

    /// `triage-PURPOSE-UUID` with a Maildir and its Maildir++ `folders` (`.Lists.dev`).
    init(_ purpose: String, folders: [String] = []) throws {
        dir = NSTemporaryDirectory() + "triage-\(purpose)-\(UUID().uuidString)"
        for sub in [""] + folders.map({ "/" + $0 }) {
            for leaf in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(atPath: maildir + sub + "/" + leaf, withIntermediateDirectories: true)
            }
        }
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Delivers message `n`: `headers`, then `Message-ID: <mN@x.test>`, and the body
    /// `Body N`; into new/, or into cur/ marked seen when `seen`.
    func deliver(_ n: Int, headers: [String], seen: Bool = false) throws {
        let text = (headers + ["Message-ID: <m\(n)@x.test>", "", "Body \(n)", ""]).joined(separator: "\r\n")
        let name = seen ? "cur/\(1_700_000_000 + n).M\(n)P1.host:2,S" : "new/\(1_700_000_000 + n).M\(n)P1.host"
        try text.write(toFile: maildir + "/" + name, atomically: false, encoding: .utf8)
    }

    /// A minimal header reader (Subject and Message-ID), so these tests do not depend
    /// on the MIME parser.
    static func parse(_ bytes: [UInt8]) -> Message {
        var m = Message()
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\r\n") {
            if line.hasPrefix("Subject: ") { m.subject = String(line.dropFirst(9)) }
            if line.hasPrefix("Message-ID: <") { m.messageID = String(line.dropFirst(13).dropLast()) }
        }
        return m
    }

    /// One run over `connection` (closed afterwards) with the store in `storePath`.
    func run(on connection: MailConnection, options: RunOptions,
             classify: @escaping (Message) -> [PlannedAction]) throws -> (MailboxRunner.Outcome, [RunEvent]) {
        var events: [RunEvent] = []
        let store = Store(path: storePath, timeZone: TimeZone(identifier: "UTC")!)
        let runner = MailboxRunner(account: "demo", mailbox: "INBOX", store: store, options: options, now: now,
                                   parse: Self.parse, classify: classify, report: { events.append($0) })
        defer { connection.close() }
        return (try runner.run(on: connection), events)
    }
}
